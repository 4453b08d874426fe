import { once } from 'node:events';
import { Transform } from 'node:stream';
import { stringify } from 'csv-stringify';
import type yazl from 'yazl';
import type { ResearchExportFilters } from '#schemas/researchExport';
import { StructureSchema, type Question, type ResponseValue } from '#schemas/structure';
import type { Queryable } from '../db/client.ts';
import { codebookColumnRows, codebookMarkdown } from '../repositories/reporting/codebook.ts';
import { LIST_SEPARATOR, type ColumnDef, type FileDef } from '../repositories/reporting/columns.ts';
import { listText } from '../repositories/reporting/mappers.ts';
import { COLUMNS_FILE, QUESTIONS_FILE, researchFiles } from '../repositories/reporting/researchColumns.ts';
import * as history from '../repositories/reporting/researchVersionRows.ts';
import * as repo from '../repositories/reporting/researchRows.ts';
import * as selection from '../repositories/reporting/researchSelection.ts';
import { SUMMARY_FILES } from '../repositories/reporting/summaryColumns.ts';
import { escapeCell } from './csv.ts';
import { Deidentifier, pseudonym, type KnownPerson } from './deidentify.ts';
import { readmeMarkdown } from './researchReadme.ts';
import { versionChangeRows } from './researchVersions.ts';
import { writeRubricFiles } from './researchRubrics.ts';

// The research export package's files, written from one snapshot (decision 021); run in a worker
// thread of its own by `researchWorker.ts`.

/** A value of a package cell before it is written. */
type Cell = string | number | boolean | Date | null | undefined;
type Row = Record<string, Cell>;

const REACTION_NAMES: Record<string, string> = { '🔖': 'tag', '⭐': 'star', '🌉': 'bridge', '❓': 'question' };
const ROLE_NAMES: Record<string, string> = { authenticated: 'teacher', plc_lead: 'plc_lead', researcher: 'researcher' };
/** Texts up to this length are de-identified once per export (at most `MEMO_ENTRIES` of them kept at a time). */
const MEMO_TEXT_LENGTH = 200;
const MEMO_ENTRIES = 5000;

/** The `[from, until)` instants of the filters' inclusive UTC days. */
function rangeOf(filters: ResearchExportFilters): selection.CreatedRange {
  const from = filters.from ? new Date(`${filters.from}T00:00:00.000Z`) : null;
  const until = filters.to ? new Date(Date.parse(`${filters.to}T00:00:00.000Z`) + 24 * 60 * 60 * 1000) : null;
  return { from, until };
}

/** A structure as stored, or none when it does not read as one. */
function questionsOf(structure: unknown): Question[] {
  const parsed = StructureSchema.safeParse(structure);
  return parsed.success ? parsed.data : [];
}

/** Whether an answer holds something (an empty text or list is no answer). */
function answered(value: ResponseValue | undefined): value is ResponseValue {
  if (value === undefined || value === null) return false;
  if (typeof value === 'string') return value.trim().length > 0;
  if (Array.isArray(value)) return value.length > 0;
  return typeof value === 'number' && Number.isFinite(value);
}

const CHOICE_TYPES: ReadonlySet<string> = new Set(['singleSelection', 'multipleResponse', 'expansionPanelChoices']);

/** The long-format row of one answer, or `null` when the value holds nothing. */
function answerRow(kind: 'artifact' | 'shared_artifact', answer: repo.AnswerRow, person: string): Row | null {
  const value = answer.value as ResponseValue | undefined;
  if (!answered(value)) return null;
  const list = Array.isArray(value) ? value : null;
  return {
    response_of: kind,
    artifact_id: kind === 'artifact' ? answer.id : null,
    shared_artifact_id: kind === 'shared_artifact' ? answer.id : null,
    teacher_id: person,
    question_key: answer.key,
    question_position: answer.position,
    question_type: answer.type,
    question_text: answer.text,
    team_question: answer.bonus,
    answer_text: typeof value === 'string' ? value : list ? list.join(LIST_SEPARATOR) : null,
    answer_number: typeof value === 'number' ? value : null,
    choice_count: CHOICE_TYPES.has(answer.type) ? (list ? list.length : 1) : null,
  };
}

/** The codebook rows of one structure's questions. */
function questionRows(structure: unknown, sharedPortfolioId: number | null): Row[] {
  return questionsOf(structure).map((q, index) => ({
    structure: sharedPortfolioId === null ? 'template' : 'shared_portfolio',
    shared_portfolio_id: sharedPortfolioId,
    question_position: index + 1,
    question_key: q.key,
    question_type: q.type,
    question_text: q.text,
    core: q.core === true,
    team_question: q.bonus === true,
    choices: q.choices ? q.choices.join(LIST_SEPARATOR) : null,
    min: q.min ?? null,
    max: q.max ?? null,
    step: q.step ?? null,
  }));
}

