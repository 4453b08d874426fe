import type { User } from '#schemas/user';
import { forbidden } from '../errors.ts';
import { csvDate } from '../export/csv.ts';
import { isResearcher } from '../policies/userPolicy.ts';
import { TEMPLATE_PORTFOLIO_ID } from '#schemas/catalog';
import type { ServiceContext } from './context.ts';

export const ONLY_RESEARCHERS_EXPORT = 'Only researchers can export summaries.';

/** The 12 columns of `teacher portfolios.csv` (reference §4.1). */
export const TEACHER_CSV_HEADER = [
  'Teacher',
  'Portfolio',
  'Artifacts',
  'Parking Lot Artifacts',
  'Completed Artifacts',
  'Artifacts with Documents',
  'Artifacts with Images',
  'Artifacts with Videos',
  'Documents',
  'Images',
  'Videos',
  'Last Updated',
] as const;

/** The 18 columns of `shared portfolios.csv` (reference §4.2). */
export const SHARED_CSV_HEADER = [
  'Shared Portfolio',
  'Owner',
  'Teachers Who Submitted Artifacts',
  'Artifacts',
  'Artifacts with Bonus Questions Answered',
  'Artifacts with Documents',
  'Artifacts with Images',
  'Artifacts with Videos',
  'Documents',
  'Images',
  'Videos',
  'Teachers Who Commented or Reacted',
  'Comments',
  'Reactions',
  'Tag Reactions',
  'Star Reactions',
  'Bridge Reactions',
  'Question Reactions',
] as const;

const BATCH = 500;

