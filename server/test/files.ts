import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';

/** A real PNG image of the given size. */
export function pngImage(width = 640, height = 480): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 40, g: 120, b: 200 } } })
    .png()
    .toBuffer();
}

/** A real JPEG image. */
export function jpegImage(width = 800, height = 600): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 80, b: 40 } } })
    .jpeg()
    .toBuffer();
}

/** A minimal valid PDF. */
export function pdfDocument(): Buffer {
  return Buffer.from(
    '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
  );
}

/** One part of a multipart body: a file (with `filename`) or a plain field. */
export type Part =
  { field: string; filename: string; content: Buffer; contentType?: string } | { field: string; value: string };

/** A multipart/form-data body with any parts, in order. */
export function multipartParts(parts: readonly Part[]) {
  const boundary = `----pf${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    if ('value' in part) {
      chunks.push(
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part.field}"\r\n\r\n${part.value}\r\n`),
      );
    } else {
      chunks.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${part.field}"; filename="${part.filename}"\r\nContent-Type: ${part.contentType ?? 'application/octet-stream'}\r\n\r\n`,
        ),
        part.content,
        Buffer.from('\r\n'),
      );
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** A multipart/form-data body with one file part. */
export function multipart(field: string, filename: string, content: Buffer, contentType = 'application/octet-stream') {
  return multipartParts([{ field, filename, content, contentType }]);
}

/** The 24-byte `ftyp` box of an MP4 file: enough for a sniffer to say video/mp4. */
const mp4Ftyp = () =>
  Buffer.concat([
    Buffer.from([0, 0, 0, 0x18]),
    Buffer.from('ftypisom'),
    Buffer.from([0, 0, 2, 0]),
    Buffer.from('isomiso2'),
  ]);

/** The first bytes of an MP4 file (`ftyp` box and an empty `mdat`): sniffed as video/mp4, but no decodable frame. */
export function mp4Header(): Buffer {
  const mdat = Buffer.concat([Buffer.from([0, 0, 0, 0x10]), Buffer.from('mdat'), Buffer.alloc(8, 1)]);
  return Buffer.concat([mp4Ftyp(), mdat]);
}

/** A 24-byte `ftyp` box followed by a web page with a script: sniffed as video/mp4, read by ffprobe as nothing. */
export const ftypThenHtml = () => Buffer.concat([mp4Ftyp(), htmlPage()]);

/** The first bytes of a HEIC photo (`ftyp` box of brand `heic`): sniffed as image/heic, with no picture this server can decode. */
export function heicHeader(): Buffer {
  const ftyp = Buffer.concat([
    Buffer.from([0, 0, 0, 0x18]),
    Buffer.from('ftypheic'),
    Buffer.from([0, 0, 0, 0]),
    Buffer.from('mif1heic'),
  ]);
  const mdat = Buffer.concat([Buffer.from([0, 0, 0, 0x10]), Buffer.from('mdat'), Buffer.alloc(8, 7)]);
  return Buffer.concat([ftyp, mdat]);
}

let madeVideo: Buffer | undefined;

/** A real 2-second 320×240 MP4 made by Debian's ffmpeg (`/usr/bin/ffmpeg`), once per test file. */
export function ffmpegVideo(): Buffer {
  madeVideo ??= makeVideo(
    ['-f', 'lavfi', '-i', 'testsrc=duration=2:size=320x240:rate=10', '-pix_fmt', 'yuv420p'],
    'mp4',
  );
  return Buffer.from(madeVideo);
}

/**
 * A real WebM (VP8, 10 frames a second, the ffmpeg test pattern) made by Debian's ffmpeg
 * (`FFMPEG_PATH` or the one on the path): 2 seconds of 160×120 at 100 kbit/s unless told otherwise.
 */
export function ffmpegWebm({ seconds = 2, size = '160x120', kbps = 100 } = {}): Buffer {
  return makeVideo(
    ['-f', 'lavfi', '-i', `testsrc=duration=${seconds}:size=${size}:rate=10`, '-c:v', 'libvpx', '-b:v', `${kbps}k`],
    'webm',
  );
}

function makeVideo(args: string[], ext: string): Buffer {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pf-video-'));
  try {
    const out = path.join(dir, `out.${ext}`);
    execFileSync(process.env['FFMPEG_PATH'] ?? 'ffmpeg', ['-hide_banner', '-loglevel', 'error', ...args, out]);
    return readFileSync(out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The header of an MP4 `free` box of `size` bytes in all (its content follows; players skip it). */
export function freeBoxHeader(size: number): Buffer {
  const header = Buffer.alloc(8);
  header.writeUInt32BE(size, 0);
  header.write('free', 4, 'latin1');
  return header;
}

/** A real MP4 grown to `size` bytes by a `free` box of incompressible filler: still a valid video. */
export function paddedVideo(size: number): Buffer {
  const video = ffmpegVideo();
  const filler = size - video.length;
  return Buffer.concat([video, freeBoxHeader(filler), randomBytes(filler - 8)]);
}

/** An SVG image with a script in it. */
export const svgImage = () =>
  Buffer.from(
    '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script><rect width="10" height="10"/></svg>\n',
  );

/** An HTML page with a script in it. */
export const htmlPage = () =>
  Buffer.from('<!doctype html>\n<html><body><script>alert(document.cookie)</script></body></html>\n');
