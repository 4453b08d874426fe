/**
 * The static site inside a teacher's archive: plain HTML pages side by side at the top of the
 * ZIP (`index.html`, `portfolio-<id>.html`, `artifact-<id>.html`, `shared-artifact-<id>.html`)
 * and the files under `media/`, so that every link is relative and the site opens from the file
 * system. Pages carry their CSS inline, run no script and load nothing from the network. Every
 * text from the database is escaped.
 */
import { GRADES } from '#schemas/catalog';
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
import { RESERVED_KEYS, type Structure } from '#schemas/structure';
import { filesLabel, pagePath } from './archiveData.ts';
import { historyHtml } from './archiveHistory.ts';

/** Escapes text for HTML content and attribute values. */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** The keys an artifact page shows in its header and file list rather than among its answers. */
const HEADER_KEYS: ReadonlySet<string> = new Set([
  RESERVED_KEYS.title,
  RESERVED_KEYS.unitTiming,
  RESERVED_KEYS.unitDay,
  RESERVED_KEYS.uploads,
]);

const NOT_ANSWERED = 'No response';
const NOT_SPECIFIED = 'Not specified';
const TEAM_QUESTIONS_HEADING = 'Team questions for shared portfolio';

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
    `${artifactBody(artifact, structure, badge)}
${historyHtml(artifact.history, escapeHtml)}`,
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
</section>
${historyHtml(artifact.history, escapeHtml)}`,
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
