/**
 * What the flows along machine-generated paths share (see the flow files beside this one): paths
 * from the machines, their replay in Chromium against the real server, and data of the flows' own.
 */
import type { Page, Route } from 'playwright-core';
import { expect } from 'vitest';
import type { AnyEventObject, AnyMachineSnapshot, AnyStateMachine } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import { isInvoking, serializeState } from '../../tests/model/support/coverage.ts';
import { api, baseUrl, DEMO, setupBrowser, tokenFor, waitForResetLink } from '../fixtures.ts';

let browser: ReturnType<typeof setupBrowser> | undefined;
/** A browser of the flow file's own (its hooks in the file that calls this). */
export function setupFlows(): void {
  browser = setupBrowser();
}

const stamp = Date.now();
const PASSWORD = 'quartz-river-71';
/** How long a check waits for the page to show what the state says. */
const SETTLE = { timeout: 15_000, interval: 100 };

// ---------------------------------------------------------------------------------------------
// Paths from the machines

export type Snapshot = AnyMachineSnapshot;
interface PathStep {
  event: AnyEventObject;
  state: Snapshot;
}
interface GeneratedPath {
  steps: PathStep[];
  state: Snapshot;
}
/** A condition on one step of a path: the event, the state it reached, and the state it left. */
type StepTest = (step: PathStep, from: Snapshot) => boolean;

/**
 * The shortest path through the legs: from the start to the first step that passes `legs[0]`,
 * from there to the first that passes `legs[1]`, and so on. Among equally short ones the first
 * the graph yields is taken, so the path is the same on every run.
 */
export function generatePath(
  machine: AnyStateMachine,
  options: { input?: unknown; events: (state: Snapshot) => AnyEventObject[] },
  legs: readonly StepTest[],
): GeneratedPath {
  let path: GeneratedPath | null = null;
  for (const [index, leg] of legs.entries()) {
    const candidates = getShortestPaths(machine, {
      serializeState,
      events: options.events,
      ...(options.input !== undefined ? { input: options.input } : {}),
      ...(path ? { fromState: path.state } : {}),
    } as never) as unknown as GeneratedPath[];
    let best: GeneratedPath | null = null;
    for (const candidate of candidates) {
      const last = candidate.steps.at(-1)!;
      const from = candidate.steps.at(-2)?.state;
      if (!from || !leg(last, from)) continue;
      if (!best || candidate.steps.length < best.steps.length) best = candidate;
    }
    if (!best) throw new Error(`The ${machine.id} machine has no path for leg ${index + 1}`);
    path = path ? { steps: [...path.steps, ...best.steps.slice(1)], state: best.state } : best;
  }
  if (!path) throw new Error('A path needs at least one leg');
  return path;
}

/** The events of a path, readably. */
export function describePath(path: GeneratedPath): string {
  return path.steps
    .map(({ event }) => {
      const e = event as AnyEventObject & {
        field?: string;
        key?: string;
        value?: unknown;
        artifactId?: number;
        sharedPortfolioId?: number;
        output?: unknown;
      };
      const detail =
        e.field ?? e.key ?? e.artifactId ?? e.sharedPortfolioId ?? (e.output as { type?: string } | undefined)?.type;
      return `${e.type}${detail !== undefined ? `(${String(detail)})` : ''}`;
    })
    .join(' → ');
}

// ---------------------------------------------------------------------------------------------
// Replaying a path in the browser

interface Answer {
  status: number;
  body: unknown;
}

/** The page's requests to one endpoint, as the path lets the server answer them. */
interface ServerCalls {
  /** Waits until exactly `count` requests wait for their answer. */
  expectWaiting: (count: number) => Promise<void>;
  /** The oldest waiting request: its address and body. */
  waiting: () => { url: URL; body: unknown };
  /** Lets the oldest waiting request through to the server; its answer. */
  answer: () => Promise<Answer>;
}

/**
 * Holds the page's requests to one endpoint until the path lets the server answer. Only as many
 * requests are held as the path has answers of the actor; any later ones pass untouched.
 */
