import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestApp } from '../helper.ts';

/** One answer as the app receives it. */
export interface AppAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  /** `jsonDecode(body)`; throws like the app does when the body is not JSON. */
  json(): unknown;
}

/**
 * The mobile app's networking (`lib/utilities/networking.dart`, `network_files.dart`) over real
 * HTTP against the listening server: `content-type: application/json` on every JSON call (also
 * GET and an empty-bodied DELETE), the bearer token except on login, bodies `jsonEncode`d; uploads
 * as multipart with one part `myFile` typed `application/octet-stream` and only the
 * `Authorization` header; files and viewer pages with no credentials at all.
 */
export class MobileApp {
  token: string | null = null;

  private constructor(private readonly origin: string) {}

  /** Starts the test app's server on a free loopback port. */
  static async connect(t: TestApp): Promise<MobileApp> {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    return new MobileApp(`http://127.0.0.1:${port}`);
  }

  /** The app on another phone, against the same server. */
  anotherPhone(): MobileApp {
    return new MobileApp(this.origin);
  }

  /** `eqisURL`: the app's base URL. */
  get base(): string {
    return `${this.origin}/api/v1`;
  }

  /** `serverAssetsRootURL`: what media `url`s are joined to (see the README). */
  get assetsRoot(): string {
    return `${this.origin}/api/v1`;
  }

  /** A JSON call (`NetworkHelper.makeRequest`). Only 200 counts as success for the app. */
  async call(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    body?: Record<string, unknown>,
  ): Promise<AppAnswer> {
    const payload = body === undefined ? Buffer.alloc(0) : Buffer.from(JSON.stringify(body));
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'content-length': String(payload.length),
    };
    if (this.token) headers['authorization'] = `Bearer ${this.token}`;
    return this.send(method, `${this.base}${path}`, headers, payload);
  }

  /** The same call, failing unless the app would accept it: status 200 and a JSON body. */
  async ok(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: Record<string, unknown>): Promise<unknown> {
    const res = await this.call(method, path, body);
    if (res.status !== 200)
      throw new Error(
        `${method} ${path}: the app accepts only 200, got ${res.status}: ${res.body.toString('utf8').slice(0, 300)}`,
      );
    return res.json();
  }

  /** `uploadFile`: multipart POST, one part `myFile`, `application/octet-stream`, the local file's basename. */
  async upload(path: string, fileName: string, content: Buffer): Promise<unknown> {
    const boundary = `dart-http-boundary-${Math.random().toString(36).slice(2)}`;
    const payload = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\ncontent-type: application/octet-stream\r\ncontent-disposition: form-data; name="myFile"; filename="${fileName}"\r\n\r\n`,
      ),
      content,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const headers: Record<string, string> = {
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'content-length': String(payload.length),
    };
    if (this.token) headers['authorization'] = `Bearer ${this.token}`;
    const res = await this.send('POST', `${this.base}${path}`, headers, payload);
    if (res.status !== 200)
      throw new Error(
        `upload ${path}: the app accepts only 200, got ${res.status}: ${res.body.toString('utf8').slice(0, 300)}`,
      );
    return res.json();
  }

  /** `Image.network` / `launchUrl`: a plain GET of an address, without any credentials. */
  fetch(address: string): Promise<AppAnswer> {
    return this.send('GET', address, {}, Buffer.alloc(0));
  }

  private send(method: string, address: string, headers: Record<string, string>, payload: Buffer): Promise<AppAnswer> {
    return new Promise((resolve, reject) => {
      const req = httpRequest(address, { method, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body,
            json: () => JSON.parse(body.toString('utf8')) as unknown,
          });
        });
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(payload);
    });
  }
}
