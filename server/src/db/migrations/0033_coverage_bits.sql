-- The coverage map (decision 062): each artifact's NGSS codes also as the bits of one integer, so
-- that counting the artifacts tagged with a column is an integer AND instead of a search of an
-- array (a third of the time on the whole installation). Bit i (from 0) is the i-th code of the
-- list below: the practices SEP1-SEP8, the crosscutting concepts CCC1-CCC7 and the core ideas
-- PS1-ETS1, in the order of the map's columns (a test holds the server's list to it).
-- `standard_bits` is a stored generated column computed from the same answers as
-- `standard_codes` (migration 0028): nothing writes it, it cannot drift, and backups leave it out
-- like every generated column (a restore computes it again). The map's covering indexes read the
-- bits instead of the arrays; the cell's list of artifacts still reads `standard_codes`.
-- `shared_artifacts_scored_idx` lets the map find the owner and portfolio of each scored shared
-- artifact from an index instead of the table's wide rows.
-- Rollback plan: DROP INDEX artifacts_coverage_bits_idx, shared_artifacts_coverage_bits_idx,
-- shared_artifacts_scored_idx; ALTER TABLE artifacts DROP COLUMN standard_bits; ALTER TABLE
-- shared_artifacts DROP COLUMN standard_bits; DROP FUNCTION standard_bits(text[]); and create
-- again the two indexes of migration 0028.
CREATE FUNCTION standard_bits(codes text[]) RETURNS integer
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$
  SELECT coalesce(bit_or(1 << (array_position(ARRAY[
    'SEP1', 'SEP2', 'SEP3', 'SEP4', 'SEP5', 'SEP6', 'SEP7', 'SEP8',
    'CCC1', 'CCC2', 'CCC3', 'CCC4', 'CCC5', 'CCC6', 'CCC7',
    'PS1', 'PS2', 'PS3', 'PS4', 'LS1', 'LS2', 'LS3', 'LS4', 'ESS1', 'ESS2', 'ESS3', 'ETS1'
  ]::text[], c.code) - 1)), 0)
  FROM unnest(codes) AS c (code)
$$;

ALTER TABLE artifacts ADD COLUMN standard_bits integer
  GENERATED ALWAYS AS (standard_bits(standard_codes(responses -> 'standardFrameworkTags'))) STORED;
ALTER TABLE shared_artifacts ADD COLUMN standard_bits integer
  GENERATED ALWAYS AS (standard_bits(standard_codes(responses -> 'standardFrameworkTags'))) STORED;

CREATE INDEX artifacts_coverage_bits_idx ON artifacts (portfolio_id) INCLUDE (standard_bits);
CREATE INDEX shared_artifacts_coverage_bits_idx ON shared_artifacts (shared_portfolio_id, owner_id) INCLUDE (standard_bits);
CREATE INDEX shared_artifacts_scored_idx ON shared_artifacts (id) INCLUDE (owner_id, shared_portfolio_id);
DROP INDEX artifacts_coverage_idx;
DROP INDEX shared_artifacts_coverage_idx;
