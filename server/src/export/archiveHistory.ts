/**
 * The history of each artifact in a teacher's archive: every version as data.json records it (the
 * answers it changed and the files it added and removed), and as the artifact's page lists it.
 */
import { formatDateTime } from '#schemas/formatting';
import type { ArchiveVersionData } from '#schemas/archive';
import type { Structure } from '#schemas/structure';
import type { ArchiveVersionRow } from '../repositories/reporting/archiveContentRepository.ts';
import { versionSteps } from './versionSteps.ts';

/** The versions of one or more artifacts grouped by artifact, each history oldest first. */
export async function historiesOf(
  rows: readonly ArchiveVersionRow[],
  structureOf: (holderId: number) => Structure,
): Promise<Map<number, ArchiveVersionData[]>> {
  const histories = new Map<number, ArchiveVersionData[]>();
  for await (const { version, after, filesAdded, filesRemoved } of versionSteps(rows)) {
    const structure = structureOf(version.holder_id);
    const question = (key: string) => structure.find((q) => q.key === key)?.text.trim() || key;
    const entry: ArchiveVersionData = {
      number: version.number,
      created_at: version.created_at.toISOString(),
      author: version.author,
      client: version.client,
      restoredFrom: version.restored_from,
      changes: version.changed.map((key) => ({ key, question: question(key), answer: after[key] ?? null })),
      filesAdded,
      filesRemoved,
    };
    histories.set(version.holder_id, [...(histories.get(version.holder_id) ?? []), entry]);
  }
  return histories;
}

const CLIENTS: Record<string, string> = {
  web: 'the web',
  mobile: 'the mobile app',
  copy: 'a copy',
  restore: 'a restore',
  system: 'the start of the history',
};

/** What a version changed, in a line: 'Student thinking, Title; 2 files added, 1 removed'. */
export function changeLine(version: ArchiveVersionData): string {
  const parts = [version.changes.map((c) => c.question).join(', ')];
  const files = [
    version.filesAdded.length
      ? `${version.filesAdded.length} file${version.filesAdded.length > 1 ? 's' : ''} added`
      : '',
    version.filesRemoved.length ? `${version.filesRemoved.length} removed` : '',
  ]
    .filter(Boolean)
    .join(', ');
  const line = [...parts, files].filter(Boolean).join('; ');
  if (version.restoredFrom !== null) return `Restored version ${version.restoredFrom}${line ? `: ${line}` : ''}`;
  return line || 'No change';
}

/** The history section of an artifact's page, newest first ('History' with a table of versions). */
export function historyHtml(history: readonly ArchiveVersionData[], escape: (text: string) => string): string {
  if (history.length === 0) return '';
  const rows = [...history]
    .reverse()
    .map(
      (v) =>
        `<tr><td>${v.number}</td><td><time datetime="${escape(v.created_at)}">${escape(formatDateTime(v.created_at, { utc: true }))}</time></td><td>${escape(v.author ?? 'Unknown')}</td><td>${escape(CLIENTS[v.client] ?? v.client)}</td><td>${escape(changeLine(v))}</td></tr>`,
    )
    .join('\n');
  return `<section class="card"><h2>History</h2>
<p>Every saved version, newest first; data.json holds each version's answers.</p>
<table><thead><tr><th scope="col">Version</th><th scope="col">Saved</th><th scope="col">By</th><th scope="col">Through</th><th scope="col">What changed</th></tr></thead><tbody>
${rows}
</tbody></table>
</section>`;
}
