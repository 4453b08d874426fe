import path from 'node:path';
import type { fileTypeFromBuffer } from 'file-type';
import type { MediaKind } from '#schemas/media';
import { badRequest } from '../errors.ts';
import { neutraliseBidi } from '../http/fileNames.ts';

const IMAGE_MIMES = new Set([
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/webp',
  'image/avif',
  'image/heic',
  'image/heif',
  'image/tiff',
  'image/bmp',
]);
/** Extensions for the document types the portal names in its answers (anything else keeps its own). */
const DOCUMENT_EXTENSIONS: Record<string, string> = {
  'application/x-cfb': '',
  'application/zip': '.zip',
};
/** Old Office files are all "x-cfb" containers; their extension tells which. */
const CFB_TYPES: Record<string, string> = {
  '.doc': 'application/msword',
  '.xls': 'application/vnd.ms-excel',
  '.ppt': 'application/vnd.ms-powerpoint',
};
const TEXT_TYPES: Record<string, string> = {
  '.txt': 'text/plain',
  '.csv': 'text/csv',
  '.tsv': 'text/tab-separated-values',
  '.md': 'text/markdown',
};

const KIND_WORD = { images: 'an image', videos: 'a video', documents: 'a document' } as const;
const KIND_HINT = {
  images: 'Upload photos as JPEG, PNG, GIF, WebP or HEIC.',
  videos: 'Upload videos as MP4, MOV, WebM or another common video format.',
  documents: 'Any file can be uploaded as a document.',
} as const;

let fileTypeModule: Promise<typeof fileTypeFromBuffer> | undefined;
const loadFileType = () => (fileTypeModule ??= import('file-type').then((module) => module.fileTypeFromBuffer));

/**
 * How much of an upload's start its type is told from (held in memory until then): file-type
 * reads about 4 KiB (a ZIP's first entries for Office files), a text file is checked on this much.
 */
export const SNIFF_BYTES = 16 * 1024;

/**
 * The type an upload really has, from its first bytes (`head`, up to `SNIFF_BYTES`) and, for
 * documents, its extension. @throws 400 (`wrong_file_type`).
 */
export async function sniffHead(head: Buffer, name: string, kind: MediaKind): Promise<{ mime: string; ext: string }> {
  const detected = await (await loadFileType())(head);
  const ext = path.extname(name).toLowerCase();
  const refuse = (what: string) =>
    badRequest(`This file is ${what}, not ${KIND_WORD[kind]}. ${KIND_HINT[kind]}`, 'wrong_file_type');
  const describe = (mime: string | undefined) =>
    mime?.startsWith('image/')
      ? 'an image'
      : mime?.startsWith('video/')
        ? 'a video'
        : mime
          ? `of type ${mime}`
          : 'of an unknown type';
  if (kind === 'images') {
    if (detected && IMAGE_MIMES.has(detected.mime)) return { mime: detected.mime, ext: `.${detected.ext}` };
    throw refuse(describe(detected?.mime));
  }
  if (kind === 'videos') {
    if (detected && detected.mime.startsWith('video/')) return { mime: detected.mime, ext: `.${detected.ext}` };
    throw refuse(describe(detected?.mime));
  }
  // Documents may be of any type (the mobile apps' picker allows any file): they are kept as
  // they are and always served as attachments with a neutral type, so none runs in the browser.
  const own = /^\.[a-z0-9]{1,5}$/.test(ext) ? ext : '';
  if (detected?.mime === 'application/x-cfb' && CFB_TYPES[ext]) return { mime: CFB_TYPES[ext]!, ext };
  if (detected)
    return { mime: detected.mime, ext: own || (DOCUMENT_EXTENSIONS[detected.mime] ?? `.${detected.ext}`) || '.bin' };
  const textMime = TEXT_TYPES[ext];
  if (textMime && looksLikeText(head)) return { mime: `${textMime}; charset=utf-8`, ext };
  return { mime: 'application/octet-stream', ext: own || '.bin' };
}

export function cleanFileName(name: string): string {
  // Bidirectional controls are kept visible and inert, so that every client shows the name as it is.
  const base = neutraliseBidi(path.basename(name.replace(/\\/g, '/')).replace(/\p{Cc}/gu, '')).trim();
  return (base || 'file').slice(0, 255);
}

/** Whether the start of a file reads as UTF-8 text (a character cut at the end of the sample is allowed). */
function looksLikeText(head: Buffer): boolean {
  const sample = head.subarray(0, SNIFF_BYTES);
  if (sample.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(
      sample.length >= SNIFF_BYTES ? sample.subarray(0, sample.length - 4) : sample,
    );
    return true;
  } catch {
    return false;
  }
}
