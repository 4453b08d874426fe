-- Security hardening (decision 017).
-- When a member's continuous hold of an edit lock began: a lock may be renewed for at most an
-- hour, then its holder rests a quarter of an hour, so that nobody keeps a colleague out for good.
-- Rollback plan: ALTER TABLE shared_artifacts DROP COLUMN lock_started_at;
ALTER TABLE shared_artifacts ADD COLUMN lock_started_at timestamptz;
