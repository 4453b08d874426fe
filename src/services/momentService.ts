import { MediaSchema, type Media } from '../schemas/media.ts';
import {
  CaptionTrackListSchema,
  CaptionTrackSchema,
  CaptionUploadResponseSchema,
  NoteListSchema,
  NoteSchema,
  type CaptionTrack,
  type CaptionTrackSummary,
  type CaptionUpdateBody,
  type CaptionUploadBody,
  type CaptionUploadResponse,
  type MediaTextBody,
  type MomentBody,
  type Note,
  type NoteBody,
} from '../schemas/moments.ts';
import { CommentResponseSchema, ReactionSchema, type Reaction } from '../schemas/sharedArtifact.ts';
import { api, apiBase } from './api.ts';

const withSignal = (signal?: AbortSignal) => (signal ? { signal } : {});

/**
 * Adds a comment at a moment of a video of a shared artifact.
 * @throws ApiError (400 with the server's message for a bad moment), NetworkError or ContractError.
 */
export function addMomentComment(sharedArtifact: number, text: string, moment: MomentBody, signal?: AbortSignal) {
  return api().request({
    method: 'POST',
    path: '/comments',
    body: { text, sharedArtifact, moment },
    schema: CommentResponseSchema,
    ...withSignal(signal),
  });
}

/**
 * Places my reaction at a moment of a video of a shared artifact.
 * @throws ApiError, NetworkError or ContractError.
 */
export function addMomentReaction(
  sharedArtifact: number,
  value: string,
  moment: MomentBody,
  signal?: AbortSignal,
): Promise<Reaction> {
  return api().request({
    method: 'POST',
    path: '/reactions',
    body: { sharedArtifact, value, moment },
    schema: ReactionSchema,
    ...withSignal(signal),
  });
}

/**
 * My private notes on the videos of my artifact, by video then time.
 * @throws ApiError (404: not my artifact), NetworkError or ContractError.
 */
export function listNotes(artifactId: number, signal?: AbortSignal): Promise<Note[]> {
  return api().request({
    method: 'GET',
    path: `/artifacts/${artifactId}/notes`,
    schema: NoteListSchema,
    ...withSignal(signal),
  });
}

/**
 * Adds a private note at a moment of a video of my artifact.
 * @throws ApiError, NetworkError or ContractError.
 */
export function addNote(artifactId: number, body: NoteBody, signal?: AbortSignal): Promise<Note> {
  return api().request({
    method: 'POST',
    path: `/artifacts/${artifactId}/notes`,
    body,
    schema: NoteSchema,
    ...withSignal(signal),
  });
}

/**
 * Deletes one of my private notes.
 * @throws ApiError, NetworkError or ContractError.
 */
export function deleteNote(noteId: number, signal?: AbortSignal): Promise<Note> {
  return api().request({
    method: 'DELETE',
    path: `/artifact-notes/${noteId}`,
    schema: NoteSchema,
    ...withSignal(signal),
  });
}

/** Where a file's alt text, description and caption tracks are kept: a personal artifact or a shared one. */
export type MediaHolder = { kind: 'artifact' | 'sharedArtifact'; artifactId: number };

const holderPath = (holder: MediaHolder, mediaId: number) =>
  `/${holder.kind === 'artifact' ? 'artifacts' : 'shared-artifacts'}/${holder.artifactId}/media/${mediaId}`;

/**
 * The caption tracks of a video as one artifact holds them (each artifact and shared copy has its own).
 * @throws ApiError, NetworkError or ContractError.
 */
export function listCaptions(
  holder: MediaHolder,
  mediaId: number,
  signal?: AbortSignal,
): Promise<CaptionTrackSummary[]> {
  return api().request({
    method: 'GET',
    path: `${holderPath(holder, mediaId)}/captions`,
    schema: CaptionTrackListSchema,
    ...withSignal(signal),
  });
}

/**
 * Adds a caption track from the text of a WebVTT or SRT file.
 * @throws ApiError (400 with the server's message for a malformed or unsafe file), NetworkError or ContractError.
 */
export function uploadCaptions(
  holder: MediaHolder,
  mediaId: number,
  body: CaptionUploadBody,
  signal?: AbortSignal,
): Promise<CaptionUploadResponse> {
  return api().request({
    method: 'POST',
    path: `${holderPath(holder, mediaId)}/captions`,
    body,
    schema: CaptionUploadResponseSchema,
    ...withSignal(signal),
  });
}

/**
 * One caption track with its cues (a video's list comes without them).
 * @throws ApiError, NetworkError or ContractError.
 */
export function loadCaptions(trackId: number, signal?: AbortSignal): Promise<CaptionTrack> {
  return api().request({
    method: 'GET',
    path: `/captions/${trackId}`,
    schema: CaptionTrackSchema,
    ...withSignal(signal),
  });
}

/**
 * Replaces a caption track's label, language and cues.
 * @throws ApiError, NetworkError or ContractError.
 */
export function saveCaptions(trackId: number, body: CaptionUpdateBody, signal?: AbortSignal): Promise<CaptionTrack> {
  return api().request({
    method: 'PUT',
    path: `/captions/${trackId}`,
    body,
    schema: CaptionTrackSchema,
    ...withSignal(signal),
  });
}

/** The absolute address of a caption track's WebVTT file (`download`: as an attachment). */
export function captionFileUrl(track: Pick<CaptionTrack, 'url'>, download = false): string {
  return `${apiBase()}${track.url}${download ? '?download=1' : ''}`;
}

/** The address of the export of a video's comments at moments: CSV, or WebVTT with each comment a cue. */
export function momentsExportUrl(sharedArtifactId: number, mediaId: number, format: 'csv' | 'vtt'): string {
  return `${apiBase()}/shared-artifacts/${sharedArtifactId}/media/${mediaId}/moments.${format}`;
}

/**
 * Changes the alt text and description of a file as an artifact holds it.
 * @throws ApiError, NetworkError or ContractError.
 */
export function saveMediaText(
  holder: MediaHolder,
  mediaId: number,
  body: MediaTextBody,
  signal?: AbortSignal,
): Promise<Media> {
  return api().request({
    method: 'PATCH',
    path: holderPath(holder, mediaId),
    body,
    schema: MediaSchema,
    ...withSignal(signal),
  });
}
