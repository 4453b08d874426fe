-- The per-person and per-address request limits (@fastify/rate-limit), counted in the database so
-- that a limit of N per minute is N for the installation, whatever the number of server nodes.
-- Unlogged: a counter lost in a crash only gives a flooder a fresh window.
-- Rollback plan: DROP TABLE rate_limit_counters;
CREATE UNLOGGED TABLE rate_limit_counters (
  key         text PRIMARY KEY,
  count       integer NOT NULL,
  window_ends timestamptz NOT NULL
);
