/**
 * The static site inside a teacher's archive: plain HTML pages side by side at the top of the
 * ZIP (`index.html`, `portfolio-<id>.html`, `artifact-<id>.html`, `shared-artifact-<id>.html`)
 * and the files under `media/`, so that every link is relative and the site opens from the file
 * system. Pages carry their CSS inline, run no script and load nothing from the network. Every
 * text from the database is escaped.
 */
import { GRADES, UNNAMED_ARTIFACT } from '#schemas/catalog';
import { formatDateTime, formatMoment } from '#schemas/formatting';
import type {
  ArchiveAnswerData,
  ArchiveArtifactData,
  ArchiveCommentData,
  ArchiveData,
  ArchiveMediaData,
  ArchivePortfolioData,
  ArchiveSharedArtifactData,
} from '#schemas/archive';
import { RESERVED_KEYS, type Question, type Responses, type Structure } from '#schemas/structure';

/** Escapes text for HTML content and attribute values. */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

const NOT_ANSWERED = 'No response';
const NOT_SPECIFIED = 'Not specified';
const TEAM_QUESTIONS_HEADING = 'Team questions for shared portfolio';

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

const HEADER_KEYS: ReadonlySet<string> = new Set([
  RESERVED_KEYS.title,
  RESERVED_KEYS.unitTiming,
  RESERVED_KEYS.unitDay,
  RESERVED_KEYS.uploads,
]);
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

/** A timestamp for people, in UTC (an archive is read anywhere): "March 4, 2026 9:05am UTC". */
export const formatUtc = (iso: string): string => formatDateTime(iso, { utc: true });

const time = (iso: string) => `<time datetime="${escapeHtml(iso)}">${escapeHtml(formatUtc(iso))}</time>`;
const gradeLabel = (code: string): string => GRADES.find((g) => g.value === code)?.label ?? code;
const muted = (text: string) => `<span class="muted">${escapeHtml(text)}</span>`;

function answerHtml(value: ArchiveAnswerData['answer'] | undefined, empty: string): string {
  if (
    value === null ||
    value === undefined ||
    (typeof value === 'string' && value.trim() === '') ||
    (Array.isArray(value) && value.length === 0)
  ) {
    return muted(empty);
  }
  if (Array.isArray(value)) return `<ul class="chips">${value.map((v) => `<li>${escapeHtml(v)}</li>`).join('')}</ul>`;
  return escapeHtml(String(value));
}

const STYLE = `
*{box-sizing:border-box}
body{margin:0;font-family:-apple-system,"Segoe UI",Roboto,Arial,sans-serif;line-height:1.5;color:#1b2a38;background:#f5f7fa}
header.site{background:#1f5f8b;color:#fff;padding:12px 24px}
header.site a{color:#fff}
main{max-width:960px;margin:0 auto;padding:24px}
nav.crumbs{font-size:.9rem;margin-bottom:16px}
a{color:#1f5f8b}
h1{font-size:1.6rem;margin:0 0 8px;overflow-wrap:anywhere}
h2{font-size:1.2rem;margin:24px 0 8px}
.card{background:#fff;border:1px solid #d6dde5;border-radius:8px;padding:16px 20px;margin-bottom:16px}
.badge{display:inline-block;padding:2px 8px;border-radius:999px;background:#fff4d6;color:#8a5a00;border:1px solid #8a5a00;font-size:.85rem;margin-left:8px;vertical-align:middle}
dl.facts{display:grid;grid-template-columns:repeat(auto-fill,minmax(180px,1fr));gap:8px 24px;margin:0}
dl.facts dt{font-size:.85rem;color:#55657a}
dl.facts dd{margin:0}
dl.answers dt{font-weight:700;overflow-wrap:anywhere}
dl.answers dd{margin:4px 0 16px;white-space:pre-wrap;overflow-wrap:anywhere}
ul.chips{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:6px}
ul.chips li{padding:2px 10px;border-radius:999px;background:#e6eef5;font-size:.9rem}
.muted{color:#55657a;font-style:italic}
figure{margin:0 0 16px}
figure img,figure video{display:block;max-width:100%;height:auto;border:1px solid #d6dde5;border-radius:4px;background:#000}
figure img{background:#fff}
figcaption{font-size:.9rem;color:#55657a;margin-top:4px;overflow-wrap:anywhere}
table{border-collapse:collapse;width:100%;background:#fff}
th,td{text-align:left;padding:8px;border-bottom:1px solid #d6dde5;vertical-align:top;overflow-wrap:anywhere}
ol.comments{list-style:none;padding:0;margin:0}
ol.comments li{border-top:1px solid #d6dde5;padding:8px 0}
ol.comments p{margin:4px 0 0;white-space:pre-wrap;overflow-wrap:anywhere}
footer{max-width:960px;margin:0 auto;padding:0 24px 24px;font-size:.85rem;color:#55657a}
`;

