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
-- artifact from an index instead of the table's wide rows (the maps that read scores one by one:
-- a teacher's portfolios, and a member's view of a PLC limited to the scores she may see).
--
-- `score_level_counts`: how many scores each level of each criterion has per shared portfolio and
-- owner of the scored artifact, kept by triggers in the same transaction as the scores, so that
-- the installation's map reads a few thousand counts instead of grouping every score. Scores are
-- only inserted and deleted (directly, or with their shared artifact or their scorer); the
-- triggers work per statement on its transition table and lock the counts a statement changes in
-- key order. A shared artifact's own deletion subtracts its scores before they go (their cascaded
-- deletion then finds no artifact). Backups leave the table out (format.ts): a restore inserts the
-- scores and the triggers count them. The migration only adds (a table made from the scores, not
-- an INSERT into an existing one): no backup before it (decision 041).
-- Rollback plan: DROP TRIGGER scores_counted_insert, scores_counted_delete, scores_counted_update,
-- scores_counted_truncate ON scores; DROP TRIGGER shared_artifacts_scores_uncounted,
-- shared_artifacts_scores_moved ON shared_artifacts; DROP FUNCTION score_counts_add(),
-- score_counts_remove(), score_counts_update(), score_counts_truncate(),
-- score_counts_artifact_deleted(), score_counts_artifact_moved(), score_counts_subtract(jsonb);
-- DROP TABLE score_level_counts; DROP TRIGGER artifacts_tags_counted, artifacts_tags_recounted,
-- artifacts_tags_truncated ON artifacts; DROP FUNCTION tag_counts_changed(), tag_counts_truncate(),
-- tag_counts_add(integer, integer, integer), int_arrays_added(integer[], integer[]);
-- DROP TABLE portfolio_tag_counts;
-- DROP INDEX artifacts_coverage_bits_idx, shared_artifacts_coverage_bits_idx,
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

-- The scores counted per owner and shared portfolio of their artifact, criterion and level.
CREATE FUNCTION score_counts_add() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  INSERT INTO score_level_counts AS c (owner_id, shared_portfolio_id, criterion_id, level_id, n)
  SELECT sa.owner_id, sa.shared_portfolio_id, s.criterion_id, s.level_id, count(*)::int
  FROM added s JOIN shared_artifacts sa ON sa.id = s.shared_artifact_id
  GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
  ON CONFLICT (owner_id, shared_portfolio_id, criterion_id, level_id) DO UPDATE SET n = c.n + EXCLUDED.n;
  RETURN NULL;
END
$$;

-- Scores deleted: their counts go down (those of a shared artifact deleted with it are gone already).
CREATE FUNCTION score_counts_remove() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  PERFORM score_counts_subtract(
    (SELECT coalesce(jsonb_agg(g), '[]') FROM (
      SELECT sa.owner_id, sa.shared_portfolio_id, s.criterion_id, s.level_id, count(*)::int AS n
      FROM removed s JOIN shared_artifacts sa ON sa.id = s.shared_artifact_id
      GROUP BY 1, 2, 3, 4) g));
  RETURN NULL;
END
$$;

-- Scores changed (none are today; for completeness): the old rows' counts down, the new rows' up.
CREATE FUNCTION score_counts_update() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  PERFORM score_counts_subtract(
    (SELECT coalesce(jsonb_agg(g), '[]') FROM (
      SELECT sa.owner_id, sa.shared_portfolio_id, s.criterion_id, s.level_id, count(*)::int AS n
      FROM removed s JOIN shared_artifacts sa ON sa.id = s.shared_artifact_id
      GROUP BY 1, 2, 3, 4) g));
  INSERT INTO score_level_counts AS c (owner_id, shared_portfolio_id, criterion_id, level_id, n)
  SELECT sa.owner_id, sa.shared_portfolio_id, s.criterion_id, s.level_id, count(*)::int
  FROM added s JOIN shared_artifacts sa ON sa.id = s.shared_artifact_id
  GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
  ON CONFLICT (owner_id, shared_portfolio_id, criterion_id, level_id) DO UPDATE SET n = c.n + EXCLUDED.n;
  RETURN NULL;
END
$$;

-- Subtracts counts (`[{owner_id, shared_portfolio_id, criterion_id, level_id, n}]`), locking them
-- in key order first; those that reach 0 are deleted.
CREATE FUNCTION score_counts_subtract(gone jsonb) RETURNS void
  LANGUAGE plpgsql
  AS $$
