import { formatClock } from '#schemas/formatting';
import type { Media } from '#schemas/media';
import type { CaptionTrack, CaptionTrackSummary, CaptionUpdateBody, CaptionUploadResponse, CaptionUploadBody, Cue, MediaTextBody, Note, NoteBody, NoteUpdateBody } from '#schemas/moments';
import { CAPTION_LABEL_MAX, CAPTION_SOURCE_MAX_BYTES, CAPTION_TRACKS_MAX, MOMENT_CUE_SECONDS } from '#schemas/moments';
import type { User } from '#schemas/user';
import type { Queryable } from '../db/client.ts';
import { badRequest, conflict, HttpError, notFound, tooLarge } from '../errors.ts';
import { CaptionError, checkCues, clipToDuration, END_TOLERANCE, escapeCueText, parseSrt, parseWebVtt, serializeWebVtt, vttTime } from '../media/captions.ts';
import type { MediaStore } from '../media/mediaStore.ts';
import { canReadArtifact, canWriteArtifact, PORTFOLIO_MESSAGES } from '../policies/portfolioPolicy.ts';
import { canReadShared, canWorkInShared, isMember, SHARED_MESSAGES } from '../policies/sharedPolicy.ts';
import { isResearcher } from '../policies/userPolicy.ts';
import { artifactRepository } from '../repositories/artifactRepository.ts';
import { mediaRepository, type Holder } from '../repositories/mediaRepository.ts';
import { holderOf, momentRepository, toCaptionSummary, toCaptionTrack, type CaptionHolder, type StoredMoment } from '../repositories/momentRepository.ts';
import { notificationRepository } from '../repositories/notificationRepository.ts';
import { sharedArtifactRepository } from '../repositories/sharedArtifactRepository.ts';
import { sharedPortfolioRepository } from '../repositories/sharedPortfolioRepository.ts';
import type { ServiceContext } from './context.ts';
import { assertAllowed } from './decide.ts';
import { FILE_NOT_FOUND } from './mediaService.ts';

/** Private notes per video of an artifact, and their characters in all (decision 017). */
export const NOTES_PER_VIDEO = 100;
export const NOTE_CHARS_PER_VIDEO = 100_000;

export const MOMENT_MESSAGES = {
  notHeld: 'This video is not part of this artifact.',
  notVideo: 'A moment can be placed only on a video, not on an image or a document.',
  unknownDuration: 'The length of this video could not be read, so nothing can be placed at a moment of it.',
  pastEnd: (duration: number) => `The moment is past the end of the video (${formatClock(duration, { milliseconds: true })}).`,
  endBeforeStart: 'The end of a moment cannot be before its start.',
  noteNotFound: 'Note not found.',
  captionNotFound: 'Caption track not found.',
  captionLanguageTaken: (language: string) => `This video already has a caption track in ${language}. Change that track, or choose another language.`,
  captionsOnVideos: 'Captions can be added only to videos.',
  captionTooLarge: 'A caption file can be at most 512 KiB.',
  trackTooLarge: 'A caption track can be at most 512 KiB as a WebVTT file. Split it, or shorten its captions.',
  tooManyTracks: `A video can have at most ${CAPTION_TRACKS_MAX} caption tracks. Delete one before adding another.`,
  quotaFull: 'These captions would take more than your storage limit. Remove files you no longer need, or ask a researcher for more room.',
  mediaNotHeld: 'This file is not part of this artifact.',
  tooManyNotes: `A video can have at most ${NOTES_PER_VIDEO} private notes. Delete notes you no longer need first.`,
  notesTooLong: `The private notes on one video can hold at most ${NOTE_CHARS_PER_VIDEO.toLocaleString('en-US')} characters in all. Shorten or delete notes first.`,
} as const;

const invalidMoment = (message: string) => badRequest(message, 'invalid_moment');

/**
 * Checks moments against the videos an artifact holds, reading a video's length when it is not
 * yet known (files stored before lengths were recorded).
 */
