import { execFile } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { NGSS_PRACTICES_TEMPLATE } from '#schemas/rubricTemplates';
import type { MediaStore } from '../media/mediaStore.ts';
import type { ReceivedFile } from '../media/uploadReceiver.ts';
import { mediaRepository } from '../repositories/mediaRepository.ts';
import { notificationRepository } from '../repositories/notificationRepository.ts';
import { rubricRepository } from '../repositories/rubricRepository.ts';
import { scoreRepository } from '../repositories/scoreRepository.ts';
import type { Db, Queryable } from './client.ts';

// The demo's rubric and scores (decision 058): the PLC scores with the NGSS practices, and its
// lead and a second member have scored moments of a short lesson video on Tess's shared "Ramp
// races", so the timeline's markers, the notifications and the charts have something to show.

/** The demo PLC's shared artifact that holds the lesson video. */
const SCORED_ARTIFACT = 'Ramp races: predicting speed';
/** The demo video's length in seconds (every scored moment lies within it). */
export const DEMO_VIDEO_SECONDS = 12;

/** Who scored which practice at which moment, and the level (0 Beginning … 3 Exemplary). */
const MOMENT_SCORES: {
  scorer: 'lead' | 'peer';
  code: string;
  start: number;
  end: number | null;
  level: number;
  note: string;
}[] = [
  {
    scorer: 'lead',
    code: 'SEP1',
    start: 1.5,
    end: 3.5,
    level: 2,
    note: 'Students ask which ramp height matters most.',
  },
  { scorer: 'lead', code: 'SEP3', start: 5, end: null, level: 1, note: 'The measuring is uneven between groups.' },
  { scorer: 'lead', code: 'SEP7', start: 8, end: 10.5, level: 3, note: 'Two groups argue from their distances.' },
  { scorer: 'peer', code: 'SEP1', start: 1.5, end: 3.5, level: 2, note: '' },
  { scorer: 'peer', code: 'SEP3', start: 5, end: null, level: 2, note: 'Most groups used the tape.' },
];

/** A short lesson-like clip: a car rolling along a floor, drawn by ffmpeg (no real people or places). */
const VIDEO_FILTER =
  `color=c=0xeef5fb:size=640x360:duration=${DEMO_VIDEO_SECONDS}:rate=10,` +
  'drawbox=x=0:y=300:w=640:h=60:color=0xc9a77c:t=fill,' +
  "drawbox=x='20+t*45':y=250:w=90:h=44:color=0xd9412b:t=fill";

/**
 * Makes the demo video with ffmpeg and lets the store receive it; `null` without ffmpeg (the demo
 * then has no video, and its scores are on whole artifacts only).
 */
