import { Readable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import { loadSharp } from '../media/mediaFormats.ts';
import { MediaStore } from '../media/mediaStore.ts';
import { objectStoreOf } from '../media/objectStore.ts';
import type { ReceivedFile } from '../media/uploadReceiver.ts';
import { mediaRepository } from '../repositories/mediaRepository.ts';
import type { Db } from './client.ts';
import { drawDemoVideo, linkDemoVideo } from './demoScores.ts';

/** Simple illustrations drawn for the demo artifacts (no photos of real people or places). */
const ILLUSTRATIONS: { artifact: string; file: string; svg: string }[] = [
  {
    artifact: 'Ramp races: predicting speed',
    file: 'ramp-race-setup.png',
    svg: `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="800" viewBox="0 0 1200 800">
      <rect width="1200" height="800" fill="#eef5fb"/>
      <rect y="620" width="1200" height="180" fill="#c9a77c"/>
      <polygon points="120,620 760,620 120,260" fill="#7a5230"/>
      <polygon points="140,600 700,600 140,300" fill="#a4743f"/>
      <g transform="translate(330 380) rotate(29)"><rect width="150" height="60" rx="14" fill="#d9412b"/>
        <circle cx="35" cy="66" r="20" fill="#222"/><circle cx="118" cy="66" r="20" fill="#222"/></g>
      <line x1="780" y1="700" x2="1120" y2="700" stroke="#1b2a38" stroke-width="6" stroke-dasharray="18 12"/>
      <text x="780" y="760" font-family="sans-serif" font-size="40" fill="#1b2a38">distance rolled (cm)</text>
      <text x="80" y="120" font-family="sans-serif" font-size="64" font-weight="bold" fill="#15324a">Ramp races</text>
    </svg>`,
  },
  {
    artifact: 'Food web card sort',
    file: 'pond-food-web.png',
    svg: `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="800" viewBox="0 0 1200 800">
      <rect width="1200" height="800" fill="#f3f8ef"/>
      <defs><marker id="a" markerWidth="12" markerHeight="12" refX="10" refY="6" orient="auto"><path d="M0,0 L12,6 L0,12 z" fill="#2f5d3a"/></marker></defs>
      <g font-family="sans-serif" font-size="34" text-anchor="middle">
        <circle cx="200" cy="620" r="95" fill="#8cc084"/><text x="200" y="632">algae</text>
        <circle cx="520" cy="560" r="95" fill="#f2c14e"/><text x="520" y="572">tadpole</text>
        <circle cx="820" cy="380" r="95" fill="#f78154"/><text x="820" y="392">fish</text>
        <circle cx="1030" cy="170" r="95" fill="#5fad56"/><text x="1030" y="182">heron</text>
        <circle cx="420" cy="230" r="95" fill="#b4a0e5"/><text x="420" y="242">insect</text>
      </g>
      <g stroke="#2f5d3a" stroke-width="8" marker-end="url(#a)">
        <line x1="290" y1="600" x2="420" y2="575"/><line x1="610" y1="520" x2="730" y2="430"/>
        <line x1="900" y1="320" x2="960" y2="250"/><line x1="260" y1="540" x2="370" y2="310"/><line x1="510" y1="260" x2="730" y2="350"/>
      </g>
      <text x="60" y="100" font-family="sans-serif" font-size="60" font-weight="bold" fill="#1f4d2b">Pond food web</text>
    </svg>`,
  },
];

const quietLog = {
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
} as unknown as FastifyBaseLogger;

/** The illustrations drawn and received by the store, waiting to be linked to their artifacts. */
export interface DrawnDemoMedia {
  store: MediaStore;
  drawn: { item: (typeof ILLUSTRATIONS)[number]; received: ReceivedFile }[];
  /** The lesson video scored at its moments (`null` without ffmpeg). */
  video: ReceivedFile | null;
}

/**
 * Draws the demo illustrations and lets the store make their formats, all at once (libvips works
 * on other threads): needs the migrated database, not the demo data, so it runs beside `seedDemo`.
 */
export async function drawDemoMedia(db: Db, config: Config): Promise<DrawnDemoMedia> {
  const store = new MediaStore(
    db,
    config.dataDir,
    { ffmpeg: config.ffmpegPath, ffprobe: config.ffprobePath },
    quietLog,
    await objectStoreOf(config),
  );
  await store.init();
  const sharp = await loadSharp();
  const [video, drawn] = await Promise.all([
    drawDemoVideo(store, config.ffmpegPath),
    Promise.all(
      ILLUSTRATIONS.map(async (item) => {
        const png = await sharp(Buffer.from(item.svg)).png().toBuffer();
        return { item, received: await store.receive(Readable.from(png), item.file, 'images') };
      }),
    ),
  ]);
  return { store, drawn, video };
}

/**
 * Adds the drawn illustrations to their artifacts (and to the shared copies of those artifacts,
 * which reference the same file), as a real upload is added; then the lesson video with its scores.
 */
export async function linkDemoMedia(db: Db, { store, drawn, video }: DrawnDemoMedia): Promise<void> {
  for (const { item, received } of drawn) {
    const { rows } = await db.query<{ id: number; owner_id: number }>(
      `SELECT a.id, p.owner_id FROM artifacts a JOIN portfolios p ON p.id = a.portfolio_id WHERE a.responses->>'artifactName' = $1`,
      [item.artifact],
    );
    const artifact = rows[0];
    if (!artifact) {
      await store.abandon(received);
      continue;
    }
    await db.transaction(async (tx) => {
      const media = await mediaRepository.insertAndLink(
        tx,
        'artifact',
        artifact.id,
        {
          kind: received.kind,
          name: received.name,
          storageKey: received.key,
          ext: received.ext,
          mime: received.mime,
          size: received.size,
          width: received.width,
          height: received.height,
          formats: received.formats,
          uploadedBy: artifact.owner_id,
        },
        false,
      );
      await tx.query('DELETE FROM pending_uploads WHERE storage_key = $1', [received.key]);
      // The shared copies made from this artifact hold the same file with the same caption.
      await tx.query(
        `INSERT INTO shared_artifact_media (shared_artifact_id, media_id, caption)
         SELECT sa.id, $2, $3 FROM shared_artifacts sa WHERE sa.responses->>'artifactName' = $1`,
        [item.artifact, media!.id, media!.caption],
      );
      await tx.query(
        `UPDATE shared_artifacts SET next_caption = greatest(next_caption, 1) WHERE responses->>'artifactName' = $1`,
        [item.artifact],
      );
    });
  }
  // After the illustrations: the shared "Ramp races" holds the photo as A, so the video is B.
  if (video) await linkDemoVideo(db, store, video);
}
