import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, createMachine } from 'xstate';
import type { Media } from '../../schemas/media.ts';
import { makeMedia } from '../../test/artifactFixtures.ts';
import { POSTER_LOOKS_MS, posterWatcher } from './queueActors.ts';

const video = makeMedia('videos', { id: 52 });
const withPoster: Media = { ...video, formats: makeMedia('images').formats };

/** Runs a watcher under a parent that records what it sends back. */
function watch(load: (artifactId: number, signal: AbortSignal) => Promise<{ videos: readonly Media[] }>) {
  const received: unknown[] = [];
  const parent = createActor(
    createMachine({
      invoke: { id: 'watcher', src: posterWatcher(load), input: { artifactId: 12, mediaId: 52 } },
      on: { '*': { actions: ({ event }) => void received.push(event) } },
    }),
  );
  parent.start();
  return { received, parent };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('posterWatcher', () => {
  it('looks again until the video has its poster, then sends it once', async () => {
    const load = vi
      .fn<(artifactId: number) => Promise<{ videos: Media[] }>>()
      .mockResolvedValueOnce({ videos: [video] })
      .mockRejectedValueOnce(new Error('offline'))
      .mockResolvedValue({ videos: [withPoster] });
    const { received } = watch(load);
    await vi.advanceTimersByTimeAsync(POSTER_LOOKS_MS[0]!);
    expect(load).toHaveBeenCalledTimes(1);
    expect(load.mock.calls[0]![0]).toBe(12);
    expect(received).toEqual([]);
    await vi.advanceTimersByTimeAsync(POSTER_LOOKS_MS[1]! + POSTER_LOOKS_MS[2]!);
    expect(load).toHaveBeenCalledTimes(3);
    expect(received).toEqual([{ type: 'poster.ready', media: withPoster }]);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(load).toHaveBeenCalledTimes(3);
  });

  it('stops looking when the video is gone, and after its last look', async () => {
    const gone = vi.fn(async () => ({ videos: [] as Media[] }));
    watch(gone);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(gone).toHaveBeenCalledTimes(1);
    const never = vi.fn(async () => ({ videos: [video] }));
    const { received } = watch(never);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(never).toHaveBeenCalledTimes(POSTER_LOOKS_MS.length);
    expect(received).toEqual([]);
  });

  it('stops when its parent stops it (the page is left), cancelling a look under way', async () => {
    let signal: AbortSignal | null = null;
    const slow = vi.fn((_: number, s: AbortSignal) => {
      signal = s;
      return new Promise<{ videos: Media[] }>(() => undefined);
    });
    const { parent } = watch(slow);
    await vi.advanceTimersByTimeAsync(POSTER_LOOKS_MS[0]!);
    parent.stop();
    expect(signal!.aborted).toBe(true);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(slow).toHaveBeenCalledTimes(1);
  });
});