function page(title: string, crumbs: { href: string; label: string }[], body: string, generatedAt: string): string {
  const nav = crumbs.length
    ? `<nav class="crumbs" aria-label="Breadcrumb">${crumbs.map((c) => `<a href="${escapeHtml(c.href)}">${escapeHtml(c.label)}</a>`).join(' › ')}</nav>`
    : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src 'self' file:; media-src 'self' file:; style-src 'unsafe-inline'">
<title>${escapeHtml(title)} — PracticeFolio archive</title>
<style>${STYLE}</style>
</head>
<body>
<header class="site"><a href="${pagePath.index}">PracticeFolio archive</a></header>
<main>
${nav}
${body}
</main>
<footer>Exported from PracticeFolio on ${time(generatedAt)}.</footer>
</body>
</html>
`;
}

function mediaHtml(media: readonly ArchiveMediaData[], artifactTitle: string): string {
  if (media.length === 0) return `<p>${muted('No files')}</p>`;
  return media
    .map((m) => {
      const caption = `${escapeHtml(m.caption)} — ${escapeHtml(m.name)}${m.description ? `<br>${escapeHtml(m.description)}` : ''}`;
      if (!m.path)
        return `<figure><p>${muted(`${m.caption} — ${m.name}: this file was not available when the archive was made.`)}</p></figure>`;
      const src = escapeHtml(m.path);
      if (m.kind === 'image') {
        const alt = m.alt.trim() || `Image ${m.caption} of ${artifactTitle}`;
        return `<figure><img src="${src}" alt="${escapeHtml(alt)}"><figcaption>${caption}</figcaption></figure>`;
      }
      if (m.kind === 'video') {
        return `<figure><video controls preload="metadata" src="${src}" aria-label="${escapeHtml(`Video ${m.caption} of ${artifactTitle}`)}"></video><figcaption>${caption} · <a href="${src}">Open the video file</a></figcaption></figure>`;
      }
      return `<figure><p><a href="${src}" download type="application/octet-stream">${escapeHtml(m.name)}</a> (document ${escapeHtml(m.caption)}, ${escapeHtml(formatBytes(m.size))})</p>${m.description ? `<figcaption>${escapeHtml(m.description)}</figcaption>` : ''}</figure>`;
    })
    .join('\n');
}

/** A size for people: "1.4 MB". */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
  return `${(bytes / 1024 ** 3).toFixed(2)} GB`;
}

function answerList(answers: readonly ArchiveAnswerData[]): string {
  return `<dl class="answers">${answers
    .map((a) => `<div><dt>${escapeHtml(a.question)}</dt><dd>${answerHtml(a.answer, NOT_ANSWERED)}</dd></div>`)
    .join('\n')}</dl>`;
}

/** The artifact's header facts, files and answers, laid out as the app's artifact page. */
function artifactBody(
  artifact: ArchiveArtifactData | ArchiveSharedArtifactData,
  structure: Structure,
  badge: string,
): string {
  const byKey = new Map(artifact.answers.map((a) => [a.key, a.answer]));
  const unitTiming = structure.find((q) => q.key === RESERVED_KEYS.unitTiming)?.key ?? RESERVED_KEYS.unitTiming;
  const unitDay = structure.find((q) => q.key === RESERVED_KEYS.unitDay)?.key ?? RESERVED_KEYS.unitDay;
  const rest = artifact.answers.filter((a) => !HEADER_KEYS.has(a.key));
  const main = rest.filter((a) => !a.team);
  const team = rest.filter((a) => a.team);
  return `<article class="card">
<h1>${escapeHtml(artifact.title)}${badge}</h1>
<dl class="facts">
<div><dt>Last Edited</dt><dd>${time(artifact.updated_at)}</dd></div>
<div><dt>Date Created</dt><dd>${time(artifact.created_at)}</dd></div>
<div><dt>Unit Timing</dt><dd>${answerHtml(byKey.get(unitTiming), NOT_SPECIFIED)}</dd></div>
<div><dt>Unit Day</dt><dd>${answerHtml(byKey.get(unitDay), NOT_SPECIFIED)}</dd></div>
</dl>
<section><h2>${escapeHtml(filesLabel(structure))}</h2>
${mediaHtml(artifact.media, artifact.title)}
</section>
${main.length > 0 ? answerList(main) : ''}
${team.length > 0 ? `<section><h2>${TEAM_QUESTIONS_HEADING}</h2>${answerList(team)}</section>` : ''}
</article>`;
}

function momentText(comment: ArchiveCommentData, media: readonly ArchiveMediaData[]): string {
  if (!comment.moment) return '';
  const video = media.find((m) => m.id === comment.moment!.mediaId);
  const at = formatMoment(comment.moment);
  return ` · at ${escapeHtml(at)}${video ? ` of video ${escapeHtml(video.caption)}` : ''}`;
}

/** A personal artifact's page. */
export function renderArtifactPage(
  portfolio: ArchivePortfolioData,
  artifact: ArchiveArtifactData,
  structure: Structure,
  generatedAt: string,
): string {
  const badge = artifact.parkingLot ? '<span class="badge">Parking Lot</span>' : '';
  return page(
    artifact.title,
    [
      { href: pagePath.index, label: 'My archive' },
      { href: pagePath.portfolio(portfolio.id), label: portfolio.name },
    ],
    artifactBody(artifact, structure, badge),
    generatedAt,
  );
}

/** A shared artifact's page, with the comments on it. */
export function renderSharedArtifactPage(
  artifact: ArchiveSharedArtifactData,
  structure: Structure,
  generatedAt: string,
): string {
  const comments = artifact.comments.length
    ? `<ol class="comments">${artifact.comments
        .map(
          (c) =>
            `<li><strong>${escapeHtml(c.author)}</strong> · ${time(c.created_at)}${c.updated_at !== c.created_at ? ` (edited ${time(c.updated_at)})` : ''}${momentText(c, artifact.media)}<p>${escapeHtml(c.text)}</p></li>`,
        )
        .join('\n')}</ol>`
    : `<p>${muted('No comments')}</p>`;
  return page(
    artifact.title,
    [
      { href: pagePath.index, label: 'My archive' },
      { href: `${pagePath.index}#shared`, label: artifact.sharedPortfolio.name },
    ],
    `<p>Shared in <strong>${escapeHtml(artifact.sharedPortfolio.name)}</strong></p>
${artifactBody(artifact, structure, '')}
<section class="card"><h2>Comments</h2>
${comments}
</section>`,
    generatedAt,
  );
}

