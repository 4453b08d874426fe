import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { chmod, mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { finished, pipeline } from 'node:stream/promises';
import { ZipFile } from 'yazl';
import { serializeWebVtt } from '../media/captions.ts';
import type { ObjectStore } from '../media/objectStore.ts';
import type {
  ArchiveArtifactData,
  ArchiveCounts,
  ArchiveData,
  ArchiveMediaData,
  ArchivePortfolioData,
  ArchiveSharedArtifactData,
} from '#schemas/archive';
import type { Structure } from '#schemas/structure';
import type { Queryable } from '../db/client.ts';
import { answersOf, mediaPath, pagePath, titleOf } from '../export/archiveData.ts';
import { historiesOf } from '../export/archiveHistory.ts';
import { ARCHIVE_README } from '../export/archiveReadme.ts';
import {
  renderArtifactPage,
  renderIndexPage,
  renderPortfolioPage,
  renderSharedArtifactPage,
  type PortfolioSummary,
  type SharedSummary,
} from '../export/archiveSite.ts';
import { archiveContentRepository, type ArchiveMediaRow } from '../repositories/reporting/archiveContentRepository.ts';
import { lastEdited } from '../repositories/portfolioRepository.ts';

/** What one page weighs in the progress, next to the bytes of the files. */
const PAGE_WEIGHT = 64 * 1024;

/** Hooks of one build. */
export interface BuildHooks {
  /** Stops the build (the server is stopping, or the job was lost). */
  signal: AbortSignal;
  /** The share done so far, 0 to 1. */
  onProgress: (progress: number) => void;
  /** What the archive will hold, once known. */
  onCounts: (counts: ArchiveCounts) => Promise<void>;
  /** Called after each artifact is written (tests hold a build here). */
  onStep?: () => Promise<void>;
}

/** The finished ZIP in the archives folder. */
export interface BuiltArchive {
  fileName: string;
  size: number;
}

/**
 * Writes a teacher's archive to `dir` as `<random>.zip` (mode 0600): first under a temporary
 * name, renamed once complete, so that a ZIP by its final name is always whole. Files are
 * streamed into the ZIP one at a time (the next waits until the previous is written), so memory
 * stays flat whatever their size; data.json is written to a temporary file as the build goes.
 * @throws when the teacher no longer exists, the build is aborted, or writing fails (nothing is left behind).
 */
export async function buildArchive(
  db: Queryable,
  folders: { archives: string; uploads: ObjectStore },
  ownerId: number,
  hooks: BuildHooks,
): Promise<BuiltArchive> {
  const dir = folders.archives;
  const teacher = await archiveContentRepository.owner(db, ownerId);
  if (!teacher) throw new Error('the owner of the archive no longer exists');
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await chmod(dir, 0o700);
  const stem = randomBytes(18).toString('base64url');
  const partPath = path.join(dir, `.${stem}.zip.part`);
  const dataPath = path.join(dir, `.${stem}.json.part`);
  const zip = new ZipFile();
  const zipOut = createWriteStream(partPath, { flags: 'wx', mode: 0o600 });
  const written = pipeline(zip.outputStream, zipOut);
  // A file that fails while it is read (deleted meanwhile) fails the whole build.
  zip.on('error', (error: Error) => zipOut.destroy(error));
  // Reported by the final await; a rejection before then must not count as unhandled.
  written.catch(() => undefined);
  const data = createWriteStream(dataPath, { flags: 'wx', mode: 0o600 });
  // Listens for the file's errors for its whole life (a write failing after a stop included).
  const dataClosed = finished(data);
  dataClosed.catch(() => undefined);
  /** The media file being read into the ZIP, if any. */
  const reading: { stream: Readable | null } = { stream: null };
  try {
    stopIfAborted(hooks.signal);
    const generatedAt = new Date().toISOString();
    const mtime = new Date(generatedAt);
    const portfolios = await archiveContentRepository.portfolios(db, ownerId);
    const shared = await archiveContentRepository.sharedArtifacts(db, ownerId);
    const comments = await archiveContentRepository.comments(
      db,
      shared.map((s) => s.id),
    );
    const totals = await archiveContentRepository.totals(db, ownerId);
    await hooks.onCounts({
      portfolios: portfolios.length,
      artifacts: totals.artifacts,
      sharedArtifacts: shared.length,
      comments: comments.length,
      media: totals.media,
    });
    const totalWeight = (totals.artifacts + shared.length + portfolios.length + 1) * PAGE_WEIGHT + totals.bytes;
    let done = 0;
    const advance = (weight: number) => {
      done += weight;
      hooks.onProgress(Math.min(0.99, done / totalWeight));
    };
    const check = () => stopIfAborted(hooks.signal);

    const stopped = new Promise<never>((_, reject) => {
      const stop = () =>
        reject(hooks.signal.reason instanceof Error ? hooks.signal.reason : new Error('archive build stopped'));
      if (hooks.signal.aborted) stop();
      else hooks.signal.addEventListener('abort', stop, { once: true });
    });
    stopped.catch(() => undefined);
    const added = new Map<number, string | null>();
    /** Adds a file once (copies share it) and waits until the ZIP has taken it in. */
    const addMedia = async (row: ArchiveMediaRow): Promise<ArchiveMediaData> => {
      let entry = added.get(row.id);
      if (entry === undefined) {
        const source = `${row.storageKey}${row.ext}`;
        const present = (await folders.uploads.size(source)) !== null;
        entry = present ? mediaPath({ id: row.id, name: row.name, ext: row.ext, kind: row.kind }) : null;
        added.set(row.id, entry);
        if (entry) {
          const input = await folders.uploads.read(source);
          reading.stream = input;
          zip.addReadStream(input, entry, { compress: false, mtime });
          // Waits for this file, but not past a failed ZIP or a stop.
          await Promise.race([finished(input), written, stopped]);
          reading.stream = null;
        }
        advance(row.size);
        check();
      }
      return {
        id: row.id,
        kind: row.kind,
        caption: row.caption,
        name: row.name,
        mime: row.mime,
        size: row.size,
        alt: row.alt,
        description: row.description,
        path: entry,
      };
    };
    /** Adds the files of one artifact, one after the other, in their order. */
    const addAllMedia = async (
      rows: readonly ArchiveMediaRow[] = [],
      holder?: 'artifact' | 'sharedArtifact',
    ): Promise<ArchiveMediaData[]> => {
      const files: ArchiveMediaData[] = [];
      for (const row of rows) {
        const file = await addMedia(row);
        files.push(file);
        if (holder && file.path)
          addCaptions(
            file.path,
            await archiveContentRepository.captionTracks(db, holder, [row.holderId]),
            row.id,
            holder === 'artifact' ? 'a' : 's',
            row.holderId,
          );
      }
      return files;
    };
    /** A video's caption tracks as that artifact holds them: WebVTT files next to the video (`<video>.<a|s><artifact>.<language>.vtt`). */
    const addCaptions = (
      videoPath: string,
      tracks: readonly { mediaId: number; language: string; cues: { start: number; end: number; text: string }[] }[],
      mediaId: number,
      prefix: string,
      holderId: number,
    ) => {
      for (const track of tracks) {
        if (track.mediaId !== mediaId) continue;
        const language = track.language.replace(/[^A-Za-z0-9-]/g, '');
        zip.addBuffer(
          Buffer.from(serializeWebVtt(track.cues), 'utf8'),
          `${videoPath.replace(/\.[^./]*$/, '')}.${prefix}${holderId}.${language}.vtt`,
          { mtime },
        );
      }
    };
    const addPage = (name: string, html: string) => zip.addBuffer(Buffer.from(html, 'utf8'), name, { mtime });

    await writeText(
      data,
      `{"format":"practicefolio-archive","version":1,"generated_at":${JSON.stringify(generatedAt)},"teacher":${JSON.stringify(teacher)},"portfolios":[`,
    );
    const portfolioSummaries: PortfolioSummary[] = [];
    for (const [index, p] of portfolios.entries()) {
      check();
      const artifacts = await archiveContentRepository.artifacts(db, p.id);
      const media = groupBy(
        await archiveContentRepository.media(
          db,
          'artifact',
          artifacts.map((a) => a.id),
        ),
      );
      const histories = await historiesOf(
        await archiveContentRepository.versions(
          db,
          'artifact',
          artifacts.map((a) => a.id),
        ),
        (id) => artifacts.find((a) => a.id === id)?.structure ?? [],
      );
      const portfolio: ArchivePortfolioData = {
        id: p.id,
        name: p.name,
        subject: p.subject,
        topic: p.topic,
        grades: p.grades,
        created_at: p.createdAt,
        updated_at: p.updatedAt,
        questions: questionsOf(p.structure),
        page: pagePath.portfolio(p.id),
        artifacts: [],
      };
      const structures = new Map<number, Structure>();
      for (const a of artifacts) {
        const files = await addAllMedia(media.get(a.id), 'artifact');
        const artifact: ArchiveArtifactData = {
          id: a.id,
          title: titleOf(a.responses),
          parkingLot: a.parkingLot,
          created_at: a.createdAt,
          updated_at: a.updatedAt,
          answers: answersOf(a.structure, a.responses),
          media: files,
          page: pagePath.artifact(a.id),
          history: histories.get(a.id) ?? [],
        };
        portfolio.artifacts.push(artifact);
        structures.set(a.id, a.structure);
        addPage(artifact.page, renderArtifactPage(portfolio, artifact, a.structure, generatedAt));
        advance(PAGE_WEIGHT);
        if (hooks.onStep) await Promise.race([hooks.onStep(), stopped]);
        check();
      }
      addPage(portfolio.page, renderPortfolioPage(portfolio, generatedAt));
      advance(PAGE_WEIGHT);
      await writeText(data, `${index > 0 ? ',' : ''}${JSON.stringify(portfolio)}`);
      portfolioSummaries.push({
        name: portfolio.name,
        page: portfolio.page,
        artifacts: portfolio.artifacts.length,
        updated_at: lastEdited(portfolio.updated_at, portfolio.artifacts),
      });
    }

    await writeText(data, '],"sharedArtifacts":[');
    const sharedMedia = groupBy(
      await archiveContentRepository.media(
        db,
        'sharedArtifact',
        shared.map((s) => s.id),
      ),
    );
    const sharedHistories = await historiesOf(
      await archiveContentRepository.versions(
        db,
        'sharedArtifact',
        shared.map((s) => s.id),
      ),
      (id) => shared.find((s) => s.id === id)?.structure ?? [],
    );
    const commentsOf = new Map<number, typeof comments>();
    for (const c of comments) commentsOf.set(c.sharedArtifactId, [...(commentsOf.get(c.sharedArtifactId) ?? []), c]);
    const sharedSummaries: SharedSummary[] = [];
    for (const [index, s] of shared.entries()) {
      check();
      const files = await addAllMedia(sharedMedia.get(s.id), 'sharedArtifact');
      const artifact: ArchiveSharedArtifactData = {
        id: s.id,
        title: titleOf(s.responses),
        created_at: s.createdAt,
        updated_at: s.updatedAt,
        answers: answersOf(s.structure, s.responses),
        media: files,
        page: pagePath.sharedArtifact(s.id),
        history: sharedHistories.get(s.id) ?? [],
        sharedPortfolio: { id: s.sharedPortfolioId, name: s.sharedPortfolioName },
        comments: (commentsOf.get(s.id) ?? []).map((c) => ({
          id: c.id,
          author: c.author,
          text: c.text,
          created_at: c.createdAt,
          updated_at: c.updatedAt,
          moment:
            c.mediaId !== null && c.momentStart !== null
              ? { mediaId: c.mediaId, start: c.momentStart, end: c.momentEnd }
              : null,
        })),
      };
      addPage(artifact.page, renderSharedArtifactPage(artifact, s.structure, generatedAt));
      advance(PAGE_WEIGHT);
      await writeText(data, `${index > 0 ? ',' : ''}${JSON.stringify(artifact)}`);
      sharedSummaries.push({
        title: artifact.title,
        page: artifact.page,
        sharedPortfolio: s.sharedPortfolioName,
        comments: artifact.comments.length,
      });
      if (hooks.onStep) await Promise.race([hooks.onStep(), stopped]);
    }
    await writeText(data, ']}\n');
    data.end();
    await dataClosed;

    const index: Pick<ArchiveData, 'teacher' | 'generated_at'> = { teacher, generated_at: generatedAt };
    addPage(pagePath.index, renderIndexPage(index, portfolioSummaries, sharedSummaries));
    zip.addBuffer(Buffer.from(ARCHIVE_README, 'utf8'), 'README.txt', { mtime });
    zip.addFile(dataPath, 'data.json', { mtime });
    check();
    zip.end();
    await written;
    const fileName = `${stem}.zip`;
    await rename(partPath, path.join(dir, fileName));
    const size = (await stat(path.join(dir, fileName))).size;
    return { fileName, size };
  } catch (error) {
    // Nothing of a failed or stopped build stays open or on disk.
    reading.stream?.destroy();
    zip.outputStream.unpipe(zipOut);
    zipOut.destroy();
    data.destroy();
    await Promise.allSettled([dataClosed, finished(zipOut)]);
    await rm(partPath, { force: true });
    throw error;
  } finally {
    await rm(dataPath, { force: true });
  }
}

/** @throws the reason of a stop, once `signal` is aborted. */
function stopIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw signal.reason instanceof Error ? signal.reason : new Error('archive build stopped');
}

function questionsOf(structure: Structure): ArchivePortfolioData['questions'] {
  return structure.map((q) => ({
    key: q.key,
    text: q.text,
    type: q.type,
    ...(q.choices ? { choices: q.choices } : {}),
    team: q.bonus === true,
  }));
}

function groupBy(rows: readonly ArchiveMediaRow[]): Map<number, ArchiveMediaRow[]> {
  const map = new Map<number, ArchiveMediaRow[]>();
  for (const row of rows) {
    const list = map.get(row.holderId);
    if (list) list.push(row);
    else map.set(row.holderId, [row]);
  }
  return map;
}

/** Writes text, waiting when the file cannot take more yet (rejects when the file fails meanwhile). */
async function writeText(stream: WriteStream, text: string): Promise<void> {
  if (!stream.write(text)) await once(stream, 'drain');
}
