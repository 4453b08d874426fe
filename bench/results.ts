/**
 * Keeps bench/RESULTS.md whole when only some parts are run: the sections and goal rows of the
 * parts that were not run are carried over from the file as it was, marked with the run they
 * come from, so a run of `--only browser` never drops the API or memory figures.
 */

/** The section heading (after `## `) each part writes; `Data set` goes with the API part. */
export const SECTION_PART: [prefix: string, part: string][] = [
  ['API', 'api'],
  ['Data set', 'api'],
  ['Browser', 'browser'],
  ['My Portfolios on a portfolio', 'portfolio'],
  ['Interactions', 'interactions'],
  ['Lighthouse', 'lighthouse'],
  ['Start and restart', 'startup'],
  ['Memory: every server process', 'memory'],
  ['SPA bundle', 'bundle'],
  ['Memory during a large upload', 'upload'],
  ['CSV exports', 'exports'],
  ['Research export package', 'research'],
  ['Login at', 'login'],
  ['Filter By', 'filter'],
  ['Notification fan-out', 'notify'],
  ['History of an artifact', 'versions'],
  ['Several nodes', 'cluster'],
  ['Backup and restore', 'backup'],
];

interface Section {
  heading: string;
  body: string[];
}

function sections(text: string): { head: string[]; sections: Section[] } {
  const head: string[] = [];
  const found: Section[] = [];
  for (const line of text.split('\n')) {
    if (line.startsWith('## ')) found.push({ heading: line.slice(3).trim(), body: [] });
    else if (found.length > 0) found[found.length - 1]!.body.push(line);
    else head.push(line);
  }
  return { head, sections: found };
}

export function partOf(heading: string): string | undefined {
  return SECTION_PART.find(([prefix]) => heading.startsWith(prefix))?.[1];
}

/** `Date` and `Commit` of a results file's header table. */
function runOf(head: string[]): string {
  const cell = (name: string) =>
    head
      .find((l) => l.startsWith(`| ${name} |`))
      ?.split('|')[2]
      ?.trim();
  return [cell('Date'), cell('Commit') ? `commit ${cell('Commit')}` : undefined].filter(Boolean).join(', ');
}

/**
 * The new results with what the previous file had for parts not in `ran`: their goal rows (kept
 * in the summary with their own load figure) and their sections, each headed by the run it
 * comes from.
 */
export function mergeResults(previous: string | null, next: string, ran: ReadonlySet<string>): string {
  if (!previous) return next;
  const old = sections(previous);
  const now = sections(next);
  const from = runOf(old.head);
  const keptRows = (old.sections.find((s) => s.heading === 'Goals')?.body ?? [])
    .filter((line) => {
      const part = /^\| ([a-z]+) \|/.exec(line)?.[1];
      return part !== undefined && part !== 'Part' && !ran.has(part);
    })
    .map((line) => (line.split('|').length < 7 ? `${line} earlier run |` : line));
  const keptSections = old.sections.filter((s) => {
    const part = partOf(s.heading);
    return part !== undefined && !ran.has(part) && !now.sections.some((n) => n.heading === s.heading);
  });
  const out: string[] = [...now.head];
  let goalsWritten = false;
  for (const s of now.sections) {
    out.push(`## ${s.heading}`);
    if (s.heading === 'Goals') {
      goalsWritten = true;
      out.push(...withRows(s.body, keptRows));
    } else out.push(...s.body);
  }
  if (!goalsWritten && keptRows.length > 0)
    out.push('## Goals', '', '| Part | Goal | Figure | | Load |', '|---|---|---:|---|---:|', ...keptRows, '');
  for (const s of keptSections) {
    const body = s.body.filter((line) => !line.startsWith('*Carried over from'));
    const note =
      s.body.find((line) => line.startsWith('*Carried over from')) ??
      `*Carried over from the run of ${from}: not run since.*`;
    out.push(`## ${s.heading}`, '', note, ...body);
  }
  return `${out
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd()}\n`;
}

/** The goals table's body with the carried-over rows after the new ones, and the count of met goals redone. */
function withRows(body: string[], kept: string[]): string[] {
  const lastRow = body.reduce((last, line, i) => (line.startsWith('| ') ? i : last), -1);
  if (lastRow < 0) return body;
  const lines = [...body.slice(0, lastRow + 1), ...kept, ...body.slice(lastRow + 1)];
  const rows = lines.filter((l) => /^\| [a-z]+ \|/.test(l));
  const met = rows.filter((l) => / \| met \| /.test(l)).length;
  return lines.map((l) => (/^\d+ of \d+ met\.$/.test(l) ? `${met} of ${rows.length} met.` : l));
}