/** A portfolio's page: its facts and its artifacts. */
export function renderPortfolioPage(portfolio: ArchivePortfolioData, generatedAt: string): string {
  const rows = portfolio.artifacts
    .map(
      (a) =>
        `<tr><td><a href="${escapeHtml(a.page)}">${escapeHtml(a.title)}</a>${a.parkingLot ? '<span class="badge">Parking Lot</span>' : ''}</td><td>${time(a.updated_at)}</td><td>${a.media.length}</td></tr>`,
    )
    .join('\n');
  return page(
    portfolio.name,
    [{ href: pagePath.index, label: 'My archive' }],
    `<div class="card">
<h1>${escapeHtml(portfolio.name)}</h1>
<dl class="facts">
<div><dt>Subject</dt><dd>${portfolio.subject ? escapeHtml(portfolio.subject) : muted(NOT_SPECIFIED)}</dd></div>
<div><dt>Topic</dt><dd>${portfolio.topic ? escapeHtml(portfolio.topic) : muted(NOT_SPECIFIED)}</dd></div>
<div><dt>Grade Levels</dt><dd>${portfolio.grades.length ? escapeHtml(portfolio.grades.map(gradeLabel).join(', ')) : muted(NOT_SPECIFIED)}</dd></div>
<div><dt>Date Created</dt><dd>${time(portfolio.created_at)}</dd></div>
</dl>
</div>
<h2>Artifacts</h2>
${portfolio.artifacts.length ? `<table><thead><tr><th scope="col">Artifact</th><th scope="col">Last Edited</th><th scope="col">Files</th></tr></thead><tbody>${rows}</tbody></table>` : `<p>${muted('No artifacts')}</p>`}`,
    generatedAt,
  );
}

