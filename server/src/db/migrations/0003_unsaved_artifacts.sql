-- A new artifact is kept only once it is saved: until its first save (a PUT of its answers, or a
-- create that already carries answers) it is listed nowhere, counted nowhere, and removed when
-- abandoned (by its editor on leaving, or by housekeeping after a day).
-- Rows written before this migration, and rows inserted without naming the column (demo data),
-- are saved ones.
-- Rollback plan: DROP INDEX artifacts_unsaved_idx; ALTER TABLE artifacts DROP COLUMN saved;
ALTER TABLE artifacts ADD COLUMN saved boolean NOT NULL DEFAULT true;
CREATE INDEX artifacts_unsaved_idx ON artifacts (created_at) WHERE NOT saved;
