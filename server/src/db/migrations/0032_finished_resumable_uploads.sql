-- A finished resumable upload is remembered until its expiry (a day after its last byte), with the
-- file record it became: when the answer to its last PATCH is lost, the client asks again (HEAD, or
-- the last PATCH once more) and learns it is complete, instead of sending the whole file again as a
-- new upload. A finished row reserves no quota (its file counts instead); the housekeeping deletes it
-- at expiry. `media_id` has no foreign key: a file deleted meanwhile leaves the upload answering 404
-- to the repeated PATCH, and the backup loads the table whatever the order.
-- Rollback plan: DELETE FROM resumable_uploads WHERE finished_at IS NOT NULL;
--   ALTER TABLE resumable_uploads DROP COLUMN finished_at, DROP COLUMN media_id;
ALTER TABLE resumable_uploads
  ADD COLUMN finished_at timestamptz,
  ADD COLUMN media_id    integer;