async function serverCalls(page: Page, method: string, pattern: RegExp, limit: number): Promise<ServerCalls> {
  const held: Route[] = [];
  let seen = 0;
  await page.route(
    (url) => pattern.test(url.pathname),
    async (route) => {
      if (route.request().method() !== method || seen >= limit) {
        await route.fallback();
        return;
      }
      seen += 1;
      held.push(route);
    },
  );
  const expectWaiting = async (count: number) => {
    await expect.poll(() => held.length, { ...SETTLE, message: `${method} ${pattern.source} waiting` }).toBe(count);
  };
  return {
    expectWaiting,
    waiting: () => {
      const request = held[0]?.request();
      if (!request) throw new Error(`No ${method} ${pattern.source} is waiting`);
      return { url: new URL(request.url()), body: request.postDataJSON() as unknown };
    },
    answer: async () => {
      await expectWaiting(1);
      const route = held.shift()!;
      const request = route.request();
      const responded = page.waitForResponse((response) => response.request() === request);
      await route.continue();
      const response = await responded;
      const text = await response.text();
      return { status: response.status(), body: text ? (JSON.parse(text) as unknown) : null };
    },
  };
}

type Endpoints = Record<string, readonly [method: string, pattern: RegExp]>;

/** Holds the requests of each invoked actor of the path (by actor id). */
export async function holdCalls(
  page: Page,
  path: GeneratedPath,
  endpoints: Endpoints,
): Promise<Record<string, ServerCalls>> {
  const calls: Record<string, ServerCalls> = {};
  for (const [id, [method, pattern]] of Object.entries(endpoints)) {
    const answers = path.steps.filter(
      ({ event }) => /^xstate\.(done|error)\.actor\./.test(event.type) && event.type.endsWith(`.actor.${id}`),
    ).length;
    calls[id] = await serverCalls(page, method, pattern, answers);
  }
  return calls;
}

interface Flow {
  calls: Record<string, ServerCalls>;
  /** What the page must show, by state (matched with `state.matches`). */
  states: Record<string, (state: Snapshot) => Promise<void>>;
  /** The browser step of each event type: a gesture, a navigation, or the server's answer. */
  events: Record<string, (event: AnyEventObject, state: Snapshot) => Promise<void>>;
}

/**
 * Replays the path: each event's browser step, then the checks of the state it reached (and that
 * the page waits for a server answer exactly while the state invokes an actor). The states
 * checked, in order.
 */
export async function replay(path: GeneratedPath, flow: Flow): Promise<string[]> {
  const checked: string[] = [];
  for (const step of path.steps) {
    const browserStep = flow.events[step.event.type];
    if (!browserStep) throw new Error(`no browser step for event ${step.event.type}`);
    const checks = Object.keys(flow.states).filter((key) => step.state.matches(key));
    if (checks.length === 0) throw new Error(`no browser check for state ${JSON.stringify(step.state.value)}`);
    await browserStep(step.event, step.state);
    for (const [id, calls] of Object.entries(flow.calls)) await calls.expectWaiting(isInvoking(step.state, id) ? 1 : 0);
    for (const key of checks) await flow.states[key]!(step.state);
    checked.push(JSON.stringify(step.state.value));
  }
  return checked;
}

/** The states a path goes through, as `replay` reports them. */
export const statesOf = (path: GeneratedPath) => path.steps.map((step) => JSON.stringify(step.state.value));

/** The server answers the oldest held request: a success for a `done` event, a refusal for an `error` event. */
export function serverAnswer(
  calls: () => ServerCalls,
  then?: (answer: Answer, event: AnyEventObject) => void | Promise<void>,
) {
  return async (event: AnyEventObject): Promise<void> => {
    const answer = await calls().answer();
    expect(answer.status < 400, `${event.type}: the server answered ${answer.status}`).toBe(
      event.type.startsWith('xstate.done.'),
    );
    await then?.(answer, event);
  };
}

/** Waits until what the page shows equals what the state says it must show. */
export async function expectView<T>(observe: () => Promise<T>, expected: T): Promise<void> {
  await expect.poll(observe, SETTLE).toEqual(expected);
}

export const isBusy = async (page: Page, name: string) =>
  (await page.getByRole('button', { name, exact: true }).getAttribute('aria-busy')) === 'true';
