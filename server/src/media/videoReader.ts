import { spawn } from 'node:child_process';
import type { FastifyBaseLogger } from 'fastify';
import type { ObjectStore } from './objectStore.ts';
import {
  assertVideo,
  FFMPEG_CPU_SECONDS,
  FFMPEG_MEMORY_KIB,
  FFMPEG_REPORT_MAX,
  parseFfmpegDuration,
  toolInputArgs,
} from './videoTools.ts';

/**
 * Stored videos read by ffprobe and ffmpeg (their check, their length, the frames of posters),
 * each process bounded and killed when the node stops.
 */
export class VideoReader {
  private missing = false;
  /** Aborted when the node stops: the ffmpeg and ffprobe processes still running are killed. */
  private stopping = new AbortController();

  constructor(
    private readonly objects: ObjectStore,
    private readonly tools: { ffmpeg: string; ffprobe: string },
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Whether ffmpeg was found missing (videos then get no poster and no length). */
  get ffmpegMissing(): boolean {
    return this.missing;
  }

  /** Lets processes run again (the node starts). */
  start(): void {
    this.stopping = new AbortController();
  }

  /** Kills the ffmpeg and ffprobe processes still running (the node stops). */
  stop(): void {
    this.stopping.abort();
  }

  /** The length of a stored video, read by ffmpeg; `null` when it cannot be read. */
  async readStoredDuration(fileName: string): Promise<number | null> {
    if (this.missing) return null;
    return this.readDuration(await this.objects.toolInput(fileName));
  }

  /**
   * Checks that a stored file holds a video stream (ffprobe), and reads its length.
   * @throws 400 when it does not; 503 without ffprobe.
   */
  async checkVideo(fileName: string): Promise<{ duration: number | null }> {
    const input = await this.objects.toolInput(fileName);
    // A header that sniffs as a video is not yet one (an `ftyp` box before a web page).
    await assertVideo(
      this.tools.ffprobe,
      input,
      () => this.log.warn('ffprobe is not installed: video uploads are refused'),
      this.stopping.signal,
    );
    return { duration: this.missing ? null : await this.readDuration(input) };
  }

  /**
   * Runs ffmpeg on an untrusted container, bounded: one thread (in `args`), 1 GiB of address
   * space and 60 s of CPU (set by the shell before it becomes ffmpeg), killed after 60 s of wall
   * time. A missing ffmpeg (not found: 127) means videos get no poster, said once in the log.
   */
  async ffmpeg(args: string[]): Promise<boolean> {
    return (await this.runFfmpeg(['-loglevel', 'error', ...args], false)).code === 0;
  }

  /**
   * A video's length as ffmpeg reports it when it opens the file (`Duration: HH:MM:SS.ss` of
   * the input; no output is written, so ffmpeg ends with status 1 by design).
   */
  private async readDuration(source: string): Promise<number | null> {
    const { stderr } = await this.runFfmpeg(['-loglevel', 'info', ...toolInputArgs(source)], true);
    return parseFfmpegDuration(stderr);
  }

  private runFfmpeg(args: string[], capture: boolean): Promise<{ code: number | null; stderr: string }> {
    return new Promise((resolve) => {
      const child = spawn(
        '/bin/sh',
        [
          '-c',
          `ulimit -v ${FFMPEG_MEMORY_KIB} && ulimit -t ${FFMPEG_CPU_SECONDS} && exec "$0" "$@"`,
          this.tools.ffmpeg,
          '-hide_banner',
          '-nostdin',
          ...args,
        ],
        // Killed when the node stops (after its jobs had their time to finish).
        {
          stdio: ['ignore', 'ignore', capture ? 'pipe' : 'ignore'],
          signal: this.stopping.signal,
          killSignal: 'SIGKILL',
        },
      );
      // Only the start of the report is kept (the input's header comes first).
      let stderr = '';
      child.stderr?.setEncoding('utf8');
      child.stderr?.on('data', (chunk: string) => {
        if (stderr.length < FFMPEG_REPORT_MAX) stderr += chunk.slice(0, FFMPEG_REPORT_MAX - stderr.length);
      });
      const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
      child.on('error', () => {
        clearTimeout(timer);
        resolve({ code: null, stderr: '' });
      });
      child.on('close', (code) => {
        clearTimeout(timer);
        if (code === 127 || code === 126) {
          if (!this.missing) this.log.warn('ffmpeg is not installed: videos get no poster frame and no length');
          this.missing = true;
        }
        resolve({ code, stderr });
      });
    });
  }
}
