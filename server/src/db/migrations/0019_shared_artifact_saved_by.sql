-- Who last saved a shared artifact's answers: the Edit Conflict dialog names them beside when
-- they saved. NULL: not known (saved before this migration, or never saved since it was copied)
-- or the account was removed.
-- Rollback plan: ALTER TABLE shared_artifacts DROP COLUMN updated_by;
ALTER TABLE shared_artifacts ADD COLUMN updated_by integer REFERENCES users (id) ON DELETE SET NULL;