BEGIN
  PERFORM 1 FROM score_level_counts c
    JOIN jsonb_to_recordset(gone) AS g (owner_id integer, shared_portfolio_id integer, criterion_id integer, level_id integer, n integer)
      USING (owner_id, shared_portfolio_id, criterion_id, level_id)
    ORDER BY c.owner_id, c.shared_portfolio_id, c.criterion_id, c.level_id
    FOR UPDATE OF c;
  UPDATE score_level_counts c SET n = c.n - g.n
    FROM jsonb_to_recordset(gone) AS g (owner_id integer, shared_portfolio_id integer, criterion_id integer, level_id integer, n integer)
    WHERE (c.owner_id, c.shared_portfolio_id, c.criterion_id, c.level_id) = (g.owner_id, g.shared_portfolio_id, g.criterion_id, g.level_id);
  DELETE FROM score_level_counts c
    USING jsonb_to_recordset(gone) AS g (owner_id integer, shared_portfolio_id integer, criterion_id integer, level_id integer)
    WHERE c.n <= 0
      AND (c.owner_id, c.shared_portfolio_id, c.criterion_id, c.level_id) = (g.owner_id, g.shared_portfolio_id, g.criterion_id, g.level_id);
END
$$;

-- A shared artifact about to be deleted: its scores' counts go down before its scores go with it.
CREATE FUNCTION score_counts_artifact_deleted() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  PERFORM score_counts_subtract(
    (SELECT coalesce(jsonb_agg(g), '[]') FROM (
      SELECT OLD.owner_id AS owner_id, OLD.shared_portfolio_id AS shared_portfolio_id, s.criterion_id, s.level_id, count(*)::int AS n
      FROM scores s WHERE s.shared_artifact_id = OLD.id
      GROUP BY s.criterion_id, s.level_id) g));
  RETURN OLD;
END
$$;

-- A shared artifact given to another owner or portfolio (nothing does it today): its scores move.
CREATE FUNCTION score_counts_artifact_moved() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  PERFORM score_counts_subtract(
    (SELECT coalesce(jsonb_agg(g), '[]') FROM (
      SELECT OLD.owner_id AS owner_id, OLD.shared_portfolio_id AS shared_portfolio_id, s.criterion_id, s.level_id, count(*)::int AS n
      FROM scores s WHERE s.shared_artifact_id = NEW.id
      GROUP BY s.criterion_id, s.level_id) g));
  INSERT INTO score_level_counts AS c (owner_id, shared_portfolio_id, criterion_id, level_id, n)
  SELECT NEW.owner_id, NEW.shared_portfolio_id, s.criterion_id, s.level_id, count(*)::int
  FROM scores s WHERE s.shared_artifact_id = NEW.id
  GROUP BY s.criterion_id, s.level_id ORDER BY s.criterion_id, s.level_id
  ON CONFLICT (owner_id, shared_portfolio_id, criterion_id, level_id) DO UPDATE SET n = c.n + EXCLUDED.n;
  RETURN NULL;
END
$$;

CREATE FUNCTION score_counts_truncate() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  DELETE FROM score_level_counts;
  RETURN NULL;
END
$$;

CREATE TRIGGER scores_counted_insert AFTER INSERT ON scores
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION score_counts_add();
CREATE TRIGGER scores_counted_delete AFTER DELETE ON scores
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION score_counts_remove();
CREATE TRIGGER scores_counted_update AFTER UPDATE ON scores
  REFERENCING OLD TABLE AS removed NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION score_counts_update();
CREATE TRIGGER scores_counted_truncate AFTER TRUNCATE ON scores
  FOR EACH STATEMENT EXECUTE FUNCTION score_counts_truncate();
CREATE TRIGGER shared_artifacts_scores_uncounted BEFORE DELETE ON shared_artifacts
  FOR EACH ROW EXECUTE FUNCTION score_counts_artifact_deleted();
CREATE TRIGGER shared_artifacts_scores_moved AFTER UPDATE OF owner_id, shared_portfolio_id ON shared_artifacts
  FOR EACH ROW WHEN (OLD.owner_id <> NEW.owner_id OR OLD.shared_portfolio_id <> NEW.shared_portfolio_id)
  EXECUTE FUNCTION score_counts_artifact_moved();

