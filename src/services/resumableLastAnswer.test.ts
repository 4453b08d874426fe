import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeArtifact, makeMedia } from '../test/artifactFixtures.ts';

// The answer to an upload's last PATCH was lost: tus-js-client asks with HEAD, finds the upload
// complete and succeeds with that bodiless answer. The record then comes from the last PATCH sent
// again, once, after the server's "being finished" (423).
const UPLOAD_URL = 'http://localhost/api/v1/uploads/tus/abc';

vi.mock('tus-js-client', () => {
  class Upload {
    url: string | null = null;
    constructor(
      _file: File,
      private readonly options: { onSuccess: (p: { lastResponse: { getBody: () => string } }) => void },
    ) {}
    findPreviousUploads = async () => [];
    resumeFromPreviousUpload() {}
    start() {
      this.url = UPLOAD_URL;
      this.options.onSuccess({ lastResponse: { getBody: () => '' } });
    }
    abort = async () => undefined;
  }
  return { Upload };
});

const file = new File(['12345'], 'photo.png', { type: 'image/png' });
const request = { target: 'artifact', portfolioId: 7, artifactId: 12, kind: 'images', file } as const;
const listener = () => ({
  onUrl: vi.fn(),
  onProgress: vi.fn(),
  onRetrying: vi.fn(),
  onStored: vi.fn(),
  onFailed: vi.fn(),
});
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('a transfer whose last answer was lost', () => {
  it('asks the last PATCH again and is stored once with the record the server answers', async () => {
    const record = { ...makeMedia('images', { id: 41 }), parentArtifact: makeArtifact({ id: 12 }) };
    const fetchMock = vi
      .fn()
      .mockResolvedValueOnce(
        json(423, { statusCode: 423, error: 'Locked', code: 'upload_locked', message: 'Being saved.' }),
      )
      .mockResolvedValueOnce(json(200, record));
    vi.stubGlobal('fetch', fetchMock);
    const { startTransfer } = await import('./resumableUploads.ts');
    const events = listener();
    startTransfer(request, events);
    await vi.waitFor(() => expect(events.onStored).toHaveBeenCalledTimes(1), { timeout: 3000 });
    expect(events.onStored.mock.calls[0]![0]).toMatchObject({ id: 41 });
    expect(events.onFailed).not.toHaveBeenCalled();
    expect(fetchMock).toHaveBeenCalledTimes(2);
    const [url, init] = fetchMock.mock.calls[1]! as [string, RequestInit];
    expect(url).toBe(UPLOAD_URL);
    expect(init.method).toBe('PATCH');
    expect(init.headers).toMatchObject({ 'upload-offset': String(file.size), 'tus-resumable': '1.0.0' });
  });

  it('fails with the server message when the file it became is gone', async () => {
    vi.stubGlobal(
      'fetch',
      vi
        .fn()
        .mockResolvedValue(
          json(404, { statusCode: 404, error: 'Not Found', code: 'not_found', message: 'File not found.' }),
        ),
    );
    const { startTransfer } = await import('./resumableUploads.ts');
    const events = listener();
    startTransfer(request, events);
    await vi.waitFor(() => expect(events.onFailed).toHaveBeenCalledTimes(1));
    expect(events.onFailed.mock.calls[0]![0]).toMatchObject({ status: 404, message: 'File not found.' });
    expect(events.onStored).not.toHaveBeenCalled();
  });
});
