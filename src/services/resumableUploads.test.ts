import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DetailedError, type HttpRequest, type HttpResponse } from 'tus-js-client';
import { makeUser } from '../test/renderApp.tsx';
import { ApiError, NetworkError } from './errors.ts';
import { findRemembered, transferError } from './resumableUploads.ts';
import { currentUser } from './session.ts';

const target = { target: 'artifact', portfolioId: 7, artifactId: 12 } as const;

function response(status: number, body: string): HttpResponse {
  return {
    getStatus: () => status,
    getHeader: () => undefined,
    getBody: () => body,
    getUnderlyingObject: () => null,
  };
}

function failure(res: HttpResponse | null): DetailedError {
  const request = { getHeader: () => undefined, getMethod: () => 'PATCH', getURL: () => '/api/v1/uploads/tus/x' };
  // The library's constructor takes the cause, the request and the answer (its typings name none).
  const Detailed = DetailedError as unknown as new (...args: unknown[]) => DetailedError;
  return new Detailed('failed', undefined, request as unknown as HttpRequest, res ?? undefined);
}

/** An entry as tus-js-client stores it, under a fingerprint. */
function remember(fingerprint: string, uploadUrl: string, filename: string) {
  const entry = { size: 10, metadata: { filename }, creationTime: '2026-11-29', uploadUrl };
  localStorage.setItem(`tus::${fingerprint}::1`, JSON.stringify(entry));
}

describe('transferError', () => {
  it('keeps the server’s message and code, and says something fit to show without one', () => {
    const quota = JSON.stringify({ statusCode: 413, error: 'x', message: 'No room left.', code: 'storage_full' });
    expect(transferError(failure(response(413, quota)))).toEqual(
      new ApiError(413, 'storage_full', 'No room left.', quota),
    );
    const bare = transferError(failure(response(415, '<html>')));
    expect(bare).toMatchObject({ status: 415, message: 'This kind of file cannot be uploaded here.' });
  });

  it('no answer at all is the network', () => {
    expect(transferError(failure(null))).toBeInstanceOf(NetworkError);
    expect(transferError(new Error('offline'))).toBeInstanceOf(NetworkError);
  });
});

describe('findRemembered', () => {
  beforeEach(() => {
    localStorage.clear();
    currentUser.value = makeUser('teacher', { id: 5 });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    currentUser.value = null;
  });

  it('finds only the signed-in person’s uploads to this artifact, with their offsets; gone ones are forgotten', async () => {
    remember('practicefolio/5/artifact/7/12/clip.mp4/10/1', '/api/v1/uploads/tus/mine', 'clip.mp4');
    remember('practicefolio/5/artifact/7/12/old.mp4/10/1', '/api/v1/uploads/tus/gone', 'old.mp4');
    remember('practicefolio/6/artifact/7/12/clip.mp4/10/1', '/api/v1/uploads/tus/theirs', 'clip.mp4');
    remember('practicefolio/5/artifact/7/13/clip.mp4/10/1', '/api/v1/uploads/tus/elsewhere', 'clip.mp4');
    const asked: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        asked.push(url);
        return url.endsWith('gone')
          ? new Response(null, { status: 404 })
          : new Response(null, { status: 200, headers: { 'upload-offset': '4' } });
      }),
    );
    const found = await findRemembered(target);
    expect(found).toEqual([
      {
        key: 'tus::practicefolio/5/artifact/7/12/clip.mp4/10/1::1',
        name: 'clip.mp4',
        size: 10,
        sent: 4,
        uploadUrl: '/api/v1/uploads/tus/mine',
      },
    ]);
    expect(asked.sort()).toEqual(['/api/v1/uploads/tus/gone', '/api/v1/uploads/tus/mine']);
    expect(localStorage.getItem('tus::practicefolio/5/artifact/7/12/old.mp4/10/1::1')).toBeNull();
    expect(localStorage.getItem('tus::practicefolio/6/artifact/7/12/clip.mp4/10/1::1')).not.toBeNull();
  });
});
