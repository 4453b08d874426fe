import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, inject } from 'vitest';

/** The demo accounts and their password (architecture §6). */
export const DEMO = {
  password: 'spiral-demo',
  researcher: { email: 'researcher@example.org', username: 'Rita Researcher' },
  lead: { email: 'lead@example.org', username: 'Lee Lead' },
  teacher: { email: 'teacher@example.org', username: 'Tess Teacher' },
  teacher2: { email: 'teacher2@example.org', username: 'Theo Teacher' },
} as const;

export const baseUrl = () => inject('baseUrl');
export const dataDir = () => inject('dataDir');

const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * One Chromium for the test file; each test gets fresh contexts through `newPage()`, on the shared
 * e2e server unless `base` names another portal. Any
 * console error or uncaught page error fails the test that caused it.
 */
export function setupBrowser(
  base: () => string = baseUrl,
  /** Requests that break off are expected (a journey that cuts the connection). */
  { brokenConnections = false }: { brokenConnections?: boolean } = {},
) {
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  let problems: string[] = [];
  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
      headless: true,
      args: ARGS,
    });
  });
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((c) => c.close()));
    const found = problems;
    problems = [];
    expect(found, 'console errors in the browser').toEqual([]);
  });
  afterAll(async () => {
    await browser?.close();
  });
  return {
    /** A new page in a new (cookie-less) browser context, opened at `path`. */
    async newPage(pathname = '/', viewport = { width: 1280, height: 900 }): Promise<Page> {
      const context = await browser.newContext({ baseURL: base(), viewport });
      contexts.push(context);
      const page = await context.newPage();
      page.on('console', (m) => {
        if (m.type() !== 'error') return;
        // The browser logs every refused API call; the journeys expect some (a wrong password, a used code).
        const expectedRefusal =
          /^Failed to load resource: the server responded with a status of 4\d\d/.test(m.text()) &&
          m.location().url.includes('/api/v1/');
        const expectedBreak =
          brokenConnections &&
          /^Failed to load resource: net::ERR_(CONNECTION_\w+|EMPTY_RESPONSE|SOCKET_NOT_CONNECTED)$/.test(m.text());
        if (!expectedRefusal && !expectedBreak) problems.push(`${m.text()} (${m.location().url})`);
      });
      page.on('pageerror', (e) => problems.push(String(e)));
      await page.goto(pathname);
      return page;
    },
  };
}

/** Logs in through the login page and waits for the dashboard (or the remembered origin). */
export async function login(page: Page, email: string, password: string = DEMO.password): Promise<void> {
  if (!page.url().endsWith('/login')) await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'LOGIN' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/login'));
}