export const isEnabled = async (page: Page, name: string) => {
  const button = page.getByRole('button', { name, exact: true });
  return (await button.count()) === 1 && (await button.isEnabled());
};
export const shows = async (page: Page, text: string) => (await page.getByText(text, { exact: true }).count()) > 0;
export const pathname = (page: Page) => new URL(page.url()).pathname;
export const hasToken = async (page: Page) => (await page.context().cookies()).some((cookie) => cookie.name === 'jwt');
/** The messages of the alerts on screen (error toasts), oldest first. */
export const alerts = (page: Page) =>
  page.getByRole('region', { name: 'Notifications' }).getByRole('alert').locator('p').allTextContents();
/** Which of `messages` the page shows. */
export async function shown(page: Page, messages: readonly string[]): Promise<string[]> {
  const found: string[] = [];
  for (const message of messages) if (await shows(page, message)) found.push(message);
  return found.sort();
}

// ---------------------------------------------------------------------------------------------
// Data of the flows' own

export interface Account {
  id: number;
  email: string;
  username: string;
  token: string;
}

/** A new teacher, made by the researcher, who set a password through the e-mailed link. */
export async function newTeacher(label: string): Promise<Account> {
  const researcher = await tokenFor(DEMO.researcher.email);
  const email = `model.${label}.${stamp}@example.org`;
  const username = `Model ${label} ${stamp}`;
  const created = await api<{ id: number }>('POST', '/invitations/outside', { email, username, roleId: 1 }, researcher);
  expect(created.status).toBe(200);
  const code = new URL(await waitForResetLink(email)).pathname.split('/').pop();
  const reset = await api<{ jwt: string }>('POST', '/auth/reset-password', {
    code,
    password: PASSWORD,
    passwordConfirmation: PASSWORD,
  });
  expect(reset.status).toBe(200);
  return { id: created.body.id, email, username, token: reset.body.jwt };
}

/** A new portfolio of the account with completed artifacts of these names (none: empty). */
export async function newPortfolio(
  owner: Account,
  name: string,
  artifacts: readonly string[] = [],
): Promise<{ id: number; artifacts: number[] }> {
  const portfolio = await api<{ id: number }>('POST', '/portfolios', { name: `${name} ${stamp}` }, owner.token);
  expect(portfolio.status).toBe(200);
  const ids: number[] = [];
  for (const artifactName of artifacts) {
    const responses = { artifactName, learningGoal: `Students learn from ${artifactName.toLowerCase()}.` };
    const created = await api<{ id: number }>(
      'POST',
      `/portfolios/${portfolio.body.id}/artifacts/responses`,
      { responses, parkingLot: false },
      owner.token,
    );
    expect(created.status).toBe(200);
    ids.push(created.body.id);
  }
  return { id: portfolio.body.id, artifacts: ids };
}

/** A new shared portfolio of the PLC lead; `member` is invited and, unless `join` is false, joins. */
export async function newSharedPortfolio(
  name: string,
  member: Account,
  join = true,
): Promise<{ id: number; name: string; invitation: number }> {
  const lead = await tokenFor(DEMO.lead.email);
  const fullName = `${name} ${stamp}`;
  const shared = await api<{ id: number }>(
    'POST',
    '/shared-portfolios',
    { name: fullName, topic: 'Model paths', structure: [] },
    lead,
  );
  expect(shared.status).toBe(200);
  const invitation = await api<{ id: number }>(
    'POST',
    '/invitations',
    { to: member.id, sharedPortfolio: shared.body.id },
    lead,
  );
  expect(invitation.status).toBe(200);
  const accepted = join
    ? (await api('POST', `/invitations/${invitation.body.id}/accept`, undefined, member.token)).status
    : 200;
  expect(accepted).toBe(200);
  return { id: shared.body.id, name: fullName, invitation: invitation.body.id };
}

/** A page of a browser of its own, signed in as `account` (none: signed out). */
export async function pageOf(account: Account | null): Promise<Page> {
  if (!browser) throw new Error('setupFlows() first');
  const page = await browser.newPage('/about');
  // As the server sets them at login: the token HttpOnly, beside the readable marker.
  if (account) {
    await page.context().addCookies([
      { name: 'jwt', value: account.token, url: baseUrl(), httpOnly: true, sameSite: 'Lax' },
      { name: 'pf_session', value: '1', url: baseUrl(), sameSite: 'Lax' },
    ]);
  }
  return page;
}

export const apiPath = (path: string) => new RegExp(`^/api/v1${path}$`);
