-- Security hardening (decision 017).
-- When a member's continuous hold of an edit lock began: a lock may be renewed for at most an
-- hour, then its holder rests a quarter of an hour, so that nobody keeps a colleague out for good.
-- Rollback plan: ALTER TABLE shared_artifacts DROP COLUMN lock_started_at;
ALTER TABLE shared_artifacts ADD COLUMN lock_started_at timestamptz;

-- Searches for people to invite are counted per searcher (a window like the sign-in limits').
-- Rollback plan: restore the CHECK without 'member_search' after deleting those rows.
ALTER TABLE auth_events DROP CONSTRAINT auth_events_kind_check;
ALTER TABLE auth_events ADD CONSTRAINT auth_events_kind_check CHECK (kind IN ('login_failure', 'forgot_request', 'reset_failure', 'member_search'));

-- Server-side sessions: a sign-in is a row; its tokens name it (`sid`). Signing out ends it at
-- once wherever its token is used; refreshing cannot carry it past its absolute end.
-- Rollback plan: DROP TABLE sessions;
CREATE TABLE sessions (
  id          uuid PRIMARY KEY,
  user_id     integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at  timestamptz NOT NULL DEFAULT now(),
  expires_at  timestamptz NOT NULL,
  ended_at    timestamptz
);
CREATE INDEX sessions_user_idx ON sessions (user_id);
CREATE INDEX sessions_expires_idx ON sessions (expires_at);

-- Per-person storage: the sum of one person's uploads is looked up before each upload.
CREATE INDEX media_files_uploaded_by_idx ON media_files (uploaded_by);
