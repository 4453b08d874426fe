import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import path from 'node:path';
import type { Responses } from '#schemas/structure';
import { mediaUrls } from '../../server/test/contract/dartModels.ts';

/** An answer of the API. */
export interface Answer<T> {
  status: number;
  body: T;
}

/** A stored medium as artifacts list it. */
export interface Medium {
  id: number;
  url: string;
  formats?: Record<string, { url: string } | null> | null;
}

/** A personal artifact as `GET /artifacts/:id` answers it (the fields the journey reads). */
export interface Artifact {
  id: number;
  responses: Responses;
  images: Medium[];
  videos: Medium[];
  updated_at: string;
}

/** The API of one portal (`url`), as one person (`token`) or signed out. */
export class PortalClient {
  constructor(
    readonly url: string,
    readonly token: string | null = null,
  ) {}

  /** Signs in with e-mail and password; the client of that session and the login answer. */
  async signIn(email: string, password: string): Promise<{ client: PortalClient; login: unknown }> {
    const res = await this.call<{ jwt: string }>('POST', '/auth/local', { identifier: email, password });
    if (res.status !== 200) throw new Error(`${email} could not sign in: ${res.status}`);
    return { client: new PortalClient(this.url, res.body.jwt), login: res.body };
  }

  async call<T>(method: string, pathname: string, body?: unknown): Promise<Answer<T>> {
    const res = await fetch(`${this.url}/api/v1${pathname}`, {
      method,
      headers: {
        ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // not JSON (a file)
    }
    return { status: res.status, body: parsed as T };
  }

  /** `call`, expecting 200. */
  async ok<T>(method: string, pathname: string, body?: unknown): Promise<T> {
    const res = await this.call<T>(method, pathname, body);
    if (res.status !== 200)
      throw new Error(`${method} ${pathname} answered ${res.status}: ${JSON.stringify(res.body)?.slice(0, 300)}`);
    return res.body;
  }

  /** Uploads a file to an artifact of a personal portfolio. */
  async upload(
    portfolioId: number,
    artifactId: number,
    kind: 'images' | 'videos' | 'documents',
    name: string,
    data: Buffer,
  ): Promise<Answer<Medium>> {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(data)]), name);
    const res = await fetch(`${this.url}/api/v1/portfolios/${portfolioId}/artifacts/${artifactId}/${kind}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${this.token}` },
      body: form,
    });
    return { status: res.status, body: (await res.json()) as Medium };
  }

  /**
   * The SHA-256 of the file at a media address of an answer, fetched as the apps do: joined to the
   * API's root, without credentials.
   */
  async fileDigest(address: string): Promise<string> {
    const res = await fetch(/^https?:/.test(address) ? address : `${this.url}/api/v1${address}`);
    if (res.status !== 200) throw new Error(`GET ${address} answered ${res.status}`);
    return sha256(Buffer.from(await res.arrayBuffer()));
  }

  /** Every media address of an answer (originals, formats, posters) with its file's SHA-256, by path without query. */
  async digestsOf(answer: unknown): Promise<Record<string, string>> {
    const digests: Record<string, string> = {};
    for (const address of mediaUrls(answer)) digests[storedName(address)] = await this.fileDigest(address);
    return digests;
  }
}

/** The stored name a media address serves (its last path segment; tokens in the query differ between sessions). */
export function storedName(address: string): string {
  return new URL(address, 'http://portal').pathname.split('/').at(-1)!;
}

export const sha256 = (data: Buffer): string => createHash('sha256').update(data).digest('hex');

/** `npm run admin -- <args>` on the portal of `env`, as an operator runs it; its exit code and output. */
export function admin(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.resolve('scripts/admin.mjs'), ...args], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.once('exit', (code) => resolve({ code, output }));
  });
}
