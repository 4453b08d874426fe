import { formatClock } from '#schemas/formatting';
import { CAPTION_TRACKS_MAX } from '#schemas/moments';
import type { Queryable } from '../db/client.ts';
import { badRequest } from '../errors.ts';
import { END_TOLERANCE } from '../media/captions.ts';
import type { MediaStore } from '../media/mediaStore.ts';
import { mediaRepository, type Holder } from '../repositories/mediaRepository.ts';
import type { StoredMoment } from '../repositories/momentRepository.ts';

/** Private notes per video of an artifact, and their characters in all (decision 017). */
export const NOTES_PER_VIDEO = 100;
export const NOTE_CHARS_PER_VIDEO = 100_000;

export const MOMENT_MESSAGES = {
  notHeld: 'This video is not part of this artifact.',
  notVideo: 'A moment can be placed only on a video, not on an image or a document.',
  unknownDuration: 'The length of this video could not be read, so nothing can be placed at a moment of it.',
  pastEnd: (duration: number) =>
    `The moment is past the end of the video (${formatClock(duration, { milliseconds: true })}).`,
  endBeforeStart: 'The end of a moment cannot be before its start.',
  noteNotFound: 'Note not found.',
  captionNotFound: 'Caption track not found.',
  captionLanguageTaken: (language: string) =>
    `This video already has a caption track in ${language}. Change that track, or choose another language.`,
  captionsOnVideos: 'Captions can be added only to videos.',
  captionTooLarge: 'A caption file can be at most 512 KiB.',
  trackTooLarge: 'A caption track can be at most 512 KiB as a WebVTT file. Split it, or shorten its captions.',
  tooManyTracks: `A video can have at most ${CAPTION_TRACKS_MAX} caption tracks. Delete one before adding another.`,
  quotaFull:
    'These captions would take more than your storage limit. Remove files you no longer need, or ask a researcher for more room.',
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
    async check(
      holder: Holder,
      holderId: number,
      moment: { media: number; start: number; end?: number | null | undefined },
    ): Promise<StoredMoment> {
      const file = await mediaRepository.findHeld(db, holder, holderId, moment.media);
      if (!file) throw invalidMoment(MOMENT_MESSAGES.notHeld);
      if (file.kind !== 'video') throw invalidMoment(MOMENT_MESSAGES.notVideo);
      const end = moment.end ?? null;
      if (!Number.isFinite(moment.start) || moment.start < 0 || (end !== null && !Number.isFinite(end)))
        throw invalidMoment('A time must be a number of seconds.');
      if (end !== null && end < moment.start) throw invalidMoment(MOMENT_MESSAGES.endBeforeStart);
      const duration = await durationOf(file);
      if (duration === null) throw invalidMoment(MOMENT_MESSAGES.unknownDuration);
      if (Math.max(moment.start, end ?? 0) > duration + END_TOLERANCE)
        throw invalidMoment(MOMENT_MESSAGES.pastEnd(duration));
      const clamp = (value: number) => Math.round(Math.min(value, duration) * 1000) / 1000;
      return { mediaId: file.id, start: clamp(moment.start), end: end === null ? null : clamp(end) };
    },
  };
}
export type MomentChecker = ReturnType<typeof createMomentChecker>;