/** A portfolio as the first page lists it. */
export interface PortfolioSummary {
  name: string;
  page: string;
  artifacts: number;
  updated_at: string;
}

/** A shared artifact as the first page lists it. */
export interface SharedSummary {
  title: string;
  page: string;
  sharedPortfolio: string;
  comments: number;
}

/** The archive's first page: the teacher, her portfolios and her shared artifacts. */
export function renderIndexPage(
  data: Pick<ArchiveData, 'teacher' | 'generated_at'>,
  portfolios: readonly PortfolioSummary[],
  shared: readonly SharedSummary[],
): string {
  const portfolioRows = portfolios
    .map(
      (p) =>
        `<tr><td><a href="${escapeHtml(p.page)}">${escapeHtml(p.name)}</a></td><td>${p.artifacts}</td><td>${time(p.updated_at)}</td></tr>`,
    )
    .join('\n');
  const sharedRows = shared
    .map(
      (s) =>
        `<tr><td><a href="${escapeHtml(s.page)}">${escapeHtml(s.title)}</a></td><td>${escapeHtml(s.sharedPortfolio)}</td><td>${s.comments}</td></tr>`,
    )
    .join('\n');
  const name = escapeHtml(data.teacher.username);
  return page(
    `Archive of ${data.teacher.username}`,
    [],
    `<h1>Archive of ${name}</h1>
<p>Everything ${name} kept in PracticeFolio on ${time(data.generated_at)}: the portfolios with their artifacts, answers and files, and the artifacts in shared portfolios with the comments on them. The same content is in <a href="data.json">data.json</a> (described in <a href="README.txt">README.txt</a>); the original files are in the <code>media</code> folder.</p>
<h2 id="portfolios">My portfolios</h2>
${portfolios.length ? `<table><thead><tr><th scope="col">Portfolio</th><th scope="col">Artifacts</th><th scope="col">Last Edited</th></tr></thead><tbody>${portfolioRows}</tbody></table>` : `<p>${muted('No portfolios')}</p>`}
<h2 id="shared">My artifacts in shared portfolios</h2>
${shared.length ? `<table><thead><tr><th scope="col">Artifact</th><th scope="col">Shared portfolio</th><th scope="col">Comments</th></tr></thead><tbody>${sharedRows}</tbody></table>` : `<p>${muted('No shared artifacts')}</p>`}`,
    data.generated_at,
  );
}

/** README.txt of the archive: what is where, and the shape of data.json. */
export const ARCHIVE_README = `PracticeFolio archive
=====================

Open index.html in a web browser: the pages work without a network connection.

What is inside
- index.html                 your portfolios and your artifacts in shared portfolios
- portfolio-<id>.html        one page per portfolio, listing its artifacts
- artifact-<id>.html         one page per artifact: its answers and its files
- shared-artifact-<id>.html  one page per artifact of yours in a shared portfolio, with its comments
- media/                     the original files, as uploaded (named <file id>-<name>)
- data.json                  all of the above as data

data.json (UTF-8 JSON; every time is ISO 8601 in UTC)
{
  "format": "practicefolio-archive", "version": 1, "generated_at": time,
  "teacher": { "username", "email" },
  "portfolios": [ {
      "id", "name", "subject" (or null), "topic" (or null), "grades": [grade codes],
      "created_at", "updated_at", "page": file name of its page,
      "questions": [ { "key", "text", "type", "choices" (choice questions), "team": false } ],
      "artifacts": [ {
          "id", "title", "parkingLot": true while in the parking lot, "created_at", "updated_at", "page",
          "answers": [ { "key", "question", "type", "team", "answer": text, number, list of texts, or null } ],
          "media": [ { "id", "kind": "image"|"video"|"document", "caption" (A, B, ...), "name", "mime",
                       "size" (bytes), "alt", "description", "path": its file in the archive, or null if missing } ]
      } ]
  } ],
  "sharedArtifacts": [ {
      "id", "title", "created_at", "updated_at", "page", "answers", "media" (as above),
      "sharedPortfolio": { "id", "name" },
      "comments": [ { "id", "author" (user name), "text", "created_at", "updated_at",
                      "moment": null, or { "mediaId", "start", "end" (seconds; end null for a single time) } } ]
  } ]
}
Question types: shortText, longText, singleSelection, multipleResponse, number, expansionPanelChoices
("unknown": an answer kept for a question the artifact's structure no longer has).
`;