export async function drawDemoVideo(store: MediaStore, ffmpeg: string): Promise<ReceivedFile | null> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'pf-demo-'));
  try {
    const out = path.join(dir, 'ramp-race-lesson.webm');
    await promisify(execFile)(ffmpeg, [
      '-hide_banner',
      '-loglevel',
      'error',
      '-f',
      'lavfi',
      '-i',
      VIDEO_FILTER,
      '-c:v',
      'libvpx',
      '-b:v',
      '150k',
      out,
    ]);
    return await store.receive(createReadStream(out), 'ramp-race-lesson.webm', 'videos');
  } catch {
    return null;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * In the demo's transaction: the PLC's NGSS rubric, chosen by it, and the lead's whole-artifact
 * score on Theo's shared "Food web card sort" (Theo is told).
 */
export async function seedDemoRubric(
  tx: Queryable,
  ids: { lead: number; plc: number; foodWeb: number },
): Promise<void> {
  const rubricId = await rubricRepository.create(
    tx,
    {
      sharedPortfolioId: ids.plc,
      name: NGSS_PRACTICES_TEMPLATE.name,
      description: NGSS_PRACTICES_TEMPLATE.description ?? '',
      createdBy: ids.lead,
    },
    NGSS_PRACTICES_TEMPLATE.criteria,
  );
  await rubricRepository.choose(tx, ids.plc, rubricId);
  const models = await criterion(tx, ids.plc, 'SEP2');
  const scoreId = await scoreRepository.add(tx, {
    artifactId: ids.foodWeb,
    versionId: models.versionId,
    criterionId: models.id,
    levelId: models.levels[2]!,
    moment: null,
    note: 'The card sort is a model students revise as they argue.',
    scorerId: ids.lead,
  });
  await notificationRepository.recordScore(tx, scoreId);
}

/** A criterion of the rubric a shared portfolio scores with, by its code, with its levels' ids in order. */
async function criterion(db: Queryable, sharedPortfolioId: number, code: string) {
  const { rows } = await db.query<{ id: number; version_id: number; levels: number[] }>(
    `SELECT c.id, c.version_id, array_agg(l.id ORDER BY l.position) AS levels
     FROM shared_portfolio_rubrics spr
     JOIN LATERAL (SELECT v.id FROM rubric_versions v WHERE v.rubric_id = spr.rubric_id ORDER BY v.number DESC LIMIT 1) v ON true
     JOIN rubric_criteria c ON c.version_id = v.id AND c.code = $2
     JOIN rubric_levels l ON l.criterion_id = c.id
     WHERE spr.shared_portfolio_id = $1 GROUP BY c.id, c.version_id`,
    [sharedPortfolioId, code],
  );
  const row = rows[0]!;
  return { id: row.id, versionId: row.version_id, levels: row.levels };
}

/**
 * Adds the demo video to the PLC's copy of "Ramp races" and the scores at its moments, by the
 * lead and by Theo (two of them on the same moments, so agreement has pairs); Tess is told of each.
 */
export async function linkDemoVideo(db: Db, store: MediaStore, video: ReceivedFile): Promise<void> {
  const { rows } = await db.query<{ id: number; shared_portfolio_id: number; owner_id: number }>(
    `SELECT sa.id, sa.shared_portfolio_id, sa.owner_id FROM shared_artifacts sa WHERE sa.responses->>'artifactName' = $1
     ORDER BY sa.id LIMIT 1`,
    [SCORED_ARTIFACT],
  );
  const target = rows[0];
  if (!target) {
    await store.abandon(video);
    return;
  }
  const people = await db.query<{ email: string; id: number }>(
    `SELECT email, id FROM users WHERE email IN ('lead@example.org', 'teacher2@example.org')`,
  );
  const scorer = (who: 'lead' | 'peer') =>
    people.rows.find((p) => p.email === (who === 'lead' ? 'lead@example.org' : 'teacher2@example.org'))!.id;
  await db.transaction(async (tx) => {
    const media = await mediaRepository.insertAndLink(
      tx,
      'sharedArtifact',
      target.id,
      {
        kind: video.kind,
        name: video.name,
        storageKey: video.key,
        ext: video.ext,
        mime: video.mime,
        size: video.size,
        width: video.width,
        height: video.height,
        formats: video.formats,
        duration: video.duration,
        uploadedBy: target.owner_id,
        description: 'Groups release their cars from two ramp heights and measure how far they roll.',
      },
      false,
    );
    await tx.query('DELETE FROM pending_uploads WHERE storage_key = $1', [video.key]);
    const length = video.duration ?? DEMO_VIDEO_SECONDS;
    for (const s of MOMENT_SCORES) {
      if (s.start > length) continue;
      const c = await criterion(tx, target.shared_portfolio_id, s.code);
      const scoreId = await scoreRepository.add(tx, {
        artifactId: target.id,
        versionId: c.versionId,
        criterionId: c.id,
        levelId: c.levels[s.level]!,
        moment: { mediaId: media!.id, start: s.start, end: s.end === null ? null : Math.min(s.end, length) },
        note: s.note,
        scorerId: scorer(s.scorer),
      });
      await notificationRepository.recordScore(tx, scoreId);
    }
  });
  await store.committed(video);
}
