-- Caption tracks belong to the artifact holding the video, not to the file (decision 019,
-- 2026-11-27): a personal artifact and each of its shared copies have their own tracks, so an
-- edit on a copy never reaches the personal artifact or another copy. A copy starts with the
-- tracks of what it was copied from.
-- Rollback plan: DELETE the rows with a shared_artifact_id, then DROP the two indexes, the
-- check and the two columns (the remaining tracks are then again the file's).
ALTER TABLE caption_tracks
  ADD COLUMN artifact_id integer REFERENCES artifacts (id) ON DELETE CASCADE,
  ADD COLUMN shared_artifact_id integer REFERENCES shared_artifacts (id) ON DELETE CASCADE;

-- Each existing track goes to every artifact and shared artifact holding its video.
INSERT INTO caption_tracks (media_id, artifact_id, language, label, cues, created_by, created_at, updated_at)
  SELECT t.media_id, am.artifact_id, t.language, t.label, t.cues, t.created_by, t.created_at, t.updated_at
  FROM caption_tracks t JOIN artifact_media am ON am.media_id = t.media_id
  WHERE t.artifact_id IS NULL AND t.shared_artifact_id IS NULL;
INSERT INTO caption_tracks (media_id, shared_artifact_id, language, label, cues, created_by, created_at, updated_at)
  SELECT t.media_id, sm.shared_artifact_id, t.language, t.label, t.cues, t.created_by, t.created_at, t.updated_at
  FROM caption_tracks t JOIN shared_artifact_media sm ON sm.media_id = t.media_id
  WHERE t.artifact_id IS NULL AND t.shared_artifact_id IS NULL;
DELETE FROM caption_tracks WHERE artifact_id IS NULL AND shared_artifact_id IS NULL;

-- Two tracks of one video in one language ("English / English") become one: the newest stays.
DELETE FROM caption_tracks t USING caption_tracks n
  WHERE t.media_id = n.media_id AND lower(t.language) = lower(n.language)
    AND t.artifact_id IS NOT DISTINCT FROM n.artifact_id AND t.shared_artifact_id IS NOT DISTINCT FROM n.shared_artifact_id
    AND (t.updated_at, t.id) < (n.updated_at, n.id);

ALTER TABLE caption_tracks ADD CONSTRAINT caption_tracks_holder_check CHECK (num_nonnulls(artifact_id, shared_artifact_id) = 1);
CREATE UNIQUE INDEX caption_tracks_artifact_language ON caption_tracks (artifact_id, media_id, lower(language)) WHERE artifact_id IS NOT NULL;
CREATE UNIQUE INDEX caption_tracks_shared_language ON caption_tracks (shared_artifact_id, media_id, lower(language)) WHERE shared_artifact_id IS NOT NULL;
