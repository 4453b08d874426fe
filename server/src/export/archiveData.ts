/**
 * What a teacher's archive holds and where, apart from how the pages look: the path of each page
 * and file, an artifact's title, and its answers in structure order as data.json and the pages show them.
 */
import { UNNAMED_ARTIFACT } from '#schemas/catalog';
import type { ArchiveAnswerData } from '#schemas/archive';
import { RESERVED_KEYS, type Question, type Responses, type Structure } from '#schemas/structure';

/** Where each page lies in the archive. */
export const pagePath = {
  index: 'index.html',
  portfolio: (id: number) => `portfolio-${id}.html`,
  artifact: (id: number) => `artifact-${id}.html`,
  sharedArtifact: (id: number) => `shared-artifact-${id}.html`,
};

/**
 * Document types that a browser never runs as a page (it shows them in a viewer or saves them).
 * Any other document (HTML, SVG, XML, scripts, unknown types) is stored in the archive with
 * `.txt` added, so that opening it shows its text and nothing runs.
 */
const INERT_DOCUMENT_EXTENSIONS: ReadonlySet<string> = new Set([
  '.pdf',
  '.doc',
  '.docx',
  '.xls',
  '.xlsx',
  '.ppt',
  '.pptx',
  '.odt',
  '.ods',
  '.odp',
  '.rtf',
  '.txt',
  '.csv',
  '.key',
  '.pages',
  '.numbers',
  '.zip',
  '.png',
  '.jpg',
  '.jpeg',
  '.gif',
  '.webp',
  '.mp3',
  '.m4a',
  '.wav',
  '.mp4',
  '.mov',
  '.webm',
]);

/**
 * The archive path of a stored file: `media/<id>-<name><ext>` with a name safe on every file
 * system, and `.txt` after a document a browser might run as a page.
 */
export function mediaPath(file: { id: number; name: string; ext: string; kind?: string }): string {
  const ext = /^\.[a-z0-9]{1,5}$/.test(file.ext) ? file.ext : '';
  const stem = file.name.toLowerCase().endsWith(ext.toLowerCase()) && ext ? file.name.slice(0, -ext.length) : file.name;
  const safe = stem
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .slice(0, 60);
  const inert = file.kind === 'document' && !INERT_DOCUMENT_EXTENSIONS.has(ext.toLowerCase()) ? '.txt' : '';
  return `media/${file.id}${safe ? `-${safe}` : ''}${ext}${inert}`;
}

/** The title of an artifact as the app shows it. */
export function titleOf(responses: Responses): string {
  const name = responses[RESERVED_KEYS.title];
  return typeof name === 'string' && name.trim() !== '' ? name : UNNAMED_ARTIFACT;
}

const isFileQuestion = (q: Question): boolean => q.type === 'fileUpload' || q.key === RESERVED_KEYS.uploads;

/**
 * Every question of an artifact with its answer, in the order of its structure (the files
 * question excepted: files are listed apart), then any answer to a key its structure lacks.
 */
export function answersOf(structure: Structure, responses: Responses): ArchiveAnswerData[] {
  const answers: ArchiveAnswerData[] = structure
    .filter((q) => !isFileQuestion(q))
    .map((q) => ({
      key: q.key,
      question: q.text.trim() || q.key,
      type: q.type,
      team: q.bonus === true,
      answer: responses[q.key] ?? null,
    }));
  const known = new Set(structure.map((q) => q.key));
  for (const [key, value] of Object.entries(responses)) {
    if (!known.has(key) && key !== RESERVED_KEYS.uploads)
      answers.push({ key, question: key, type: 'unknown', team: false, answer: value });
  }
  return answers;
}

/** The label of the files question ('Files' without one). */
export function filesLabel(structure: Structure): string {
  return structure.find(isFileQuestion)?.text.trim() || 'Files';
}
