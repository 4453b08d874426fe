-- Resumable (tus) uploads not yet finished: whose each is, where it goes, the bytes it reserves of
-- its owner's storage quota (`length`, from Upload-Length), how far it got, and when it expires
-- (24 hours after its last byte; the housekeeping then deletes its parts and this row, which
-- gives the quota back). `finishing` is set while one request turns the finished upload into its
-- file record, so a repeated last request cannot record it twice.
-- Rollback plan: DROP TABLE resumable_uploads;
CREATE TABLE resumable_uploads (
  id            text PRIMARY KEY,
  owner_id      integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  target        text NOT NULL CHECK (target IN ('artifact', 'sharedArtifact')),
  portfolio_id  integer NOT NULL,
  artifact_id   integer NOT NULL,
  kind          text NOT NULL CHECK (kind IN ('images', 'videos', 'documents')),
  name          text NOT NULL,
  alt           text,
  description   text,
  length        bigint NOT NULL CHECK (length >= 0),
  upload_offset bigint NOT NULL DEFAULT 0,
  finishing     boolean NOT NULL DEFAULT false,
  created_at    timestamptz NOT NULL DEFAULT ms_now(),
  expires_at    timestamptz NOT NULL
);
CREATE INDEX resumable_uploads_owner_idx ON resumable_uploads (owner_id);
CREATE INDEX resumable_uploads_expires_idx ON resumable_uploads (expires_at);