export function createMomentChecker(db: Queryable, store: MediaStore) {
  /** A video's length, probed and recorded once when it is missing. */
  async function durationOf(file: { id: number; fileName: string; duration: number | null }): Promise<number | null> {
    if (file.duration !== null) return file.duration;
    const probed = await store.probeDuration(file.fileName);
    if (probed !== null) await mediaRepository.setDuration(db, file.id, probed);
    return probed;
  }

  return {
    durationOf,

    /**
     * The stored form of a moment on a video that `holder` holds, with `0 ≤ start ≤ end ≤ length`.
     * @throws 400 (`invalid_moment`) for a file the artifact does not hold, not a video, a time past the end.
     */
    async check(holder: Holder, holderId: number, moment: { media: number; start: number; end?: number | null | undefined }): Promise<StoredMoment> {
      const file = await mediaRepository.findHeld(db, holder, holderId, moment.media);
      if (!file) throw invalidMoment(MOMENT_MESSAGES.notHeld);
      if (file.kind !== 'video') throw invalidMoment(MOMENT_MESSAGES.notVideo);
      const end = moment.end ?? null;
      if (!Number.isFinite(moment.start) || moment.start < 0 || (end !== null && !Number.isFinite(end))) throw invalidMoment('A time must be a number of seconds.');
      if (end !== null && end < moment.start) throw invalidMoment(MOMENT_MESSAGES.endBeforeStart);
      const duration = await durationOf(file);
      if (duration === null) throw invalidMoment(MOMENT_MESSAGES.unknownDuration);
      if (Math.max(moment.start, end ?? 0) > duration + END_TOLERANCE) throw invalidMoment(MOMENT_MESSAGES.pastEnd(duration));
      const clamp = (value: number) => Math.round(Math.min(value, duration) * 1000) / 1000;
      return { mediaId: file.id, start: clamp(moment.start), end: end === null ? null : clamp(end) };
    },
  };
}
export type MomentChecker = ReturnType<typeof createMomentChecker>;

/** The lines of a moments CSV (for `sendCsv`). */
export const MOMENTS_CSV_HEADER = ['comment id', 'author', 'start (seconds)', 'start', 'end (seconds)', 'end', 'text', 'created_at'] as const;

/** A video as one artifact holds it, for its caption tracks. */
interface HeldVideo {
  id: number;
  kind: 'image' | 'video' | 'document';
  name: string;
  fileName: string;
  duration: number | null;
  where: CaptionHolder;
  canEdit: boolean;
}

