-- The scheduled backups (BACKUP_DIR): when each ran, what it wrote, or why it failed, for
-- `npm run admin -- backups` and the researchers' e-mail on a failure.
-- Rollback plan: DROP TABLE backup_runs;
CREATE TABLE backup_runs (
  id          serial PRIMARY KEY,
  started_at  timestamptz NOT NULL DEFAULT ms_now(),
  finished_at timestamptz,
  file        text,
  size        bigint,
  ok          boolean,
  error       text
);
CREATE INDEX backup_runs_started_idx ON backup_runs (started_at DESC);
