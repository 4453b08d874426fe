-- The coverage map (decision 056): the NGSS codes of each artifact's standards tags, kept beside
-- its answers, so that a map of the whole installation counts codes of a small indexed column
-- instead of reading every artifact's answers. `standard_codes` holds the practices (SEP1-SEP8),
-- crosscutting concepts (CCC1-CCC7) and core ideas (PS1-ETS1; an item such as "PS2.A: ..." or a
-- heading counts for its core idea) of the `standardFrameworkTags` answer, web and mobile
-- spellings alike. It is a stored generated column: PostgreSQL computes it on every insert and
-- every change of the answers (and for the existing rows while adding it), nothing writes it,
-- and backups leave it out (decision 040 copies only the columns that are not generated; a
-- restore computes it again).
-- Rollback plan: DROP INDEX artifacts_coverage_idx, shared_artifacts_coverage_idx; ALTER TABLE
-- artifacts DROP COLUMN standard_codes; ALTER TABLE shared_artifacts DROP COLUMN standard_codes;
-- DROP FUNCTION standard_codes(jsonb).
CREATE FUNCTION standard_codes(tags jsonb) RETURNS text[]
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$
  SELECT coalesce(array_agg(DISTINCT c.code ORDER BY c.code), '{}')
  FROM (
    SELECT coalesce(m.code, substring(t.tag FROM '^(?:Core Idea )?(PS[1-4]|LS[1-4]|ESS[1-3]|ETS1)[.:]')) AS code
    FROM jsonb_array_elements_text(CASE WHEN jsonb_typeof(tags) = 'array' THEN tags ELSE '[]'::jsonb END) AS t (tag)
    LEFT JOIN (VALUES
    ('Asking questions (for science) and defining problems (for engineering)', 'SEP1'),
    ('Developing and using models', 'SEP2'),
    ('Planning and carrying out investigations', 'SEP3'),
    ('Analyzing and interpreting data', 'SEP4'),
    ('Using mathematics, information and computer technology, and computational thinking', 'SEP5'),
    ('Constructing explanations (for science) and designing solutions (for engineering)', 'SEP6'),
    ('Engaging in argument from evidence', 'SEP7'),
    ('Obtaining, evaluating, and communicating information', 'SEP8'),
    ('Using Mathematics and Computational Thinking', 'SEP5'),
    ('Patterns', 'CCC1'),
    ('Cause and Effect', 'CCC2'),
    ('Scale, Proportion, and Quantity', 'CCC3'),
    ('Systems and System Models', 'CCC4'),
    ('Energy and Matter', 'CCC5'),
    ('Structure and Function', 'CCC6'),
    ('Stability and Change', 'CCC7')
    ) AS m (tag, code) ON m.tag = t.tag
  ) AS c
  WHERE c.code IS NOT NULL
$$;

ALTER TABLE artifacts ADD COLUMN standard_codes text[]
  GENERATED ALWAYS AS (standard_codes(responses -> 'standardFrameworkTags')) STORED;
ALTER TABLE shared_artifacts ADD COLUMN standard_codes text[]
  GENERATED ALWAYS AS (standard_codes(responses -> 'standardFrameworkTags')) STORED;

-- A map reads only these: the row's key and the codes (index-only scans once vacuumed).
CREATE INDEX artifacts_coverage_idx ON artifacts (portfolio_id) INCLUDE (standard_codes);
CREATE INDEX shared_artifacts_coverage_idx ON shared_artifacts (shared_portfolio_id, owner_id) INCLUDE (standard_codes);