/** Private notes, caption tracks, alt text and the exports of moment comments. */
export function createMomentService(ctx: ServiceContext, moments: MomentChecker) {
  const { db } = ctx;

  /** The personal artifact and that `actor` owns it. @throws 404 (403 for researchers, who read but never change). */
  async function ownArtifact(actor: User, artifactId: number, write: boolean) {
    const record = await artifactRepository.findRecord(db, artifactId);
    if (!record) throw notFound(PORTFOLIO_MESSAGES.artifactNotFound);
    assertAllowed(write ? canWriteArtifact(actor, record) : canReadArtifact(actor, record));
    // Notes are the owner's alone: a researcher reading teacher portfolios does not see them.
    if (record.ownerId !== actor.id) throw notFound(PORTFOLIO_MESSAGES.artifactNotFound);
    return record;
  }

  async function ownNote(actor: User, id: number) {
    const note = await momentRepository.findNote(db, id);
    // Nobody but its owner learns that a note exists.
    if (!note || note.ownerId !== actor.id) throw notFound(MOMENT_MESSAGES.noteNotFound);
    const record = await artifactRepository.findRecord(db, note.artifact);
    if (!record || record.ownerId !== actor.id) throw notFound(MOMENT_MESSAGES.noteNotFound);
    return note;
  }

  /**
   * A video as one artifact holds it, with whether the caller may change that artifact's caption
   * tracks: a personal artifact's tracks only its owner (researchers read them); a shared copy's
   * tracks its portfolio's members and researchers (invitees read them), unless someone else
   * holds the copy's edit lock. @throws 404 / 403 / 423 / 400 (not a video).
   */
  async function heldVideo(actor: User, where: CaptionHolder, mediaId: number, edit: boolean): Promise<HeldVideo> {
    let canEdit: boolean;
    if (where.holder === 'artifact') {
      const record = await artifactRepository.findRecord(db, where.holderId);
      if (!record) throw notFound(PORTFOLIO_MESSAGES.artifactNotFound);
      assertAllowed(canReadArtifact(actor, record));
      canEdit = record.ownerId === actor.id;
    } else {
      const { artifact, sp } = await readableShared(actor, where.holderId);
      canEdit = isMember(actor, sp) || isResearcher(actor);
      if (edit && canEdit && artifact.lockedUntil && artifact.lockedUntil > new Date() && artifact.lockedBy && artifact.lockedBy.id !== actor.id) {
        throw new HttpError(423, 'locked', `This artifact is being edited by ${artifact.lockedBy.username}. Try again once they are done.`);
      }
    }
    const file = await mediaRepository.findHeld(db, where.holder, where.holderId, mediaId);
    if (!file) throw notFound(FILE_NOT_FOUND);
    if (edit && !canEdit) throw new HttpError(403, 'forbidden', 'You can read the captions of this video but not change them.');
    if (file.kind !== 'video') throw badRequest(MOMENT_MESSAGES.captionsOnVideos, 'not_a_video');
    return { ...file, where, canEdit };
  }

  /** A stored track and its video as its artifact holds it. @throws 404 (never telling a track exists), 403 / 423. */
  async function captionTrack(actor: User, id: number, edit: boolean) {
    const row = await momentRepository.findCaption(db, id);
    if (!row) throw notFound(MOMENT_MESSAGES.captionNotFound);
    try {
      return { row, video: await heldVideo(actor, holderOf(row), row.media_id, edit) };
    } catch (error) {
      if (error instanceof HttpError && error.statusCode === 404) throw notFound(MOMENT_MESSAGES.captionNotFound);
      if (error instanceof HttpError && error.statusCode === 403 && error.message.startsWith('You can read')) {
        throw new HttpError(403, 'forbidden', 'You can read these captions but not change them.');
      }
      throw error;
    }
  }

  /**
   * A track's size and its writer's room: at most 512 KiB as WebVTT (413), and its bytes within
   * the writer's storage quota, with her files (413; a track she replaces counts once).
   */
  async function checkRoom(tx: Queryable, actor: User, cues: readonly Cue[], replaced?: { created_by: number | null; bytes: number | string }): Promise<void> {
    if (Buffer.byteLength(serializeWebVtt(cues), 'utf8') > CAPTION_SOURCE_MAX_BYTES) throw tooLarge(MOMENT_MESSAGES.trackTooLarge);
    const quota = ctx.config.storageQuotaBytes;
    const freed = replaced && replaced.created_by === actor.id ? Number(replaced.bytes) : 0;
    // The person's uploads and caption writes are counted one at a time (as parallel uploads are).
    await mediaRepository.lockQuota(tx, actor.id);
    const used = await mediaRepository.bytesUploadedBy(tx, actor.id);
    if (used - freed + Buffer.byteLength(JSON.stringify(cues), 'utf8') > quota) throw new HttpError(413, 'storage_full', MOMENT_MESSAGES.quotaFull);
  }

  /** The owner of a shared copy hears when someone else changes its caption tracks. */
  async function recordEdit(tx: Queryable, actor: User, where: CaptionHolder): Promise<void> {
    if (where.holder === 'sharedArtifact') await notificationRepository.recordSnapshotEdited(tx, where.holderId, actor.id);
  }

  /**
   * A label no other track of the video in that artifact has: a second "English" in another
   * language tag is named after its tag ("English (en-GB)"), never "English / English".
   */
  function distinctLabel(label: string, language: string, others: readonly { label: string }[]): string {
    const taken = new Set(others.map((t) => t.label.toLowerCase()));
    if (!taken.has(label.toLowerCase())) return label;
    const named = `${label} (${language})`.slice(0, CAPTION_LABEL_MAX);
    if (!taken.has(named.toLowerCase())) return named;
    for (let n = 2; ; n += 1) {
      const numbered = `${label.slice(0, CAPTION_LABEL_MAX - 12)} (${language.slice(0, 6)} ${n})`;
      if (!taken.has(numbered.toLowerCase())) return numbered;
    }
  }

  /**
   * Cues checked against the video's length (when it can be read); with `clip` (an uploaded
   * file), cues past the end are fitted to it first and `notice` says so. @throws 400 with the first problem.
   */
  async function checkedCues(access: HeldVideo, parse: () => Cue[], clip = false): Promise<{ cues: Cue[]; notice: string | null }> {
    const duration = await moments.durationOf(access);
    try {
      const fitted = clip ? clipToDuration(parse(), duration) : { cues: parse(), notice: null };
      return { cues: checkCues(fitted.cues, duration), notice: fitted.notice };
    } catch (error) {
      if (error instanceof CaptionError) throw badRequest(error.message, 'invalid_captions');
      throw error;
    }
  }

  /** A shared artifact the caller may read (members, invitees, researchers). @throws 404. */
  async function readableShared(actor: User, id: number) {
    const artifact = await sharedArtifactRepository.findRecord(db, id);
    const sp = artifact ? await sharedPortfolioRepository.findById(db, artifact.sharedPortfolioId) : null;
    if (!artifact || !sp) throw notFound(SHARED_MESSAGES.artifactNotFound);
    const invitee = !isMember(actor, sp) && (await sharedPortfolioRepository.isInvitee(db, sp.id, actor.id));
    assertAllowed(canReadShared(actor, sp, invitee, SHARED_MESSAGES.artifactNotFound));
    return { artifact, sp };
  }

  return {
    // ---- Private notes --------------------------------------------------------------------

    /** `GET /artifacts/{id}/notes`: the owner's notes. @throws 404 for everyone else. */
    async notes(actor: User, artifactId: number): Promise<Note[]> {
      await ownArtifact(actor, artifactId, false);
      return momentRepository.notes(db, artifactId);
    },

    async addNote(actor: User, artifactId: number, body: NoteBody): Promise<Note> {
      await ownArtifact(actor, artifactId, true);
      const moment = await moments.check('artifact', artifactId, body);
      return db.transaction(async (tx) => {
        const totals = await momentRepository.lockNoteTotals(tx, artifactId, moment.mediaId);
        if (totals.count >= NOTES_PER_VIDEO) throw new HttpError(413, 'too_many_notes', MOMENT_MESSAGES.tooManyNotes);
        if (totals.chars + body.text.length > NOTE_CHARS_PER_VIDEO) throw new HttpError(413, 'notes_too_long', MOMENT_MESSAGES.notesTooLong);
        return momentRepository.addNote(tx, { artifactId, ownerId: actor.id, moment, text: body.text });
      });
    },

    async updateNote(actor: User, id: number, body: NoteUpdateBody): Promise<Note> {
      const note = await ownNote(actor, id);
      const start = body.start ?? note.start;
      const end = body.end === undefined ? note.end : body.end;
      const moment = await moments.check('artifact', note.artifact, { media: note.media, start, end });
      const text = body.text ?? note.text;
      return db.transaction(async (tx) => {
        const others = await momentRepository.lockNoteTotals(tx, note.artifact, note.media, id);
        if (text.length > note.text.length && others.chars + text.length > NOTE_CHARS_PER_VIDEO) throw new HttpError(413, 'notes_too_long', MOMENT_MESSAGES.notesTooLong);
        return momentRepository.updateNote(tx, id, { text, start: moment.start, end: moment.end });
      });
    },

    async deleteNote(actor: User, id: number): Promise<Note> {
      const { ownerId: _owner, ...note } = await ownNote(actor, id);
      await momentRepository.deleteNote(db, id);
      return note;
    },

    // ---- Captions -------------------------------------------------------------------------

    /** The tracks of a video as one artifact holds them. */
    async captions(actor: User, where: CaptionHolder, mediaId: number): Promise<CaptionTrackSummary[]> {
      const video = await heldVideo(actor, where, mediaId, false);
      return (await momentRepository.captions(db, where, mediaId)).map((row) => toCaptionSummary(row, video.canEdit));
    },

    /** `GET /captions/{id}`: one track with its cues (the caption editor loads it when it opens). */
    async caption(actor: User, id: number): Promise<CaptionTrack> {
      const { row, video } = await captionTrack(actor, id, false);
      return toCaptionTrack(row, video.canEdit);
    },

    /**
     * Adds a track to a video of one artifact from a WebVTT or SRT file's text. A track in the
     * same language replaces that one (its label and cues). @throws 413 over 512 KiB, 400 for
     * anything malformed (nothing stored).
     */
    async addCaptions(actor: User, where: CaptionHolder, mediaId: number, body: CaptionUploadBody): Promise<CaptionUploadResponse> {
      const video = await heldVideo(actor, where, mediaId, true);
      if (Buffer.byteLength(body.source, 'utf8') > CAPTION_SOURCE_MAX_BYTES) throw tooLarge(MOMENT_MESSAGES.captionTooLarge);
      const { cues, notice } = await checkedCues(video, () => (body.format === 'srt' ? parseSrt(body.source) : parseWebVtt(body.source)), true);
      const row = await db.transaction(async (tx) => {
        const tracks = await momentRepository.captions(tx, where, mediaId);
        const same = tracks.find((t) => t.language.toLowerCase() === body.language.toLowerCase());
        if (!same && tracks.length >= CAPTION_TRACKS_MAX) throw conflict(MOMENT_MESSAGES.tooManyTracks);
        await checkRoom(tx, actor, cues, same);
        const label = distinctLabel(body.label, body.language, tracks.filter((t) => t !== same));
        const saved = same
          ? await momentRepository.updateCaption(tx, same.id, { language: body.language, label, cues })
          : await momentRepository.addCaption(tx, { where, mediaId, language: body.language, label, cues, createdBy: actor.id });
        await recordEdit(tx, actor, where);
        return saved;
      });
      return { ...toCaptionTrack(row, true), notice };
    },

    /** Replaces a track's label, language and cues. @throws 409 when another track of the video has that language. */
    async updateCaptions(actor: User, id: number, body: CaptionUpdateBody): Promise<CaptionTrack> {
      const { row: track, video } = await captionTrack(actor, id, true);
      const { cues } = await checkedCues(video, () => body.cues.map((c) => ({ start: c.start, end: c.end, text: c.text })));
      const row = await db.transaction(async (tx) => {
        const others = (await momentRepository.captions(tx, video.where, track.media_id)).filter((t) => t.id !== id);
        if (others.some((t) => t.language.toLowerCase() === body.language.toLowerCase())) throw conflict(MOMENT_MESSAGES.captionLanguageTaken(body.language));
        await checkRoom(tx, actor, cues, { created_by: track.created_by, bytes: Buffer.byteLength(JSON.stringify(track.cues)) });
        const saved = await momentRepository.updateCaption(tx, id, { language: body.language, label: distinctLabel(body.label, body.language, others), cues });
        await recordEdit(tx, actor, video.where);
        return saved;
      });
      return toCaptionTrack(row, true);
    },

    async deleteCaptions(actor: User, id: number): Promise<CaptionTrack> {
      const { row, video } = await captionTrack(actor, id, true);
      await db.transaction(async (tx) => {
        await momentRepository.deleteCaption(tx, id);
        await recordEdit(tx, actor, video.where);
      });
      return toCaptionTrack(row, true);
    },

    /** A track as a WebVTT file, with a file name for downloads. */
    async captionFile(actor: User, id: number): Promise<{ text: string; fileName: string }> {
      const { row, video } = await captionTrack(actor, id, false);
      const base = video.name.replace(/\.[^.]*$/, '') || 'video';
      return { text: serializeWebVtt(row.cues), fileName: `${base}.${row.language}.vtt` };
    },

    // ---- Alt text and description ---------------------------------------------------------

    /** `PATCH /artifacts/{id}/media/{mediaId}`: the owner. */
    async setArtifactMediaText(actor: User, artifactId: number, mediaId: number, body: MediaTextBody): Promise<Media> {
      const record = await artifactRepository.findRecord(db, artifactId);
      if (!record) throw notFound(PORTFOLIO_MESSAGES.artifactNotFound);
      assertAllowed(canWriteArtifact(actor, record));
      return setText('artifact', artifactId, mediaId, body);
    },

    /** `PATCH /shared-artifacts/{id}/media/{mediaId}`: members and researchers, unless someone else holds the edit lock. */
    async setSharedMediaText(actor: User, sharedArtifactId: number, mediaId: number, body: MediaTextBody): Promise<Media> {
      const artifact = await sharedArtifactRepository.findRecord(db, sharedArtifactId);
      const sp = artifact ? await sharedPortfolioRepository.findById(db, artifact.sharedPortfolioId) : null;
      if (!artifact || !sp) throw notFound(SHARED_MESSAGES.artifactNotFound);
      assertAllowed(canWorkInShared(actor, sp, SHARED_MESSAGES.artifactNotFound));
      if (artifact.lockedUntil && artifact.lockedUntil > new Date() && artifact.lockedBy && artifact.lockedBy.id !== actor.id) {
        throw new HttpError(423, 'locked', `This artifact is being edited by ${artifact.lockedBy.username}. Try again once they are done.`);
      }
      return setText('sharedArtifact', sharedArtifactId, mediaId, body);
    },

    // ---- Exports ----------------------------------------------------------------------------

    /** The moment comments of one video of a shared artifact, for the CSV and WebVTT exports. */
    async momentComments(actor: User, sharedArtifactId: number, mediaId: number) {
      await readableShared(actor, sharedArtifactId);
      const file = await mediaRepository.findHeld(db, 'sharedArtifact', sharedArtifactId, mediaId);
      if (!file) throw notFound(FILE_NOT_FOUND);
      if (file.kind !== 'video') throw badRequest(MOMENT_MESSAGES.notVideo, 'not_a_video');
      const media = (await mediaRepository.findLinked(db, 'sharedArtifact', sharedArtifactId, mediaId))!;
      return { media, comments: await momentRepository.momentComments(db, sharedArtifactId, mediaId) };
    },
  };

  async function setText(holder: Holder, holderId: number, mediaId: number, body: MediaTextBody): Promise<Media> {
    const text = {
      ...(body.alt === undefined ? {} : { alt: body.alt.trim() }),
      ...(body.description === undefined ? {} : { description: body.description.trim() }),
    };
    if (!(await mediaRepository.setText(db, holder, holderId, mediaId, text))) throw notFound(MOMENT_MESSAGES.mediaNotHeld);
    return (await mediaRepository.findLinked(db, holder, holderId, mediaId))!;
  }
}

export type MomentService = ReturnType<typeof createMomentService>;

/** The rows of a moments CSV: times as seconds and as `HH:MM:SS.mmm`, dates in ISO UTC. */
export async function* momentCsvRows(comments: readonly { id: number; author: string; start: number; end: number | null; text: string; createdAt: Date }[]) {
  for (const c of comments) {
    yield [c.id, c.author, c.start, vttTime(c.start), c.end ?? '', c.end === null ? '' : vttTime(c.end), c.text, c.createdAt.toISOString()] as const;
  }
}

/** The moment comments as a WebVTT file: each comment a cue (a time without an end lasts four seconds). */
export function momentsVtt(title: string, comments: readonly { author: string; start: number; end: number | null; text: string }[]): string {
  const cues = comments.map((c) => ({
    start: c.start,
    end: c.end !== null && c.end > c.start ? c.end : c.start + MOMENT_CUE_SECONDS,
    text: `<v ${escapeCueText(c.author)}>${escapeCueText(c.text)}`,
  }));
  return serializeWebVtt(cues, title);
}

