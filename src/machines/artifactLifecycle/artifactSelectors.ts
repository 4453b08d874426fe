/**
 * Pure helpers about artifacts that views and machines share: the title, the questions the
 * header shows, and the addresses of an artifact's files (views never call services, so they
 * get file addresses from here).
 */
import type { Artifact } from '../../schemas/artifact.ts';
import { UNNAMED_ARTIFACT } from '../../schemas/catalog.ts';
import type { Media, MediaKind } from '../../schemas/media.ts';
import type { SharedArtifactDetail } from '../../schemas/sharedArtifact.ts';
import { RESERVED_KEYS, type Question, type Responses, type Structure } from '../../schemas/structure.ts';
import { mediaUrl } from '../../services/mediaService.ts';

/** A personal artifact (in a portfolio) or a shared one (in a shared portfolio). */
export type ArtifactKind = 'personal' | 'shared';

/** An artifact the edit page edits: a personal one, or a shared one with its comments and reactions. */
export type EditableArtifact = Artifact | SharedArtifactDetail;

/** The portfolio an artifact belongs to (for a shared artifact, its shared portfolio). */
export function portfolioIdOf(artifact: EditableArtifact): number {
  return 'sharedPortfolio' in artifact ? artifact.sharedPortfolio.id : artifact.portfolio.id;
}

/** Whether a shared artifact has comments or reactions (it can then not be deleted); personal ones never do. */
export function hasActivity(artifact: EditableArtifact): boolean {
  return (
    'sharedPortfolio' in artifact &&
    (artifact.comments.length > 0 || artifact.commentCount > 0 || artifact.reactions.length > 0)
  );
}

/** The title of an artifact: its name, or '(Unnamed)'. */
export function artifactTitle(responses: Responses): string {
  const name = responses[RESERVED_KEYS.title];
  return typeof name === 'string' && name.trim() !== '' ? name : UNNAMED_ARTIFACT;
}

/** Keys shown in an artifact's header or media area rather than as a question. */
const HEADER_KEYS: ReadonlySet<string> = new Set([
  RESERVED_KEYS.title,
  RESERVED_KEYS.unitTiming,
  RESERVED_KEYS.unitDay,
  RESERVED_KEYS.uploads,
]);

/** Whether a question is answered with files (the uploads area) rather than a response. */
export const isFileQuestion = (q: Question): boolean => q.type === 'fileUpload' || q.key === RESERVED_KEYS.uploads;

/**
 * The questions of a structure as an artifact page lays them out: the header ones (title, unit
 * timing, unit day), the file question, then the rest in order, template questions before the
 * team (bonus) questions of a shared portfolio.
 */
export function layoutQuestions(structure: Structure): {
  title: Question | null;
  unitTiming: Question | null;
  unitDay: Question | null;
  files: Question | null;
  main: Question[];
  bonus: Question[];
} {
  const byKey = (key: string) => structure.find((q) => q.key === key) ?? null;
  const rest = structure.filter((q) => !HEADER_KEYS.has(q.key) && !isFileQuestion(q));
  return {
    title: byKey(RESERVED_KEYS.title),
    unitTiming: byKey(RESERVED_KEYS.unitTiming),
    unitDay: byKey(RESERVED_KEYS.unitDay),
    files: structure.find(isFileQuestion) ?? null,
    main: rest.filter((q) => !q.bonus),
    bonus: rest.filter((q) => q.bonus === true),
  };
}

/** The absolute address of a stored file (its url is a capability: no session needed). */
export const fileSource = (url: string): string => mediaUrl(url);

/** The picture to show for a file: an image's thumbnail (or the image), a video's poster; `null` otherwise. */
export function previewSource(media: Pick<Media, 'url' | 'formats' | 'mime'>, kind: MediaKind): string | null {
  const thumbnail = media.formats?.thumbnail?.url;
  if (thumbnail) return mediaUrl(thumbnail);
  return kind === 'images' ? mediaUrl(media.url) : null;
}

/** A video's poster frame at the largest size the server made; `null` without one. */
export function posterSource(media: Pick<Media, 'formats'>): string | null {
  const url = media.formats?.large?.url ?? media.formats?.medium?.url ?? media.formats?.thumbnail?.url;
  return url ? mediaUrl(url) : null;
}

const KIND_MIME = /^(image|video)\//;

/**
 * A file as people name it: its name without the extension, `-`, `_` and `.` read as spaces
 * ('classroom-clip.webm' → 'classroom clip'); a document keeps its type ('lesson plan (PDF)'),
 * since its tile shows only an icon. Not the upload letter ('B. classroom-clip.webm'): the letter
 * is the mobile apps' order, not a name.
 */
export function mediaLabel(media: Pick<Media, 'name' | 'mime'>): string {
  const dot = media.name.lastIndexOf('.');
  const stem = dot > 0 ? media.name.slice(0, dot) : media.name;
  const extension = dot > 0 ? media.name.slice(dot + 1) : '';
  const words =
    stem
      .replace(/[-_.]+/g, ' ')
      .replace(/\s+/g, ' ')
      .trim() ||
    media.name.trim() ||
    'Untitled file';
  return !KIND_MIME.test(media.mime) && /^[a-z0-9]{1,5}$/i.test(extension)
    ? `${words} (${extension.toUpperCase()})`
    : words;
}

/** One of an artifact's videos, numbered where it has several: 'Video 2 — classroom clip' ('classroom clip' alone). */
export function videoLabel(
  video: Pick<Media, 'id' | 'name' | 'mime'>,
  videos: readonly Pick<Media, 'id' | 'caption'>[],
): string {
  const index = [...videos].sort(byCaption).findIndex((v) => v.id === video.id);
  return videos.length > 1 && index >= 0 ? `Video ${index + 1} — ${mediaLabel(video)}` : mediaLabel(video);
}

/** Caption order: A … Z, AA … (shorter first, then alphabetical). */
export function byCaption(a: Pick<Media, 'caption'>, b: Pick<Media, 'caption'>): number {
  return a.caption.length - b.caption.length || a.caption.localeCompare(b.caption);
}