/** Bytes a CSV file's text is gathered into before it is compressed (one zlib call per chunk, not per row). */
const CHUNK_BYTES = 64 * 1024;

/** A stream that gathers small chunks (a CSV row each) into chunks of about `CHUNK_BYTES`. */
function chunker(): Transform {
  let held: Buffer[] = [];
  let size = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      held.push(chunk);
      size += chunk.length;
      if (size < CHUNK_BYTES) return callback();
      const out = Buffer.concat(held, size);
      held = [];
      size = 0;
      callback(null, out);
    },
    flush(callback) {
      callback(null, size > 0 ? Buffer.concat(held, size) : undefined);
    },
  });
}

/** Writes every file of the package into `zip` and ends it. */
export async function writePackage(
  tx: Queryable,
  zip: yazl.ZipFile,
  filters: ResearchExportFilters,
  secret: Buffer,
  record: { id: number; startedAt: Date },
  rowCounts: Record<string, number>,
  signal: AbortSignal,
): Promise<void> {
  const included = filters.identities === 'included';
  const range = rangeOf(filters);
  const pseudonyms = new Map<number, string>();
  const personOf = (id: number): string => {
    let p = pseudonyms.get(id);
    if (p === undefined) {
      p = pseudonym(secret, id);
      pseudonyms.set(id, p);
    }
    return p;
  };
  let deidentify: (text: string) => string = (text) => text;
  if (!included) {
    const people: KnownPerson[] = [];
    for await (const person of selection.allPeople(tx)) people.push(person);
    const deidentifier = new Deidentifier(people, personOf);
    // Question texts, choices and short answers come back again and again: each is worked out once.
    const seen = new Map<string, string>();
    deidentify = (text) => {
      if (text.length > MEMO_TEXT_LENGTH) return deidentifier.text(text);
      let out = seen.get(text);
      if (out === undefined) {
        out = deidentifier.text(text);
        if (seen.size >= MEMO_ENTRIES) seen.clear();
        seen.set(text, out);
      }
      return out;
    };
  }
  await selection.selectForExport(tx, filters, range);
  const files = researchFiles(filters.identities);
  const fileOf = (name: string) => files.find((f) => f.name === name)!;
  const mtime = record.startedAt;

  const write = async (file: FileDef, rows: AsyncIterable<Row> | Iterable<Row>) => {
    signal.throwIfAborted();
    const csv = stringify({ header: true, columns: file.columns.map((c) => c.name), record_delimiter: '\n' });
    const gathered = chunker();
    csv.on('error', (error) => gathered.destroy(error));
    csv.pipe(gathered);
    zip.addReadStream(gathered, `${file.name}.csv`, { mtime });
    let count = 0;
    try {
      for await (const row of rows) {
        signal.throwIfAborted();
        count += 1;
        if (!csv.write(file.columns.map((column) => cellOf(column, row[column.name], deidentify))))
          await once(csv, 'drain', { signal });
      }
    } catch (error) {
      csv.destroy();
      gathered.destroy();
      throw error;
    }
    csv.end();
    rowCounts[file.name] = count;
  };

  await write(
    fileOf('teachers'),
    (async function* () {
      for await (const p of repo.teacherRows(tx)) {
        yield {
          teacher_id: personOf(p.id),
          role: ROLE_NAMES[p.role] ?? p.role,
          in_filter: p.in_filter,
          created_at: p.created_at,
          ...(included ? { user_id: p.id, username: p.username, email: p.email } : {}),
        };
      }
    })(),
  );
  await write(
    fileOf('portfolios'),
    (async function* () {
      for await (const p of repo.portfolioRows(tx)) {
        yield {
          portfolio_id: p.id,
          teacher_id: personOf(p.owner_id),
          name: p.name,
          subject: p.subject,
          topic: p.topic,
          grades: listText(p.grades),
          created_at: p.created_at,
          updated_at: p.updated_at,
        };
      }
    })(),
  );
  await write(
    fileOf('artifacts'),
    (async function* () {
      for await (const a of repo.artifactRows(tx, range)) {
        yield {
          artifact_id: a.id,
          portfolio_id: a.portfolio_id,
          teacher_id: personOf(a.owner_id),
          title: a.title,
          parking_lot: a.parking_lot,
          images: a.images,
          videos: a.videos,
          documents: a.documents,
          created_at: a.created_at,
          updated_at: a.updated_at,
        };
      }
    })(),
  );
  await write(
    fileOf('responses'),
    (async function* () {
      for await (const a of repo.artifactAnswers(tx, range)) {
        const row = answerRow('artifact', a, personOf(a.owner_id));
        if (row) yield row;
      }
      for await (const sa of repo.sharedArtifactAnswers(tx)) {
        const row = answerRow('shared_artifact', sa, personOf(sa.owner_id));
        if (row) yield row;
      }
    })(),
  );
  await write(
    fileOf('shared_portfolios'),
    (async function* () {
      for await (const sp of repo.sharedPortfolioRows(tx)) {
        yield {
          shared_portfolio_id: sp.id,
          owner_id: personOf(sp.owner_id),
          name: sp.name,
          subject: sp.subject,
          topic: sp.topic,
          grades: listText(sp.grades),
          plc_name: sp.plc_name,
          plc_goals: sp.plc_goals,
          team_questions: questionsOf(sp.structure).filter((q) => q.bonus === true).length,
          created_at: sp.created_at,
          updated_at: sp.updated_at,
        };
      }
    })(),
  );
  await write(
    fileOf('shared_artifacts'),
    (async function* () {
      for await (const sa of repo.sharedArtifactRows(tx)) {
        yield {
          shared_artifact_id: sa.id,
          shared_portfolio_id: sa.shared_portfolio_id,
          teacher_id: personOf(sa.owner_id),
          title: sa.title,
          portfolio_subject: sa.portfolio_subject,
          portfolio_topic: sa.portfolio_topic,
          portfolio_grades: listText(sa.portfolio_grades),
          images: sa.images,
          videos: sa.videos,
          documents: sa.documents,
          created_at: sa.created_at,
          updated_at: sa.updated_at,
        };
      }
    })(),
  );
  await write(
    fileOf('comments'),
    (async function* () {
      for await (const c of repo.commentRows(tx, range)) {
        yield {
          comment_id: c.id,
          shared_artifact_id: c.shared_artifact_id,
          teacher_id: personOf(c.owner_id),
          text: c.text,
          media_id: c.media_id,
          moment_start: c.moment_start,
          moment_end: c.moment_end,
          edited: c.updated_at.getTime() > c.created_at.getTime(),
          created_at: c.created_at,
          updated_at: c.updated_at,
        };
      }
    })(),
  );
  await write(
    fileOf('reactions'),
    (async function* () {
      for await (const r of repo.reactionRows(tx, range)) {
        yield {
          reaction_id: r.id,
          shared_artifact_id: r.shared_artifact_id,
          teacher_id: personOf(r.owner_id),
          value: r.value,
          reaction: REACTION_NAMES[r.value] ?? null,
          media_id: r.media_id,
          moment_start: r.moment_start,
          moment_end: r.moment_end,
          created_at: r.created_at,
        };
      }
    })(),
  );
  await write(
    fileOf('memberships'),
    (async function* () {
      for await (const m of repo.membershipRows(tx)) {
        yield {
          shared_portfolio_id: m.shared_portfolio_id,
          teacher_id: personOf(m.user_id),
          is_owner: m.is_owner,
          joined_at: m.joined_at,
        };
      }
    })(),
  );
  await write(
    fileOf('versions'),
    (async function* () {
      yield* versionChangeRows('artifact', history.artifactVersionRows(tx, range), personOf);
      yield* versionChangeRows('shared_artifact', history.sharedArtifactVersionRows(tx), personOf);
    })(),
  );
  await writeRubricFiles(tx, write, fileOf, range, personOf);
  await write(
    QUESTIONS_FILE,
    (async function* () {
      yield* questionRows(await selection.templateStructure(tx), null);
      for await (const sp of repo.sharedPortfolioRows(tx)) yield* questionRows(sp.structure, sp.id);
    })(),
  );
  const allFiles = [...files, QUESTIONS_FILE, COLUMNS_FILE];
  await write(COLUMNS_FILE, codebookColumnRows(allFiles));
  // The codebook and the README are static words and names chosen by the researcher: they are
  // written as they are (the names of the filters pass through the same de-identification).
  zip.addBuffer(Buffer.from(codebookMarkdown(allFiles, SUMMARY_FILES)), 'codebook.md', { mtime });
  const names = await selection.namesOf(tx, filters.teachers ?? [], filters.sharedPortfolios ?? []);
  zip.addBuffer(
    Buffer.from(
      readmeMarkdown(
        {
          exportId: record.id,
          startedAt: record.startedAt,
          filters,
          teacherNames: names.users.map((u) => (included ? `${u.username} (${personOf(u.id)})` : personOf(u.id))),
          sharedPortfolioNames: names.sharedPortfolios.map((sp) => `${deidentify(sp.name)} (id ${sp.id})`),
          rowCounts,
        },
        allFiles,
      ),
    ),
    'README.md',
    { mtime },
  );
  zip.end();
}

/** A cell as written: ISO times, `true`/`false`, text de-identified (text and list columns) and never a formula. */
function cellOf(column: ColumnDef, value: Cell, deidentify: (text: string) => string): string | number {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') return value;
  return escapeCell(column.type === 'text' || column.type === 'list' ? deidentify(value) : value);
}