-- The scores given so far, counted after the triggers were created: creating them locked the
-- scores against changes until this migration commits, so none is missed or counted twice.
CREATE TABLE score_level_counts AS
SELECT sa.owner_id, sa.shared_portfolio_id, s.criterion_id, s.level_id, count(*)::int AS n
FROM scores s JOIN shared_artifacts sa ON sa.id = s.shared_artifact_id
GROUP BY 1, 2, 3, 4;
ALTER TABLE score_level_counts ADD PRIMARY KEY (owner_id, shared_portfolio_id, criterion_id, level_id);
ALTER TABLE score_level_counts ALTER COLUMN n SET NOT NULL;
CREATE INDEX score_level_counts_portfolio_idx ON score_level_counts (shared_portfolio_id);

-- `portfolio_tag_counts`: per personal portfolio, its artifacts and, per code of `standard_bits`
-- (bit i at index i + 1), how many of them hold it; kept by row triggers on `artifacts` in the
-- same transaction as the artifacts: an insert or a deletion, and a change that moves an artifact
-- or changes its codes (a save that leaves its tags as they were writes nothing). The
-- installation's map reads one row per portfolio instead of every artifact. Backups leave it out
-- like the scores' counts (a restore inserts the artifacts and the triggers count them).
CREATE FUNCTION int_arrays_added(a integer[], b integer[]) RETURNS integer[]
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT array_agg(x + y ORDER BY i) FROM unnest(a, b) WITH ORDINALITY AS t (x, y, i) $$;

-- Adds `sign` (1 or -1) artifacts with these bits to a portfolio's counts.
CREATE FUNCTION tag_counts_add(portfolio integer, bits integer, sign integer) RETURNS void
  LANGUAGE plpgsql
  AS $$
BEGIN
  INSERT INTO portfolio_tag_counts AS c (portfolio_id, n, tagged)
  VALUES (portfolio, sign, ARRAY(SELECT sign * ((coalesce(bits, 0) >> i) & 1) FROM generate_series(0, 26) AS i ORDER BY i))
  ON CONFLICT (portfolio_id) DO UPDATE SET n = c.n + EXCLUDED.n, tagged = int_arrays_added(c.tagged, EXCLUDED.tagged);
END
$$;

CREATE FUNCTION tag_counts_changed() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM tag_counts_add(NEW.portfolio_id, NEW.standard_bits, 1);
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM tag_counts_add(OLD.portfolio_id, OLD.standard_bits, -1);
  ELSIF OLD.portfolio_id <= NEW.portfolio_id THEN
    -- Two portfolios' counts, the lower id first.
    PERFORM tag_counts_add(OLD.portfolio_id, OLD.standard_bits, -1);
    PERFORM tag_counts_add(NEW.portfolio_id, NEW.standard_bits, 1);
  ELSE
    PERFORM tag_counts_add(NEW.portfolio_id, NEW.standard_bits, 1);
    PERFORM tag_counts_add(OLD.portfolio_id, OLD.standard_bits, -1);
  END IF;
  RETURN NULL;
END
$$;

CREATE FUNCTION tag_counts_truncate() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  DELETE FROM portfolio_tag_counts;
  RETURN NULL;
END
$$;

CREATE TRIGGER artifacts_tags_counted AFTER INSERT OR DELETE ON artifacts
  FOR EACH ROW EXECUTE FUNCTION tag_counts_changed();
CREATE TRIGGER artifacts_tags_recounted AFTER UPDATE OF portfolio_id, responses ON artifacts
  FOR EACH ROW WHEN (OLD.portfolio_id <> NEW.portfolio_id OR OLD.standard_bits IS DISTINCT FROM NEW.standard_bits)
  EXECUTE FUNCTION tag_counts_changed();
CREATE TRIGGER artifacts_tags_truncated AFTER TRUNCATE ON artifacts
  FOR EACH STATEMENT EXECUTE FUNCTION tag_counts_truncate();

-- The artifacts so far, counted after the triggers locked them (as the scores above).
CREATE TABLE portfolio_tag_counts AS
SELECT a.portfolio_id, count(*)::int AS n,
       ARRAY(SELECT count(*) FILTER (WHERE (b.standard_bits >> i) & 1 = 1)::int
             FROM artifacts b, generate_series(0, 26) AS i
             WHERE b.portfolio_id = a.portfolio_id GROUP BY i ORDER BY i) AS tagged
FROM artifacts a
GROUP BY a.portfolio_id;
ALTER TABLE portfolio_tag_counts ADD PRIMARY KEY (portfolio_id);
ALTER TABLE portfolio_tag_counts ALTER COLUMN n SET NOT NULL;
ALTER TABLE portfolio_tag_counts ALTER COLUMN tagged SET NOT NULL;
ALTER TABLE portfolio_tag_counts ADD FOREIGN KEY (portfolio_id) REFERENCES portfolios (id) ON DELETE CASCADE;
