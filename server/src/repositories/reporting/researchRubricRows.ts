import type { Queryable } from '../../db/client.ts';
import { pages } from './researchRows.ts';
import { inRange, type CreatedRange } from './researchSelection.ts';

// The rows of the research package's rubric files, read page by page inside the export's
// transaction, joined on the selection that `selectForExport` made.

/** The rubrics an export describes: installation-wide ones and those of the selected shared portfolios. */
const EXPORTED_RUBRICS = `(SELECT r.id FROM rubrics r WHERE r.shared_portfolio_id IS NULL OR r.shared_portfolio_id IN (SELECT id FROM export_sps))`;

export interface RubricVersionRow {
  id: number;
  rubric_id: number;
  number: number;
  shared_portfolio_id: number | null;
  name: string;
  description: string;
  created_at: Date;
}

/** Every version of the exported rubrics. */
export function rubricVersionRows(tx: Queryable): AsyncGenerator<RubricVersionRow> {
  return pages<RubricVersionRow>(
    tx,
    `SELECT v.id, v.rubric_id, v.number, r.shared_portfolio_id, r.name, r.description, v.created_at
     FROM rubric_versions v JOIN rubrics r ON r.id = v.rubric_id
     WHERE v.id > $1 AND v.rubric_id IN ${EXPORTED_RUBRICS}
     ORDER BY v.id LIMIT $2`,
  );
}

export interface RubricLevelRow {
  /** The level's id (the page key). */
  id: number;
  version_id: number;
  criterion_id: number;
  criterion_position: number;
  code: string;
  label: string;
  criterion_description: string;
  level_position: number;
  level_label: string;
  level_description: string;
  score: number;
}

/** Every level of every criterion of those versions. */
export function rubricLevelRows(tx: Queryable): AsyncGenerator<RubricLevelRow> {
  return pages<RubricLevelRow>(
    tx,
    `SELECT l.id, c.version_id, c.id AS criterion_id, c.position AS criterion_position, c.code, c.label,
       c.description AS criterion_description, l.position AS level_position, l.label AS level_label,
       l.description AS level_description, l.score
     FROM rubric_levels l JOIN rubric_criteria c ON c.id = l.criterion_id JOIN rubric_versions v ON v.id = c.version_id
     WHERE l.id > $1 AND v.rubric_id IN ${EXPORTED_RUBRICS}
     ORDER BY l.id LIMIT $2`,
  );
}

export interface ScoreExportRow {
  id: number;
  shared_artifact_id: number;
  scorer_id: number;
  version_id: number;
  criterion_id: number;
  level_id: number;
  score: number;
  media_id: number | null;
  moment_start: number | null;
  moment_end: number | null;
  note: string;
  created_at: Date;
}

/** The selected people's scores on the selected shared artifacts, given in the range. */
export function scoreRows(tx: Queryable, range: CreatedRange): AsyncGenerator<ScoreExportRow> {
  return pages<ScoreExportRow>(
    tx,
    `SELECT s.id, s.shared_artifact_id, s.scorer_id, s.version_id, s.criterion_id, s.level_id, l.score,
       s.media_id, s.moment_start, s.moment_end, s.note, s.created_at
     FROM scores s JOIN rubric_levels l ON l.id = s.level_id
     WHERE s.id > $1 AND s.shared_artifact_id IN (SELECT id FROM export_sas) AND s.scorer_id IN (SELECT id FROM export_people)
       AND ${inRange('s.created_at')}
     ORDER BY s.id LIMIT $2`,
    range,
  );
}
