import { execFile } from 'node:child_process';
import { HttpError, badRequest } from '../errors.ts';

/* ffmpeg and ffprobe on untrusted videos: their bounds, ffmpeg's report, ffprobe's check of an upload. */

/** How much of ffmpeg's report is read (characters). */
export const FFMPEG_REPORT_MAX = 64 * 1024;

/**
 * The input's length in ffmpeg's report: the `  Duration: HH:MM:SS.ss` line of the input header
 * (indented by exactly two spaces, so no metadata value can pose as it); `null` for `N/A` or none.
 */
export function parseFfmpegDuration(report: string): number | null {
  const match = /^ {2}Duration: (\d{1,3}):([0-5]\d):([0-5]\d(?:\.\d{1,6})?)\b/m.exec(report);
  if (!match) return null;
  const seconds = Number(match[1]) * 3600 + Number(match[2]) * 60 + Number(match[3]);
  return Number.isFinite(seconds) ? Math.round(seconds * 1000) / 1000 : null;
}

/** ffmpeg's bounds: address space (KiB) and CPU seconds. */
export const FFMPEG_MEMORY_KIB = 1024 * 1024;
export const FFMPEG_CPU_SECONDS = 60;

/** How long ffprobe may take to read a file's header before the file counts as unreadable. */
export const FFPROBE_TIMEOUT_MS = 30_000;
/** How much of ffprobe's answer is read (a few streams' entries are far less). */
const FFPROBE_OUTPUT_MAX = 256 * 1024;

export const VIDEO_MESSAGES = {
  unreadable:
    'This file could not be read as a video: it may be damaged, or it is not a video. Upload videos as MP4, MOV, WebM or another common video format.',
  unavailable:
    'Videos cannot be checked on this server at the moment, so none are accepted. Please try again later, or ask the administrator to install ffmpeg (ffprobe).',
} as const;

/**
 * The demuxers of the video containers an upload may be in. Anything else, above all the formats
 * that name other files or addresses (HLS playlists, concat lists, image sequences), is not
 * opened, so no container can make ffmpeg or ffprobe read another file or fetch an address.
 */
export const VIDEO_DEMUXERS =
  'mov,mp4,m4a,3gp,3g2,mj2,matroska,webm,avi,mpeg,mpegts,flv,asf,ogg,m4v,mpegvideo,h264,hevc,mxf,nut,dv,ivf,yuv4mpegpipe';

/**
 * How ffmpeg and ffprobe open a stored video: a local file (the `file` protocol only) or the
 * signed address of an object in a bucket (HTTP(S) only), through the video demuxers only.
 */
export function toolInputArgs(input: string): string[] {
  const remote = /^https?:\/\//.test(input);
  return [
    '-protocol_whitelist',
    remote ? 'https,http,tls,tcp' : 'file',
    '-format_whitelist',
    VIDEO_DEMUXERS,
    '-i',
    input,
  ];
}

/** What ffprobe says about a file: it holds a video stream, it does not, or ffprobe is not there. */
export type ProbeResult = 'video' | 'not_video' | 'missing';

interface ProbeOutput {
  streams?: { codec_type?: unknown; width?: unknown; height?: unknown; disposition?: { attached_pic?: unknown } }[];
}

/**
 * Whether ffprobe reads a video stream with a picture size in `file` (cover art of an audio
 * file does not count). Run without a shell, with an argument list, opened as `toolInputArgs`
 * says, killed after `FFPROBE_TIMEOUT_MS`. A file ffprobe cannot open, or that holds no video stream, is `not_video`.
 */
export function probeVideo(ffprobePath: string, file: string, signal?: AbortSignal): Promise<ProbeResult> {
  const args = [
    '-hide_banner',
    '-loglevel',
    'error',
    '-select_streams',
    'v',
    '-show_entries',
    'stream=codec_type,width,height:stream_disposition=attached_pic',
    '-of',
    'json',
    ...toolInputArgs(file),
  ];
  return new Promise((resolve) => {
    execFile(
      ffprobePath,
      args,
      {
        timeout: FFPROBE_TIMEOUT_MS,
        killSignal: 'SIGKILL',
        maxBuffer: FFPROBE_OUTPUT_MAX,
        windowsHide: true,
        ...(signal ? { signal } : {}),
      },
      (error, stdout) => {
        if (error) {
          const code = (error as NodeJS.ErrnoException).code;
          resolve(code === 'ENOENT' || code === 'EACCES' ? 'missing' : 'not_video');
          return;
        }
        resolve(hasVideoStream(stdout) ? 'video' : 'not_video');
      },
    );
  });
}

/** Whether ffprobe's JSON answer lists a video stream with a picture size that is not an attached picture. */
export function hasVideoStream(output: string): boolean {
  let parsed: ProbeOutput;
  try {
    parsed = JSON.parse(output) as ProbeOutput;
  } catch {
    return false;
  }
  return (parsed.streams ?? []).some(
    (s) =>
      s.codec_type === 'video' &&
      Number(s.width) > 0 &&
      Number(s.height) > 0 &&
      Number(s.disposition?.attached_pic ?? 0) === 0,
  );
}

/**
 * Refuses a file that ffprobe cannot read as a video: 400 when it is not one, 503 when this
 * server has no ffprobe (a video it cannot check is not accepted; decision 017).
 */
export async function assertVideo(
  ffprobePath: string,
  file: string,
  onMissing: () => void,
  signal?: AbortSignal,
): Promise<void> {
  const result = await probeVideo(ffprobePath, file, signal);
  if (result === 'video') return;
  if (result === 'missing') {
    onMissing();
    throw new HttpError(503, 'video_check_unavailable', VIDEO_MESSAGES.unavailable);
  }
  throw badRequest(VIDEO_MESSAGES.unreadable, 'unreadable_video');
}
