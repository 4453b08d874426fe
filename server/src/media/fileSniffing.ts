import { open } from 'node:fs/promises';
import path from 'node:path';
import type { fileTypeFromFile } from 'file-type';
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

let fileTypeModule: Promise<typeof fileTypeFromFile> | undefined;
const loadFileType = () => (fileTypeModule ??= import('file-type').then((module) => module.fileTypeFromFile));

/** The type an upload really has, from its bytes (and, for documents, its extension). @throws 400 (`wrong_file_type`). */
export async function sniffFile(file: string, name: string, kind: MediaKind): Promise<{ mime: string; ext: string }> {
  const detected = await (await loadFileType())(file);
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
  if (textMime && (await looksLikeText(file))) return { mime: `${textMime}; charset=utf-8`, ext };
  return { mime: 'application/octet-stream', ext: own || '.bin' };
}

export function cleanFileName(name: string): string {
  // Bidirectional controls are kept visible and inert, so that every client shows the name as it is.
  const base = neutraliseBidi(path.basename(name.replace(/\\/g, '/')).replace(/\p{Cc}/gu, '')).trim();
  return (base || 'file').slice(0, 255);
}

async function looksLikeText(file: string): Promise<boolean> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(65536);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    const sample = buffer.subarray(0, bytesRead);
    if (sample.includes(0)) return false;
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(
        bytesRead === buffer.length ? sample.subarray(0, bytesRead - 4) : sample,
      );
      return true;
    } catch {
      return false;
    }
  } finally {
    await handle.close();
  }
}
