-- Which server node is writing a file not yet committed: a node that starts sweeps only its own
-- (from before it stopped) and the files released for deletion (no node); the housekeeping sweeps
-- another node's once they are older than any request may last. Several nodes share one bucket,
-- so a node that starts must not delete the upload another node is receiving.
-- Rollback plan: ALTER TABLE pending_uploads DROP COLUMN node;
ALTER TABLE pending_uploads ADD COLUMN node text;
