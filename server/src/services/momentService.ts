import type { Media } from '#schemas/media';
import type {
  CaptionTrack,
  CaptionTrackSummary,
  CaptionUpdateBody,
  CaptionUploadResponse,
  CaptionUploadBody,
  MediaTextBody,
  Note,
  NoteBody,
  NoteUpdateBody,
} from '#schemas/moments';
import { CAPTION_SOURCE_MAX_BYTES, CAPTION_TRACKS_MAX } from '#schemas/moments';
import type { User } from '#schemas/user';
import { badRequest, conflict, HttpError, notFound, tooLarge } from '../errors.ts';
import { parseSrt, parseWebVtt, serializeWebVtt } from '../media/captions.ts';
import { canReadArtifact, canWriteArtifact, PORTFOLIO_MESSAGES } from '../policies/portfolioPolicy.ts';
import { canWorkInShared, SHARED_MESSAGES } from '../policies/sharedPolicy.ts';
import { artifactRepository } from '../repositories/artifactRepository.ts';
import { mediaRepository, type Holder } from '../repositories/mediaRepository.ts';
import {
  momentRepository,
  toCaptionSummary,
  toCaptionTrack,
  type CaptionHolder,
} from '../repositories/momentRepository.ts';
import { sharedArtifactRepository } from '../repositories/sharedArtifactRepository.ts';
import { sharedPortfolioRepository } from '../repositories/sharedPortfolioRepository.ts';
import type { ServiceContext } from './context.ts';
import { assertAllowed } from './decide.ts';
import { createCaptionAccess, distinctLabel } from './captionAccess.ts';
import { FILE_NOT_FOUND } from './mediaService.ts';
import { MOMENT_MESSAGES, NOTE_CHARS_PER_VIDEO, NOTES_PER_VIDEO, type MomentChecker } from './momentChecker.ts';

export { createMomentChecker, MOMENT_MESSAGES, type MomentChecker } from './momentChecker.ts';
export { MOMENTS_CSV_HEADER, momentCsvRows, momentsVtt } from './momentExports.ts';

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

  const { heldVideo, captionTrack, checkRoom, recordEdit, checkedCues, readableShared } = createCaptionAccess(
    ctx,
    moments,
  );

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
        if (totals.chars + body.text.length > NOTE_CHARS_PER_VIDEO)
          throw new HttpError(413, 'notes_too_long', MOMENT_MESSAGES.notesTooLong);
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
        if (text.length > note.text.length && others.chars + text.length > NOTE_CHARS_PER_VIDEO)
          throw new HttpError(413, 'notes_too_long', MOMENT_MESSAGES.notesTooLong);
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
    async addCaptions(
      actor: User,
      where: CaptionHolder,
      mediaId: number,
      body: CaptionUploadBody,
    ): Promise<CaptionUploadResponse> {
      const video = await heldVideo(actor, where, mediaId, true);
      if (Buffer.byteLength(body.source, 'utf8') > CAPTION_SOURCE_MAX_BYTES)
        throw tooLarge(MOMENT_MESSAGES.captionTooLarge);
      const { cues, notice } = await checkedCues(
        video,
        () => (body.format === 'srt' ? parseSrt(body.source) : parseWebVtt(body.source)),
        true,
      );
      const row = await db.transaction(async (tx) => {
        const tracks = await momentRepository.captions(tx, where, mediaId);
        const same = tracks.find((t) => t.language.toLowerCase() === body.language.toLowerCase());
        if (!same && tracks.length >= CAPTION_TRACKS_MAX) throw conflict(MOMENT_MESSAGES.tooManyTracks);
        await checkRoom(tx, actor, cues, same);
        const label = distinctLabel(
          body.label,
          body.language,
          tracks.filter((t) => t !== same),
        );
        const saved = same
          ? await momentRepository.updateCaption(tx, same.id, { language: body.language, label, cues })
          : await momentRepository.addCaption(tx, {
              where,
              mediaId,
              language: body.language,
              label,
              cues,
              createdBy: actor.id,
            });
        await recordEdit(tx, actor, where);
        return saved;
      });
      return { ...toCaptionTrack(row, true), notice };
    },

    /** Replaces a track's label, language and cues. @throws 409 when another track of the video has that language. */
    async updateCaptions(actor: User, id: number, body: CaptionUpdateBody): Promise<CaptionTrack> {
      const { row: track, video } = await captionTrack(actor, id, true);
      const { cues } = await checkedCues(video, () =>
        body.cues.map((c) => ({ start: c.start, end: c.end, text: c.text })),
      );
      const row = await db.transaction(async (tx) => {
        const others = (await momentRepository.captions(tx, video.where, track.media_id)).filter((t) => t.id !== id);
        if (others.some((t) => t.language.toLowerCase() === body.language.toLowerCase()))
          throw conflict(MOMENT_MESSAGES.captionLanguageTaken(body.language));
        await checkRoom(tx, actor, cues, {
          created_by: track.created_by,
          bytes: Buffer.byteLength(JSON.stringify(track.cues)),
        });
        const saved = await momentRepository.updateCaption(tx, id, {
          language: body.language,
          label: distinctLabel(body.label, body.language, others),
          cues,
        });
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
    async setSharedMediaText(
      actor: User,
      sharedArtifactId: number,
      mediaId: number,
      body: MediaTextBody,
    ): Promise<Media> {
      const artifact = await sharedArtifactRepository.findRecord(db, sharedArtifactId);
      const sp = artifact ? await sharedPortfolioRepository.findById(db, artifact.sharedPortfolioId) : null;
      if (!artifact || !sp) throw notFound(SHARED_MESSAGES.artifactNotFound);
      assertAllowed(canWorkInShared(actor, sp, SHARED_MESSAGES.artifactNotFound));
      if (
        artifact.lockedUntil &&
        artifact.lockedUntil > new Date() &&
        artifact.lockedBy &&
        artifact.lockedBy.id !== actor.id
      ) {
        throw new HttpError(
          423,
          'locked',
          `This artifact is being edited by ${artifact.lockedBy.username}. Try again once they are done.`,
        );
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
    if (!(await mediaRepository.setText(db, holder, holderId, mediaId, text)))
      throw notFound(MOMENT_MESSAGES.mediaNotHeld);
    return (await mediaRepository.findLinked(db, holder, holderId, mediaId))!;
  }
}
