import { afterEach, describe, expect, it, vi } from 'vitest';

// The tus client is loaded with the first transfer (decision 060): what a transfer does before,
// and when, it has arrived.
const loaded = vi.hoisted(() => ({ uploads: [] as { started: boolean; aborted: boolean }[] }));

vi.mock('tus-js-client', () => {
  class Upload {
    url: string | null = null;
    private readonly state = { started: false, aborted: false };
    constructor() {
      loaded.uploads.push(this.state);
    }
    findPreviousUploads = async () => [];
    resumeFromPreviousUpload() {}
    start() {
      this.state.started = true;
    }
    abort = async () => {
      this.state.aborted = true;
    };
  }
  return { Upload };
});

const request = {
  target: 'artifact',
  portfolioId: 7,
  artifactId: 12,
  kind: 'videos',
  file: new File(['x'], 'clip.mp4', { type: 'video/mp4' }),
} as const;

function listener() {
  return { onUrl: vi.fn(), onProgress: vi.fn(), onRetrying: vi.fn(), onStored: vi.fn(), onFailed: vi.fn() };
}

afterEach(() => {
  loaded.uploads.length = 0;
  vi.doUnmock('tus-js-client');
  vi.resetModules();
});

describe('startTransfer', () => {
  it('starts the upload once the client has loaded', async () => {
    const { startTransfer } = await import('./resumableUploads.ts');
    const events = listener();
    startTransfer(request, events);
    await vi.waitFor(() => expect(loaded.uploads).toEqual([{ started: true, aborted: false }]));
    expect(events.onFailed).not.toHaveBeenCalled();
  });

  it('paused before the client arrived: nothing is sent', async () => {
    const { startTransfer } = await import('./resumableUploads.ts');
    const transfer = startTransfer(request, listener());
    transfer.pause();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(loaded.uploads.filter((u) => u.started)).toEqual([]);
  });

  it('a client that cannot be loaded is a network failure, offered again', async () => {
    vi.doMock('tus-js-client', () => {
      throw new TypeError('Failed to fetch dynamically imported module');
    });
    const { startTransfer } = await import('./resumableUploads.ts');
    const { NetworkError } = await import('./errors.ts');
    const events = listener();
    startTransfer(request, events);
    await vi.waitFor(() => expect(events.onFailed).toHaveBeenCalledTimes(1));
    expect(events.onFailed.mock.calls[0]![0]).toBeInstanceOf(NetworkError);
    expect(loaded.uploads).toEqual([]);
  });
});
