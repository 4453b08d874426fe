-- Security hardening (decision 017).
-- When a member's continuous hold of an edit lock began: a lock may be renewed for at most an
-- hour, then its holder rests a quarter of an hour, so that nobody keeps a colleague out for good.
-- Rollback plan: ALTER TABLE shared_artifacts DROP COLUMN lock_started_at;
ALTER TABLE shared_artifacts ADD COLUMN lock_started_at timestamptz;

-- Searches for people to invite are counted per searcher (a window like the sign-in limits').
-- Rollback plan: restore the CHECK without 'member_search' after deleting those rows.
ALTER TABLE auth_events DROP CONSTRAINT auth_events_kind_check;
ALTER TABLE auth_events ADD CONSTRAINT auth_events_kind_check CHECK (kind IN ('login_failure', 'forgot_request', 'reset_failure', 'member_search'));
