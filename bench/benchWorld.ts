import { ffmpegWebm } from '../server/test/files.ts';
import type { Browser, BrowserContextOptions } from 'playwright-core';
import { BENCH_PASSWORD } from './generate.ts';

/**
 * What the browser benchmarks work on, made through the API: the teacher's biggest portfolio and
 * another one, a shared artifact of hers with a video and a comment at a moment; and the session
 * cookies of one sign-in, made as the web app makes it.
 */

export type Cookies = NonNullable<Exclude<BrowserContextOptions['storageState'], string | undefined>>['cookies'];

export async function signIn(browser: Browser, origin: string, email: string): Promise<Cookies> {
  const context = await browser.newContext();
  try {
    const res = await context.request.post(`${origin}/api/v1/auth/local`, {
      headers: { 'x-practicefolio-client': 'web' },
      data: { identifier: email, password: BENCH_PASSWORD },
    });
    if (!res.ok()) throw new Error(`sign-in: ${res.status()} ${await res.text()}`);
    const body = (await res.json()) as { jwt?: string };
    const { cookies } = await context.storageState();
    if (body.jwt && !cookies.some((c) => c.name === 'jwt'))
      cookies.push({
        name: 'jwt',
        value: body.jwt,
        domain: new URL(origin).hostname,
        path: '/',
        expires: -1,
        httpOnly: false,
        secure: false,
        sameSite: 'Lax',
      });
    return cookies;
  } finally {
    await context.close();
  }
}

export interface World {
  big: { id: number; artifacts: number };
  /** Another portfolio of the teacher (before the video's artifact was added). */
  other: { id: number; artifacts: number };
  shared: { plc: number; artifact: number; marker: string };
}

/** The teacher's biggest portfolio, and a shared artifact of hers with a video and a comment at 00:02 (made through the API). */
export async function prepare(url: string, jwt: string): Promise<World> {
  const api = async <T>(method: string, route: string, body?: unknown): Promise<T> => {
    const init: RequestInit = {
      method,
      headers: {
        authorization: `Bearer ${jwt}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
    };
    if (body !== undefined) init.body = JSON.stringify(body);
    const res = await fetch(`${url}/api/v1${route}`, init);
    if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  };
  const portfolios = await api<{ id: number; artifacts: unknown[] }[]>('GET', '/portfolios');
  const big = portfolios.reduce((a, b) => (b.artifacts.length > a.artifacts.length ? b : a));
  const other = portfolios.find((p) => p !== big) ?? big;
  const me = await api<{ id: number; username: string }>('GET', '/users/me');
  const created = await api<{ id: number }>('POST', `/portfolios/${other.id}/artifacts/responses`, {
    responses: { artifactName: 'Ramp race video', learningGoal: 'Students predict which car rolls faster.' },
    parkingLot: false,
  });
  const form = new FormData();
  form.append(
    'file',
    new Blob([new Uint8Array(ffmpegWebm({ seconds: 6, size: '320x240', kbps: 200 }))], { type: 'video/webm' }),
    'ramp-race.webm',
  );
  const up = await fetch(`${url}/api/v1/portfolios/${other.id}/artifacts/${created.id}/videos`, {
    method: 'POST',
    headers: { authorization: `Bearer ${jwt}` },
    body: form,
  });
  if (!up.ok) throw new Error(`video upload: ${up.status} ${await up.text()}`);
  const video = (await up.json()) as { id: number };
  const shared = await api<{ id: number }[]>('GET', '/shared-portfolios');
  const copy = await api<{ id: number }>('POST', `/artifacts/${created.id}/share`, {
    sharedPortfolioId: shared[0]!.id,
  });
  await api('POST', '/comments', {
    sharedArtifact: copy.id,
    text: 'Here the ball passes the second mark.',
    moment: { media: video.id, start: 2, end: null },
  });
  return {
    big: { id: big.id, artifacts: big.artifacts.length },
    other: { id: other.id, artifacts: other.artifacts.length + 1 },
    shared: { plc: shared[0]!.id, artifact: copy.id, marker: `Comment by ${me.username} at 0:02` },
  };
}
