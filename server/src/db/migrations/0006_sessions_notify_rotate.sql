-- Every process that caches signed-in principals hears at once (at commit) when an account or a
-- session changes, whoever changed it: another server process, the admin command, or SQL.
CREATE FUNCTION notify_principal_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('principal_changed', CASE WHEN TG_TABLE_NAME = 'users' THEN 'u' ELSE 's' END || OLD.id::text);
  RETURN NULL;
END
$$;

CREATE TRIGGER users_principal_changed AFTER UPDATE OR DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION notify_principal_changed();

CREATE TRIGGER sessions_principal_changed AFTER UPDATE OR DELETE ON sessions
  FOR EACH ROW EXECUTE FUNCTION notify_principal_changed();

-- Refresh rotates a session's tokens: each refresh raises the generation, and a token of an
-- older generation stops working (the one just replaced keeps working for a minute, for
-- requests already under way).
ALTER TABLE sessions ADD COLUMN generation integer NOT NULL DEFAULT 0;
ALTER TABLE sessions ADD COLUMN rotated_at timestamptz;