/** CSV summaries for researchers, read in batches so that memory stays flat. */
export function createExportService(ctx: ServiceContext) {
  const { db } = ctx;
  return {
    /**
     * One row per personal portfolio of every teacher and PLC lead (researchers keep none),
     * ordered by teacher and portfolio. "Completed" means submitted to the portfolio.
     * @throws 403 for anyone but a researcher.
     */
    teacherPortfolios(actor: User): AsyncIterable<(string | number)[]> {
      if (!isResearcher(actor)) throw forbidden(ONLY_RESEARCHERS_EXPORT);
      return (async function* rows() {
        let after = 0;
        for (;;) {
          const { rows } = await db.query<{
            id: number;
            username: string;
            name: string;
            artifacts: number;
            parking: number;
            completed: number;
            with_documents: number;
            with_images: number;
            with_videos: number;
            documents: number;
            images: number;
            videos: number;
            last_updated: Date;
          }>(
            `WITH page AS (
               SELECT p.id, p.name, p.updated_at, u.username FROM portfolios p JOIN users u ON u.id = p.owner_id
               WHERE p.id > $1 AND p.id <> $2 AND u.role_id <> 4 ORDER BY p.id LIMIT $3
             ), media AS (
               SELECT am.artifact_id,
                 count(*) FILTER (WHERE m.kind = 'document')::int AS documents,
                 count(*) FILTER (WHERE m.kind = 'image')::int AS images,
                 count(*) FILTER (WHERE m.kind = 'video')::int AS videos
               FROM artifact_media am JOIN media_files m ON m.id = am.media_id
               JOIN artifacts a ON a.id = am.artifact_id WHERE a.portfolio_id IN (SELECT id FROM page) AND a.saved
               GROUP BY am.artifact_id
             )
             SELECT page.id, page.username, page.name,
               count(a.id)::int AS artifacts,
               count(a.id) FILTER (WHERE a.parking_lot)::int AS parking,
               count(a.id) FILTER (WHERE NOT a.parking_lot)::int AS completed,
               count(a.id) FILTER (WHERE coalesce(m.documents, 0) > 0)::int AS with_documents,
               count(a.id) FILTER (WHERE coalesce(m.images, 0) > 0)::int AS with_images,
               count(a.id) FILTER (WHERE coalesce(m.videos, 0) > 0)::int AS with_videos,
               coalesce(sum(m.documents), 0)::int AS documents,
               coalesce(sum(m.images), 0)::int AS images,
               coalesce(sum(m.videos), 0)::int AS videos,
               greatest(page.updated_at, max(a.updated_at)) AS last_updated
             FROM page LEFT JOIN artifacts a ON a.portfolio_id = page.id AND a.saved LEFT JOIN media m ON m.artifact_id = a.id
             GROUP BY page.id, page.username, page.name, page.updated_at ORDER BY page.id`,
            [after, TEMPLATE_PORTFOLIO_ID, BATCH],
          );
          for (const r of rows) {
            yield [
              r.username,
              r.name,
              r.artifacts,
              r.parking,
              r.completed,
              r.with_documents,
              r.with_images,
              r.with_videos,
              r.documents,
              r.images,
              r.videos,
              csvDate(r.last_updated),
            ];
          }
          if (rows.length < BATCH) return;
          after = rows[rows.length - 1]!.id;
        }
      })();
    },

    /**
     * One row per shared portfolio. "Artifacts with Bonus Questions Answered" counts artifacts
     * that answered every team question, and none when there are no team questions.
     * @throws 403 for anyone but a researcher.
     */
    sharedPortfolios(actor: User): AsyncIterable<(string | number)[]> {
      if (!isResearcher(actor)) throw forbidden(ONLY_RESEARCHERS_EXPORT);
      return (async function* rows() {
        let after = 0;
        for (;;) {
          const { rows } = await db.query<{
            id: number;
            name: string;
            owner_email: string;
            submitters: string | null;
            artifacts: number;
            bonus_complete: number;
            with_documents: number;
            with_images: number;
            with_videos: number;
            documents: number;
            images: number;
            videos: number;
            discussants: string | null;
            comments: number;
            reactions: number;
            tag: number;
            star: number;
            bridge: number;
            question: number;
          }>(
            `WITH page AS (
               SELECT sp.id, sp.name, o.email AS owner_email FROM shared_portfolios sp JOIN users o ON o.id = sp.owner_id
               WHERE sp.id > $1 ORDER BY sp.id LIMIT $2
             ), arts AS (
               SELECT sa.id, sa.shared_portfolio_id, u.email,
                 (SELECT count(*) FROM jsonb_array_elements(sa.structure) q WHERE (q->>'bonus')::boolean IS TRUE) AS bonus_total,
                 (SELECT count(*) FROM jsonb_array_elements(sa.structure) q
                    WHERE (q->>'bonus')::boolean IS TRUE AND sa.responses ? (q->>'key')
                      AND sa.responses->(q->>'key') NOT IN ('""'::jsonb, '[]'::jsonb, 'null'::jsonb)) AS bonus_answered,
                 (SELECT count(*) FROM shared_artifact_media l JOIN media_files m ON m.id = l.media_id WHERE l.shared_artifact_id = sa.id AND m.kind = 'document') AS documents,
                 (SELECT count(*) FROM shared_artifact_media l JOIN media_files m ON m.id = l.media_id WHERE l.shared_artifact_id = sa.id AND m.kind = 'image') AS images,
                 (SELECT count(*) FROM shared_artifact_media l JOIN media_files m ON m.id = l.media_id WHERE l.shared_artifact_id = sa.id AND m.kind = 'video') AS videos
               FROM shared_artifacts sa JOIN users u ON u.id = sa.owner_id WHERE sa.shared_portfolio_id IN (SELECT id FROM page)
             ), art_totals AS (
               SELECT shared_portfolio_id,
                 -- E-mails in byte order (as the original sorted them), whatever the database's collation.
                 string_agg(DISTINCT email COLLATE "C", ', ' ORDER BY email COLLATE "C") AS submitters,
                 count(*)::int AS artifacts,
                 count(*) FILTER (WHERE bonus_total > 0 AND bonus_answered = bonus_total)::int AS bonus_complete,
                 count(*) FILTER (WHERE documents > 0)::int AS with_documents,
                 count(*) FILTER (WHERE images > 0)::int AS with_images,
                 count(*) FILTER (WHERE videos > 0)::int AS with_videos,
                 coalesce(sum(documents), 0)::int AS documents,
                 coalesce(sum(images), 0)::int AS images,
                 coalesce(sum(videos), 0)::int AS videos
               FROM arts GROUP BY shared_portfolio_id
             ), talk AS (
               SELECT sa.shared_portfolio_id, u.email, 'comment' AS what, NULL::text AS value
                 FROM comments c JOIN shared_artifacts sa ON sa.id = c.shared_artifact_id JOIN users u ON u.id = c.owner_id
                 WHERE sa.shared_portfolio_id IN (SELECT id FROM page)
               UNION ALL
               SELECT sa.shared_portfolio_id, u.email, 'reaction', r.value
                 FROM reactions r JOIN shared_artifacts sa ON sa.id = r.shared_artifact_id JOIN users u ON u.id = r.owner_id
                 WHERE sa.shared_portfolio_id IN (SELECT id FROM page)
             ), talk_totals AS (
               SELECT shared_portfolio_id,
                 string_agg(DISTINCT email COLLATE "C", ', ' ORDER BY email COLLATE "C") AS discussants,
                 count(*) FILTER (WHERE what = 'comment')::int AS comments,
                 count(*) FILTER (WHERE what = 'reaction')::int AS reactions,
                 count(*) FILTER (WHERE value = '🔖')::int AS tag,
                 count(*) FILTER (WHERE value = '⭐')::int AS star,
                 count(*) FILTER (WHERE value = '🌉')::int AS bridge,
                 count(*) FILTER (WHERE value = '❓')::int AS question
               FROM talk GROUP BY shared_portfolio_id
             )
             SELECT page.id, page.name, page.owner_email, a.submitters, coalesce(a.artifacts, 0) AS artifacts,
               coalesce(a.bonus_complete, 0) AS bonus_complete, coalesce(a.with_documents, 0) AS with_documents,
               coalesce(a.with_images, 0) AS with_images, coalesce(a.with_videos, 0) AS with_videos,
               coalesce(a.documents, 0) AS documents, coalesce(a.images, 0) AS images, coalesce(a.videos, 0) AS videos,
               t.discussants, coalesce(t.comments, 0) AS comments, coalesce(t.reactions, 0) AS reactions,
               coalesce(t.tag, 0) AS tag, coalesce(t.star, 0) AS star, coalesce(t.bridge, 0) AS bridge, coalesce(t.question, 0) AS question
             FROM page LEFT JOIN art_totals a ON a.shared_portfolio_id = page.id LEFT JOIN talk_totals t ON t.shared_portfolio_id = page.id
             ORDER BY page.id`,
            [after, BATCH],
          );
          for (const r of rows) {
            yield [
              r.name,
              r.owner_email,
              r.submitters ?? '',
              r.artifacts,
              r.bonus_complete,
              r.with_documents,
              r.with_images,
              r.with_videos,
              r.documents,
              r.images,
              r.videos,
              r.discussants ?? '',
              r.comments,
              r.reactions,
              r.tag,
              r.star,
              r.bridge,
              r.question,
            ];
          }
          if (rows.length < BATCH) return;
          after = rows[rows.length - 1]!.id;
        }
      })();
    },
  };
}

export type ExportService = ReturnType<typeof createExportService>;
