-- Where the media files are: this machine's uploads folder ('local') or an S3 bucket ('s3'). A
-- server refuses to start with a MEDIA_STORE that does not match, so files are never looked for
-- in the wrong place; `npm run admin -- media copy-to-s3` moves them and then switches this row.
-- An installation that already holds files has them in its uploads folder; a new one (no row)
-- records the store of its first start.
-- Rollback plan: DROP TABLE media_location;
CREATE TABLE media_location (
  only_row    boolean PRIMARY KEY DEFAULT true CHECK (only_row),
  store       text NOT NULL CHECK (store IN ('local', 's3')),
  bucket      text CHECK ((store = 's3') = (bucket IS NOT NULL)),
  switched_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO media_location (store) SELECT 'local' WHERE EXISTS (SELECT 1 FROM media_files);