/** Calls the API directly (arranging data); returns the parsed JSON. */
export async function api<T = unknown>(
  method: string,
  pathname: string,
  body?: unknown,
  token?: string,
): Promise<{ status: number; body: T }> {
  const res = await fetch(`${baseUrl()}/api/v1${pathname}`, {
    method,
    headers: {
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
}

/** A session token for an account (through the API). */
export async function tokenFor(email: string, password: string = DEMO.password): Promise<string> {
  const res = await api<{ jwt: string }>('POST', '/auth/local', { identifier: email, password });
  if (res.status !== 200) throw new Error(`login of ${email} failed: ${res.status}`);
  return res.body.jwt;
}

function decodeQuotedPrintable(text: string): string {
  return text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** Uploads a file to an artifact of a personal portfolio through the API, as `token`; the stored medium. */
export async function uploadMedia<T = unknown>(
  token: string,
  portfolioId: number,
  artifactId: number,
  kind: 'images' | 'videos' | 'documents',
  name: string,
  type: string,
  data: Uint8Array,
): Promise<T> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(data)], { type }), name);
  const res = await fetch(`${baseUrl()}/api/v1/portfolios/${portfolioId}/artifacts/${artifactId}/${kind}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  if (res.status !== 200) throw new Error(`the upload of ${name} failed: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** The e-mails in the outbox addressed to `email`, newest last, as decoded text. */
export function outboxFor(email: string): { file: string; text: string; subject: string }[] {
  const dir = path.join(dataDir(), 'outbox');
  let files: string[] = [];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith('.eml'));
  } catch {
    return [];
  }
  return files
    .map((file) => ({
      file,
      mtime: statSync(path.join(dir, file)).mtimeMs,
      raw: readFileSync(path.join(dir, file), 'utf8'),
    }))
    .filter((m) => new RegExp(`^To: .*${email.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'mi').test(m.raw))
    .sort((a, b) => a.mtime - b.mtime || a.file.localeCompare(b.file))
    .map((m) => ({
      file: m.file,
      text: decodeQuotedPrintable(m.raw),
      subject: /^Subject: (.*)$/m.exec(m.raw)?.[1] ?? '',
    }));
}

/**
 * Looks at `probe` until it gives something truthy, and returns that; fails after `timeoutMs`, naming `what`.
 * The one way the journeys wait on a condition outside the browser (a file, a process, the API, the outbox);
 * in a page, Playwright's own waits and `expect.poll` look at the page.
 */
export async function until<T>(
  probe: () => T | Promise<T>,
  what: string,
  { timeoutMs = 15_000, everyMs = 20 }: { timeoutMs?: number; everyMs?: number } = {},
): Promise<Exclude<T, false | 0 | '' | null | undefined>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value as Exclude<T, false | 0 | '' | null | undefined>;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/** Waits for an e-mail to `email` and returns the first link to `/reset-password/…` in it. */
export function waitForResetLink(email: string, after = 0): Promise<string> {
  const resetLink = () => {
    for (const mail of outboxFor(email).slice(after).reverse()) {
      const match = /https?:\/\/[^\s"<>]+\/reset-password\/[A-Za-z0-9_-]+/.exec(mail.text);
      if (match) return match[0];
    }
    return null;
  };
  return until(resetLink, `a reset link in an e-mail to ${email}`);
}

/** The demo data's landmarks: Tess's "Forces and Motion", its "Ramp races" and their copy in the demo PLC. */
export interface DemoPlaces {
  forces: number;
  ramp: number;
  plc: number;
  plcName: string;
  sharedRamp: number;
  teacherId: number;
}

/** Finds the demo data's landmarks through the API, as the demo teacher. */
export async function findDemo(): Promise<DemoPlaces> {
  const token = await tokenFor(DEMO.teacher.email);
  const portfolios = (await api<{ id: number; name: string }[]>('GET', '/portfolios', undefined, token)).body;
  const forces = portfolios.find((p) => p.name === 'Forces and Motion')!;
  const full = (
    await api<{ artifacts: { id: number; responses: Record<string, unknown> }[] }>(
      'GET',
      `/portfolios/${forces.id}`,
      undefined,
      token,
    )
  ).body;
  const ramp = full.artifacts.find((a) => String(a.responses['artifactName']).startsWith('Ramp races'))!;
  const shared = (await api<{ id: number; name: string }[]>('GET', '/shared-portfolios', undefined, token)).body[0]!;
  const plc = (
    await api<{ sharedArtifacts: { id: number; responses: Record<string, unknown> }[] }>(
      'GET',
      `/shared-portfolios/${shared.id}`,
      undefined,
      token,
    )
  ).body;
  const sharedRamp = plc.sharedArtifacts.find((a) => String(a.responses['artifactName']).startsWith('Ramp races'))!;
  const me = (await api<{ id: number }>('GET', '/users/me', undefined, token)).body;
  return {
    forces: forces.id,
    ramp: ramp.id,
    plc: shared.id,
    plcName: shared.name,
    sharedRamp: sharedRamp.id,
    teacherId: me.id,
  };
}

/**
 * Waits until the page has laid itself out after a change (a resize, a focus): two animation
 * frames (so effects of the change have rendered), then no transition or animation running.
 */
export async function layoutSettled(page: Page): Promise<void> {
  await page.evaluate(
    () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))),
  );
  await animationsDone(page);
}

/**
 * Waits until no transition or animation of the page runs (endless ones, like a spinner, aside):
 * colours and positions are final for an audit or a screenshot.
 */
export async function animationsDone(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every(
        (animation) =>
          animation.playState !== 'running' || animation.effect?.getComputedTiming().iterations === Infinity,
      ),
  );
}
