import type { Queryable } from '../db/client.ts';
import type { FileDef } from '../repositories/reporting/columns.ts';
import * as rows from '../repositories/reporting/researchRubricRows.ts';
import type { CreatedRange } from '../repositories/reporting/researchSelection.ts';

/** A row of a package file, by column name. */
type Row = Record<string, string | number | boolean | Date | null | undefined>;

/** How the package writes one file (`researchPackage.ts`). */
type Write = (file: FileDef, rows: AsyncIterable<Row>) => Promise<void>;

/** Writes `rubrics.csv`, `rubric_criteria.csv` and `scores.csv` (decision 055), scorers pseudonymised by `personOf`. */
export async function writeRubricFiles(
  tx: Queryable,
  write: Write,
  fileOf: (name: string) => FileDef,
  range: CreatedRange,
  personOf: (id: number) => string,
): Promise<void> {
  await write(
    fileOf('rubrics'),
    (async function* () {
      for await (const v of rows.rubricVersionRows(tx)) {
        yield {
          rubric_version_id: v.id,
          rubric_id: v.rubric_id,
          version: v.number,
          shared_portfolio_id: v.shared_portfolio_id,
          name: v.name,
          description: v.description,
          created_at: v.created_at,
        };
      }
    })(),
  );
  await write(
    fileOf('rubric_criteria'),
    (async function* () {
      for await (const l of rows.rubricLevelRows(tx)) {
        yield {
          rubric_version_id: l.version_id,
          criterion_id: l.criterion_id,
          criterion_position: l.criterion_position + 1,
          criterion_code: l.code,
          criterion_label: l.label,
          criterion_description: l.criterion_description,
          level_id: l.id,
          level_position: l.level_position + 1,
          level_label: l.level_label,
          level_description: l.level_description,
          level_score: l.score,
        };
      }
    })(),
  );
  await write(
    fileOf('scores'),
    (async function* () {
      for await (const s of rows.scoreRows(tx, range)) {
        yield {
          score_id: s.id,
          shared_artifact_id: s.shared_artifact_id,
          teacher_id: personOf(s.scorer_id),
          rubric_version_id: s.version_id,
          criterion_id: s.criterion_id,
          level_id: s.level_id,
          level_score: s.score,
          media_id: s.media_id,
          moment_start: s.moment_start,
          moment_end: s.moment_end,
          note: s.note,
          created_at: s.created_at,
        };
      }
    })(),
  );
}
