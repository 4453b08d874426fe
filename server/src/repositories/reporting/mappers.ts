import { iso } from '../sql.ts';
import { LIST_SEPARATOR } from './columns.ts';

// Row mappers and SQL pieces shared by the reports: the summaries, the research package and the
// teacher archive read the same tables, and write their stamps, lists and files the same way.

/** The creation and last-save times of a row. */
export interface StampColumns {
  created_at: Date;
  updated_at: Date;
}

/** A row's creation and last-save times as the API and the archive write them. */
export const stamps = (r: StampColumns) => ({ createdAt: iso(r.created_at), updatedAt: iso(r.updated_at) });

/** A list of grades (or any list of words) in one cell. */
export const listText = (list: readonly string[] | null | undefined): string => (list ?? []).join(LIST_SEPARATOR);

/** What holds files: a personal artifact or a shared artifact. */
export type FileHolder = 'artifact' | 'sharedArtifact';

/** The link table of a holder's files and its column naming the holder. */
export const HOLDER_LINKS: Record<FileHolder, { links: string; fk: string }> = {
  artifact: { links: 'artifact_media', fk: 'artifact_id' },
  sharedArtifact: { links: 'shared_artifact_media', fk: 'shared_artifact_id' },
};

/** The `images`, `videos` and `documents` counts of the holder `id` (an SQL expression) as select columns. */
export function mediaCountsSql(holder: FileHolder, id: string): string {
  const { links, fk } = HOLDER_LINKS[holder];
  const count = (kind: string) =>
    `(SELECT count(*) FILTER (WHERE m.kind = '${kind}') FROM ${links} l JOIN media_files m ON m.id = l.media_id WHERE l.${fk} = ${id})::int`;
  return `
  ${count('image')} AS images,
  ${count('video')} AS videos,
  ${count('document')} AS documents`;
}
