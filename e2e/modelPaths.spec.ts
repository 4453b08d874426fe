/**
 * The critical flows end to end, each along one path generated from its machine: login, password
 * reset (both halves), the parking-lot lifecycle of an artifact, the shared-artifact save with its
 * gate check and Edit Conflict question, copy, invitation and compare.
 *
 * The path is found in the machine's own graph (the shortest one that passes the flow's
 * interesting states on the way to its goal). Every event of the path then happens in Chromium:
 * a user event is a click or typing, and the answer of an invoked actor is the real server's
 * answer to the page's request, which is held until the path lets it through (so the page can be
 * checked while it waits) and must be the kind of answer the event says (a success for `done`, a
 * refusal for `error`). Every state the path reaches is checked on the page. An event without a
 * browser step, or a state without a check, fails the test: the machines and the pages cannot
 * drift apart unnoticed.
 *
 * The flows work on data of their own (new accounts, portfolios, shared portfolios and
 * invitations), so that the other journeys find the demo data as seeded.
 */
import type { Page, Route } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AnyEventObject, AnyMachineSnapshot, AnyStateMachine } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import {
  artifactLifecycleMachine,
  SAVED_MESSAGE,
  SHARED_SAVED_MESSAGE,
} from '../src/machines/artifactLifecycle/artifactLifecycleMachine.ts';
import { compareMachine } from '../src/machines/compare/compareMachine.ts';
import { COPIED_MESSAGE, copyArtifactMachine } from '../src/machines/copyArtifact/copyArtifactMachine.ts';
import { INVITATION_MESSAGES, invitationMachine } from '../src/machines/invitation/invitationMachine.ts';
import { LOGIN_FAILED_MESSAGE, LOGIN_FIELD_MESSAGES, loginMachine } from '../src/machines/login/loginMachine.ts';
import {
  PASSWORD_RESET_FIELD_MESSAGES,
  PASSWORD_RESET_MESSAGES,
  passwordResetMachine,
} from '../src/machines/passwordReset/passwordResetMachine.ts';
import {
  OVERWRITE_QUESTION,
  sharedArtifactSaveMachine,
} from '../src/machines/sharedArtifactSave/sharedArtifactSaveMachine.ts';
import { formatDateTime } from '../src/schemas/formatting.ts';
import { FORM_ERROR_MESSAGE } from '../src/schemas/responses.ts';
import { isInvoking, modelEvents, serializeState } from '../tests/model/support/coverage.ts';
import { api, baseUrl, DEMO, outboxFor, setupBrowser, tokenFor, waitForResetLink } from './fixtures.ts';

const browser = setupBrowser();
const stamp = Date.now();
const PASSWORD = 'quartz-river-71';
/** How long a check waits for the page to show what the state says. */
const SETTLE = { timeout: 15_000, interval: 100 };

// ---------------------------------------------------------------------------------------------
// Paths from the machines

type Snapshot = AnyMachineSnapshot;
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
function generatePath(
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
function describePath(path: GeneratedPath): string {
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
async function holdCalls(page: Page, path: GeneratedPath, endpoints: Endpoints): Promise<Record<string, ServerCalls>> {
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
async function replay(path: GeneratedPath, flow: Flow): Promise<string[]> {
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
const statesOf = (path: GeneratedPath) => path.steps.map((step) => JSON.stringify(step.state.value));

/** The server answers the oldest held request: a success for a `done` event, a refusal for an `error` event. */
function serverAnswer(
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
async function expectView<T>(observe: () => Promise<T>, expected: T): Promise<void> {
  await expect.poll(observe, SETTLE).toEqual(expected);
}

const isBusy = async (page: Page, name: string) =>
  (await page.getByRole('button', { name, exact: true }).getAttribute('aria-busy')) === 'true';
const isEnabled = async (page: Page, name: string) => {
  const button = page.getByRole('button', { name, exact: true });
  return (await button.count()) === 1 && (await button.isEnabled());
};
const shows = async (page: Page, text: string) => (await page.getByText(text, { exact: true }).count()) > 0;
const pathname = (page: Page) => new URL(page.url()).pathname;
const hasToken = async (page: Page) => (await page.context().cookies()).some((cookie) => cookie.name === 'jwt');
/** The messages of the alerts on screen (error toasts), oldest first. */
const alerts = (page: Page) =>
  page.getByRole('region', { name: 'Notifications' }).getByRole('alert').locator('p').allTextContents();
/** Which of `messages` the page shows. */
async function shown(page: Page, messages: readonly string[]): Promise<string[]> {
  const found: string[] = [];
  for (const message of messages) if (await shows(page, message)) found.push(message);
  return found.sort();
}

// ---------------------------------------------------------------------------------------------
// Data of the flows' own

interface Account {
  id: number;
  email: string;
  username: string;
  token: string;
}

/** A new teacher, made by the researcher, who set a password through the e-mailed link. */
async function newTeacher(label: string): Promise<Account> {
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
async function newPortfolio(
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
async function newSharedPortfolio(
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
async function pageOf(account: Account | null): Promise<Page> {
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

const apiPath = (path: string) => new RegExp(`^/api/v1${path}$`);

let model: Account;
beforeAll(async () => {
  model = await newTeacher('teacher');
});

// ---------------------------------------------------------------------------------------------
// The flows

describe('critical flows along paths generated from their machines', () => {
  it('login: a refused password, then the right one', async () => {
    const WRONG = 'not-the-password';
    const events = modelEvents<AnyEventObject, Snapshot>(
      [
        { type: 'field.change', field: 'email', value: DEMO.teacher.email },
        { type: 'field.change', field: 'password', value: WRONG },
        { type: 'field.change', field: 'password', value: DEMO.password },
        { type: 'login.submit' },
      ],
      {
        // The server accepts the demo password only.
        login: (s) =>
          s.context.password === DEMO.password
            ? [{ type: 'xstate.done.actor.login', output: { jwt: '', user: {} } }]
            : [{ type: 'xstate.error.actor.login', error: new Error(LOGIN_FAILED_MESSAGE) }],
        fetchMe: () => [{ type: 'xstate.done.actor.fetchMe', output: {} }],
      },
    );
    const path = generatePath(loginMachine, { events }, [
      (step) => step.event.type === 'xstate.error.actor.login',
      (step) => step.state.matches('loggedIn'),
    ]);
    console.log(`login path: ${describePath(path)}`);

    const page = await pageOf(null);
    const calls = await holdCalls(page, path, {
      login: ['POST', apiPath('/auth/local')],
      fetchMe: ['GET', apiPath('/users/me')],
    });
    const loginButton = 'LOGIN';
    const field = (name: string) =>
      name === 'email' ? page.getByLabel('Email') : page.getByLabel('Password', { exact: true });

    const checked = await replay(path, {
      calls,
      states: {
        editing: (s) =>
          expectView(
            async () => ({
              busy: await isBusy(page, loginButton),
              email: await field('email').inputValue(),
              password: await field('password').inputValue(),
              messages: await shown(page, Object.values(LOGIN_FIELD_MESSAGES)),
              alerts: await alerts(page),
              // A refused login is told under the form (not in a toast) until the fields change.
              underForm: await page.locator('form').getByRole('alert').allTextContents(),
              path: pathname(page),
              token: await hasToken(page),
            }),
            {
              busy: false,
              email: s.context.email,
              password: s.context.password,
              messages: Object.values(s.context.fieldErrors as Record<string, string>).sort(),
              alerts: [],
              underForm: s.context.failure === null ? [] : [LOGIN_FAILED_MESSAGE],
              path: '/login',
              token: false,
            },
          ),
        submitting: (s) =>
          expectView(
            async () => ({
              busy: await isBusy(page, loginButton),
              announced: await shows(page, 'Logging in…'),
              sent: calls['login']!.waiting().body,
            }),
            {
              busy: true,
              announced: true,
              sent: { identifier: s.context.email.trim(), password: s.context.password, remember: s.context.remember },
            },
          ),
        loadingUser: () =>
          expectView(async () => ({ busy: await isBusy(page, loginButton), token: await hasToken(page) }), {
            busy: true,
            token: true,
          }),
        loggedIn: () =>
          expectView(
            async () => ({
              path: pathname(page),
              user: await page.getByRole('button', { name: DEMO.teacher.username }).count(),
              alerts: await alerts(page),
              token: await hasToken(page),
            }),
            { path: '/dashboard', user: 1, alerts: [], token: true },
          ),
      },
      events: {
        'xstate.init': async () => {
          await page.goto('/login');
        },
        'field.change': async (event) => {
          await field(String(event['field'])).fill(String(event['value']));
        },
        'login.submit': async () => {
          await page.getByRole('button', { name: loginButton }).click();
        },
        'xstate.done.actor.login': serverAnswer(() => calls['login']!),
        'xstate.error.actor.login': serverAnswer(() => calls['login']!),
        'xstate.done.actor.fetchMe': serverAnswer(() => calls['fetchMe']!),
      },
    });
    expect(checked).toEqual(statesOf(path));
  });

  describe('password reset', () => {
    let account: Account;
    beforeAll(async () => {
      account = await newTeacher('reset');
    });
    const NEW_PASSWORD = 'quartz-river-72';

    it('forgot half: a field message, then the link is sent', async () => {
      const events = modelEvents<AnyEventObject, Snapshot>(
        [{ type: 'field.change', field: 'email', value: account.email }, { type: 'passwordReset.submit' }],
        {
          forgotPassword: () => [{ type: 'xstate.done.actor.forgotPassword', output: { ok: true } }],
        },
      );
      const path = generatePath(passwordResetMachine, { input: { flow: 'forgot' }, events }, [
        (step) => step.event.type === 'passwordReset.submit' && Object.keys(step.state.context.fieldErrors).length > 0,
        (step) => step.state.matches({ forgot: 'sent' }),
      ]);
      console.log(`passwordReset (forgot) path: ${describePath(path)}`);

      const before = outboxFor(account.email).length;
      const page = await pageOf(null);
      const calls = await holdCalls(page, path, { forgotPassword: ['POST', apiPath('/auth/forgot-password')] });
      const messages = [PASSWORD_RESET_FIELD_MESSAGES.emailRequired, PASSWORD_RESET_FIELD_MESSAGES.emailInvalid];

      const checked = await replay(path, {
        calls,
        states: {
          'forgot.editing': (s) =>
            expectView(
              async () => ({
                busy: await isBusy(page, 'SUBMIT'),
                email: await page.getByLabel('Email').inputValue(),
                messages: await shown(page, messages),
                path: pathname(page),
              }),
              {
                busy: false,
                email: s.context.email,
                messages: Object.values(s.context.fieldErrors as Record<string, string>).sort(),
                path: '/forgot-password',
              },
            ),
          'forgot.sending': (s) =>
            expectView(
              async () => ({
                busy: await isBusy(page, 'SUBMIT'),
                announced: await shows(page, 'Sending the reset link…'),
                sent: calls['forgotPassword']!.waiting().body,
              }),
              { busy: true, announced: true, sent: { email: s.context.email.trim() } },
            ),
          'forgot.sent': () =>
            expectView(
              async () => ({
                path: pathname(page),
                told: await shows(page, PASSWORD_RESET_MESSAGES.linkRequested),
                alerts: await alerts(page),
              }),
              {
                path: '/login',
                told: true,
                alerts: [],
              },
            ),
        },
        events: {
          'xstate.init': async () => {
            await page.goto('/forgot-password');
          },
          'field.change': async (event) => {
            await page.getByLabel('Email').fill(String(event['value']));
          },
          'passwordReset.submit': async () => {
            await page.getByRole('button', { name: 'SUBMIT' }).click();
          },
          'xstate.done.actor.forgotPassword': serverAnswer(() => calls['forgotPassword']!),
        },
      });
      expect(checked).toEqual(statesOf(path));
      // The link reached the account's owner.
      expect(await waitForResetLink(account.email, before)).toContain('/reset-password/');
    });

    it('reset half: field messages, then the new password logs in', async () => {
      const sent = outboxFor(account.email).length;
      expect((await api('POST', '/auth/forgot-password', { email: account.email })).status).toBe(200);
      const code = new URL(await waitForResetLink(account.email, sent)).pathname.split('/').pop()!;
      const events = modelEvents<AnyEventObject, Snapshot>(
        [
          { type: 'field.change', field: 'password', value: NEW_PASSWORD },
          { type: 'field.change', field: 'passwordConfirmation', value: NEW_PASSWORD },
          { type: 'passwordReset.submit' },
        ],
        // The code is fresh: the server takes it.
        { resetPassword: () => [{ type: 'xstate.done.actor.resetPassword', output: { jwt: '', user: {} } }] },
      );
      const path = generatePath(passwordResetMachine, { input: { flow: 'reset', code }, events }, [
        (step) => step.event.type === 'passwordReset.submit' && Object.keys(step.state.context.fieldErrors).length > 0,
        (step) => step.state.matches({ reset: 'changed' }),
      ]);
      console.log(`passwordReset (reset) path: ${describePath(path)}`);

      const page = await pageOf(null);
      const calls = await holdCalls(page, path, { resetPassword: ['POST', apiPath('/auth/reset-password')] });
      const field = (name: string) =>
        name === 'password'
          ? page.getByLabel('New Password', { exact: true })
          : page.getByLabel('Confirm New Password');
      const messages = [
        PASSWORD_RESET_FIELD_MESSAGES.passwordRequired,
        PASSWORD_RESET_FIELD_MESSAGES.passwordTooShort,
        PASSWORD_RESET_FIELD_MESSAGES.confirmationRequired,
        PASSWORD_RESET_FIELD_MESSAGES.mismatch,
      ];

      const checked = await replay(path, {
        calls,
        states: {
          'reset.editing': (s) =>
            expectView(
              async () => ({
                busy: await isBusy(page, 'SUBMIT'),
                password: await field('password').inputValue(),
                confirmation: await field('passwordConfirmation').inputValue(),
                messages: await shown(page, messages),
                path: pathname(page),
                token: await hasToken(page),
              }),
              {
                busy: false,
                password: s.context.password,
                confirmation: s.context.passwordConfirmation,
                messages: Object.values(s.context.fieldErrors as Record<string, string>).sort(),
                path: `/reset-password/${code}`,
                token: false,
              },
            ),
          'reset.submitting': (s) =>
            expectView(
              async () => ({
                busy: await isBusy(page, 'SUBMIT'),
                announced: await shows(page, 'Saving your new password…'),
                sent: calls['resetPassword']!.waiting().body,
              }),
              {
                busy: true,
                announced: true,
                sent: { code, password: s.context.password, passwordConfirmation: s.context.passwordConfirmation },
              },
            ),
          'reset.changed': () =>
            expectView(
              async () => ({
                path: pathname(page),
                told: await shows(page, PASSWORD_RESET_MESSAGES.passwordChanged),
                user: await page.getByRole('button', { name: account.username }).count(),
                token: await hasToken(page),
              }),
              { path: '/dashboard', told: true, user: 1, token: true },
            ),
        },
        events: {
          'xstate.init': async () => {
            await page.goto(`/reset-password/${code}`);
          },
          'field.change': async (event) => {
            await field(String(event['field'])).fill(String(event['value']));
          },
          'passwordReset.submit': async () => {
            await page.getByRole('button', { name: 'SUBMIT' }).click();
          },
          'xstate.done.actor.resetPassword': serverAnswer(() => calls['resetPassword']!),
        },
      });
      expect(checked).toEqual(statesOf(path));
      expect((await api('POST', '/auth/local', { identifier: account.email, password: NEW_PASSWORD })).status).toBe(
        200,
      );
    });
  });

  it('parking-lot lifecycle: submitting an unfinished artifact shows what is missing; answered, it is submitted to the portfolio', async () => {
    const portfolio = await newPortfolio(model, 'Lifecycle');
    const created = await api<{ id: number }>(
      'POST',
      `/portfolios/${portfolio.id}/artifacts/responses`,
      { responses: {}, parkingLot: true },
      model.token,
    );
    expect(created.status).toBe(200);
    const artifactId = created.body.id;
    // The model starts from the artifact as the server holds it.
    const stored = await api<Record<string, unknown>>('GET', `/artifacts/${artifactId}`, undefined, model.token);
    expect(stored.body['parkingLot']).toBe(true);

    const LABELS: Record<string, string> = {
      artifactName: 'Artifact Name',
      learningGoal: 'What were students working to learn?',
    };
    const ANSWERS = {
      artifactName: 'Wind tunnel trials',
      learningGoal: 'Students relate the shape of a model car to the drag it meets.',
    };
    const REDIRECT = 'xstate.after.redirectDelay.artifactLifecycle.ready.saved';
    const events = modelEvents<AnyEventObject, Snapshot>(
      [
        { type: 'field.change', key: 'artifactName', value: ANSWERS.artifactName },
        { type: 'field.change', key: 'learningGoal', value: ANSWERS.learningGoal },
        { type: 'artifact.saveToLot' },
        { type: 'artifact.submit' },
        { type: 'artifact.save' },
        { type: REDIRECT },
      ],
      {
        fetchArtifact: () => [{ type: 'xstate.done.actor.fetchArtifact', output: stored.body }],
        // The server stores what was sent; only 'Save to Parking Lot' keeps the artifact in the lot.
        updateArtifact: (s) => [
          {
            type: 'xstate.done.actor.updateArtifact',
            output: {
              ...(s.context.artifact as object),
              responses: s.context.responses,
              parkingLot: s.context.intent === 'saveToLot',
            },
          },
        ],
      },
    );
    const input = { kind: 'personal', portfolioId: portfolio.id, artifactId, readOnly: false };
    const path = generatePath(artifactLifecycleMachine, { input, events }, [
      (step) => step.event.type === 'artifact.submit' && Object.keys(step.state.context.issues).length > 0,
      (step) =>
        step.state.matches({ ready: 'left' }) &&
        (step.state.context.artifact as { parkingLot: boolean }).parkingLot === false,
    ]);
    console.log(`artifactLifecycle path: ${describePath(path)}`);

    const page = await pageOf(model);
    const calls = await holdCalls(page, path, {
      fetchArtifact: ['GET', apiPath(`/artifacts/${artifactId}`)],
      updateArtifact: ['PUT', apiPath(`/artifacts/${artifactId}`)],
    });
    const editPath = `/my-portfolios/${portfolio.id}/artifacts/${artifactId}/edit`;
    const viewPath = `/my-portfolios/${portfolio.id}/artifacts/${artifactId}`;
    const field = (key: string) => page.getByRole('textbox', { name: LABELS[key] ?? key, exact: true });
    const BUTTONS = { saveToLot: 'Save to Parking Lot', submit: 'Submit to Portfolio', save: 'Save' } as const;
    const required = Object.values(LABELS).map((label) => `Field ${label} is required.`);

    const checked = await replay(path, {
      calls,
      states: {
        loading: () =>
          expectView(
            async () => ({
              loading: await page.getByRole('status', { name: 'Loading artifact' }).count(),
              path: pathname(page),
            }),
            {
              loading: 1,
              path: editPath,
            },
          ),
        'ready.editing': (s) => {
          const draft = s.context.draft as Record<string, unknown>;
          const issues = Object.values(s.context.issues as Record<string, string>);
          const lot = (s.context.artifact as { parkingLot: boolean }).parkingLot;
          return expectView(
            async () => ({
              deletable: await isEnabled(page, 'Delete Artifact'),
              name: await field('artifactName').inputValue(),
              goal: await field('learningGoal').inputValue(),
              summary: await shows(page, FORM_ERROR_MESSAGE),
              messages: await shown(page, [...new Set([...required, ...issues])]),
              buttons: [
                await isEnabled(page, BUTTONS.saveToLot),
                await isEnabled(page, BUTTONS.submit),
                await isEnabled(page, BUTTONS.save),
              ],
              question: await page.getByRole('alertdialog').count(),
            }),
            {
              deletable: true,
              name: String(draft['artifactName'] ?? ''),
              goal: String(draft['learningGoal'] ?? ''),
              summary: issues.length > 0,
              messages: [...issues].sort(),
              buttons: [lot, lot, !lot],
              question: 0,
            },
          );
        },
        'ready.saving': (s) => {
          const intent = s.context.intent as keyof typeof BUTTONS;
          return expectView(
            async () => ({ busy: await isBusy(page, BUTTONS[intent]), sent: calls['updateArtifact']!.waiting().body }),
            {
              busy: true,
              sent: { responses: s.context.responses, parkingLot: intent === 'saveToLot' },
            },
          );
        },
        'ready.saved': () =>
          expectView(
            async () => ({
              told: await shows(page, SAVED_MESSAGE),
              locked: await field('artifactName').isDisabled(),
              path: pathname(page),
            }),
            {
              told: true,
              locked: true,
              path: editPath,
            },
          ),
        'ready.left': () =>
          expectView(
            async () => ({
              path: pathname(page),
              heading: await page.getByRole('heading', { name: ANSWERS.artifactName }).count(),
            }),
            {
              path: viewPath,
              heading: 1,
            },
          ),
      },
      events: {
        'xstate.init': async () => {
          await page.goto(editPath);
        },
        'xstate.done.actor.fetchArtifact': serverAnswer(() => calls['fetchArtifact']!),
        'field.change': async (event) => {
          await field(String(event['key'])).fill(String(event['value']));
        },
        'artifact.saveToLot': async () => {
          await page.getByRole('button', { name: BUTTONS.saveToLot, exact: true }).click();
        },
        'artifact.submit': async () => {
          await page.getByRole('button', { name: BUTTONS.submit, exact: true }).click();
        },
        'artifact.save': async () => {
          await page.getByRole('button', { name: BUTTONS.save, exact: true }).click();
        },
        'xstate.done.actor.updateArtifact': serverAnswer(
          () => calls['updateArtifact']!,
          (answer, event) => {
            expect((answer.body as { parkingLot: boolean }).parkingLot).toBe(
              (event['output'] as { parkingLot: boolean }).parkingLot,
            );
          },
        ),
        // Two seconds after the save the artifact view opens.
        [REDIRECT]: async () => {
          await page.waitForURL((url) => url.pathname === viewPath, { timeout: 10_000 });
        },
      },
    });
    expect(checked).toEqual(statesOf(path));
    const saved = await api<{ parkingLot: boolean; responses: Record<string, unknown> }>(
      'GET',
      `/artifacts/${artifactId}`,
      undefined,
      model.token,
    );
    expect(saved.body).toMatchObject({ parkingLot: false, responses: ANSWERS });
  });

  it('shared-artifact save: the gate check finds a later save, YES overwrites it', async () => {
    const shared = await newSharedPortfolio('Gate check PLC', model);
    const source = await newPortfolio(model, 'Gate check source', ['Paper bridges']);
    const copy = await api<{ id: number }>(
      'POST',
      `/artifacts/${source.artifacts[0]}/share`,
      { sharedPortfolioId: shared.id },
      model.token,
    );
    expect(copy.status).toBe(200);
    const artifactId = copy.body.id;
    const loaded = await api<{ updated_at: string; responses: Record<string, unknown> }>(
      'GET',
      `/shared-artifacts/${artifactId}`,
      undefined,
      model.token,
    );
    const NEW_NAME = 'Paper bridges, revised';
    const lead = await tokenFor(DEMO.lead.email);

    // The save starts when Save is pressed on the edit page with a changed title.
    const input = {
      portfolioId: shared.id,
      artifactId,
      responses: { ...loaded.body.responses, artifactName: NEW_NAME },
      updatedAt: loaded.body.updated_at,
    };
    const gate = (type: 'ok' | 'warning') => ({
      type: 'xstate.done.actor.gateCheck',
      output: { type, message: '', updated_at: type === 'ok' ? loaded.body.updated_at : 'later' },
    });
    const events = modelEvents<AnyEventObject, Snapshot>(
      [{ type: 'overwrite.confirm' }, { type: 'overwrite.cancel' }],
      {
        gateCheck: () => [gate('ok'), gate('warning')],
        updateSharedArtifact: () => [{ type: 'xstate.done.actor.updateSharedArtifact', output: {} }],
      },
    );
    const path = generatePath(sharedArtifactSaveMachine, { input, events }, [
      (step) => step.state.matches('confirming'),
      (step) => step.state.matches('saved'),
    ]);
    console.log(`sharedArtifactSave path: ${describePath(path)}`);

    const page = await pageOf(model);
    const calls = await holdCalls(page, path, {
      gateCheck: ['GET', apiPath(`/shared-portfolios/${shared.id}/shared-artifacts/${artifactId}/gate-check`)],
      updateSharedArtifact: ['PUT', apiPath(`/shared-artifacts/${artifactId}`)],
    });
    const editPath = `/shared-portfolios/${shared.id}/artifacts/${artifactId}/edit`;
    const viewPath = `/shared-portfolios/${shared.id}/artifacts/${artifactId}`;
    const title = page.getByRole('textbox', { name: 'Artifact Name', exact: true });
    const dialog = page.getByRole('alertdialog', { name: 'Edit Conflict' });
    let lastGate: {
      type: string;
      message: string;
      updated_at?: string;
      saved_by?: { id: number; username: string } | null;
    } | null = null;
    // Edit Conflict names who saved in between and when, as every date is written; the server's message only when it does not say.
    const conflictWhy = (gate: NonNullable<typeof lastGate>) =>
      gate.saved_by !== undefined && gate.updated_at
        ? `saved this artifact on ${formatDateTime(gate.updated_at)}, after you opened it.`
        : gate.message;

    const waiting = async () => ({
      busy: await isBusy(page, 'Save'),
      question: await dialog.count(),
      title: await title.inputValue(),
    });
    const checked = await replay(path, {
      calls,
      states: {
        checking: () =>
          expectView(
            async () => ({
              ...(await waiting()),
              asked: calls['gateCheck']!.waiting().url.searchParams.get('updated_at'),
            }),
            {
              busy: true,
              question: 0,
              title: NEW_NAME,
              // The gate check asks about the version the page loaded.
              asked: loaded.body.updated_at,
            },
          ),
        confirming: () =>
          expectView(
            async () => ({
              question:
                (await dialog.count()) === 1
                  ? ((await dialog.textContent()) ?? '').includes(
                      `${lastGate ? conflictWhy(lastGate) : ''} ${OVERWRITE_QUESTION}`,
                    )
                  : false,
              buttons: await dialog.getByRole('button').allTextContents(),
            }),
            { question: true, buttons: ['NO', 'YES'] },
          ),
        saving: () =>
          expectView(
            async () => ({
              ...(await waiting()),
              sent: calls['updateSharedArtifact']!.waiting().body as Record<string, unknown>,
            }),
            {
              busy: true,
              question: 0,
              title: NEW_NAME,
              // After an ok the loaded version; after YES the version the gate check reported.
              sent: expect.objectContaining({
                updated_at: lastGate?.type === 'ok' ? loaded.body.updated_at : lastGate?.updated_at,
                responses: expect.objectContaining({ artifactName: NEW_NAME }),
              }) as Record<string, unknown>,
            },
          ),
        saved: () =>
          expectView(async () => ({ told: await shows(page, SHARED_SAVED_MESSAGE), path: pathname(page) }), {
            told: true,
            path: viewPath,
          }),
      },
      events: {
        'xstate.init': async () => {
          await page.goto(editPath);
          await title.fill(NEW_NAME);
          await page.getByRole('button', { name: 'Save', exact: true }).click();
        },
        'xstate.done.actor.gateCheck': async (event) => {
          const expected = (event['output'] as { type: string }).type;
          // A conflict is someone else's save since the page loaded the artifact: the PLC lead saves first.
          const leadSave = {
            responses: {
              ...loaded.body.responses,
              learningGoal: 'Students compare how far paper bridges of three span lengths carry.',
            },
            updated_at: loaded.body.updated_at,
          };
          const others =
            expected === 'warning' ? [await api('PUT', `/shared-artifacts/${artifactId}`, leadSave, lead)] : [];
          expect(
            others.map((r) => r.status),
            JSON.stringify(others.map((r) => r.body)),
          ).toEqual(others.map(() => 200));
          await serverAnswer(
            () => calls['gateCheck']!,
            (answer) => {
              lastGate = answer.body as typeof lastGate;
              expect(lastGate?.type).toBe(expected);
            },
          )(event);
        },
        'overwrite.confirm': async () => {
          await dialog.getByRole('button', { name: 'YES' }).click();
        },
        'overwrite.cancel': async () => {
          await dialog.getByRole('button', { name: 'NO' }).click();
        },
        'xstate.done.actor.updateSharedArtifact': serverAnswer(() => calls['updateSharedArtifact']!),
      },
    });
    expect(checked).toEqual(statesOf(path));
    const stored = await api<{ responses: Record<string, unknown> }>(
      'GET',
      `/shared-artifacts/${artifactId}`,
      undefined,
      model.token,
    );
    expect(stored.body.responses['artifactName']).toBe(NEW_NAME);
  });

  it('copy: an artifact goes to a shared portfolio', async () => {
    const shared = await newSharedPortfolio('Copy target PLC', model);
    const source = await newPortfolio(model, 'Copy source', ['Sound cups']);
    const artifactId = source.artifacts[0]!;
    const artifact = (await api('GET', `/artifacts/${artifactId}`, undefined, model.token)).body;
    const portfolios = (await api<{ id: number; name: string }[]>('GET', '/shared-portfolios', undefined, model.token))
      .body;
    expect(portfolios.map((p) => p.id)).toContain(shared.id);

    const events = modelEvents<AnyEventObject, Snapshot>(
      [
        ...portfolios.map((p) => ({ type: 'target.select', sharedPortfolioId: p.id })),
        { type: 'copy.submit' },
        { type: 'copy.cancel' },
      ],
      {
        fetchArtifact: () => [{ type: 'xstate.done.actor.fetchArtifact', output: artifact }],
        listSharedPortfolios: () => [{ type: 'xstate.done.actor.listSharedPortfolios', output: portfolios }],
        copyArtifact: () => [{ type: 'xstate.done.actor.copyArtifact', output: { id: 0 } }],
      },
    );
    const input = { from: 'artifact', portfolioId: source.id, artifactId, userId: model.id };
    const path = generatePath(copyArtifactMachine, { input, events }, [
      (step) => step.state.matches('copied') && step.state.context.targetId === shared.id,
    ]);
    console.log(`copyArtifact path: ${describePath(path)}`);

    const page = await pageOf(model);
    const calls = await holdCalls(page, path, {
      fetchArtifact: ['GET', apiPath(`/artifacts/${artifactId}`)],
      listSharedPortfolios: ['GET', apiPath('/shared-portfolios')],
      copyArtifact: ['POST', apiPath(`/artifacts/${artifactId}/share`)],
    });
    const copyPath = `/my-portfolios/${source.id}/artifacts/${artifactId}/copy`;
    const radio = (name: string) => page.getByRole('radio', { name, exact: true });
    let copyId = 0;

    const form = async (names: readonly string[]) => {
      const radios: { name: string; checked: boolean; enabled: boolean }[] = [];
      for (const name of names)
        radios.push({ name, checked: await radio(name).isChecked(), enabled: await radio(name).isEnabled() });
      return {
        source: await page.getByText('Sound cups', { exact: true }).count(),
        radios,
        complete: await isEnabled(page, 'COMPLETE COPY'),
        cancel: await isEnabled(page, 'CANCEL'),
        copying: await shows(page, 'Copying artifact to shared portfolio'),
      };
    };
    const names = (s: Snapshot) => (s.context.portfolios as { name: string }[]).map((p) => p.name);
    const checked = await replay(path, {
      calls,
      states: {
        loading: () =>
          expectView(
            async () => ({
              heading: await page.getByRole('heading', { level: 1, name: 'Copy Artifact' }).count(),
              loading: await page.getByRole('status', { name: 'Loading artifact' }).count(),
              radios: await page.getByRole('radio').count(),
            }),
            { heading: 1, loading: 1, radios: 0 },
          ),
        choosing: (s) =>
          expectView(() => form(names(s)), {
            source: 1,
            radios: (s.context.portfolios as { id: number; name: string }[]).map((p) => ({
              name: p.name,
              checked: p.id === s.context.targetId,
              enabled: true,
            })),
            complete: s.context.targetId !== null,
            cancel: true,
            copying: false,
          }),
        copying: (s) =>
          expectView(async () => ({ ...(await form(names(s))), sent: calls['copyArtifact']!.waiting().body }), {
            source: 1,
            radios: (s.context.portfolios as { id: number; name: string }[]).map((p) => ({
              name: p.name,
              checked: p.id === s.context.targetId,
              enabled: false,
            })),
            complete: false,
            cancel: false,
            copying: true,
            sent: { sharedPortfolioId: s.context.targetId },
          }),
        copied: (s) =>
          expectView(async () => ({ told: await shows(page, COPIED_MESSAGE), path: pathname(page) }), {
            told: true,
            // The edit page of the copy opens.
            path: `/shared-portfolios/${String(s.context.targetId)}/artifacts/${copyId}/edit`,
          }),
      },
      events: {
        'xstate.init': async () => {
          await page.goto(copyPath);
        },
        'xstate.done.actor.fetchArtifact': serverAnswer(() => calls['fetchArtifact']!),
        'xstate.done.actor.listSharedPortfolios': serverAnswer(() => calls['listSharedPortfolios']!),
        'target.select': async (event) => {
          const chosen = portfolios.find((p) => p.id === event['sharedPortfolioId'])!;
          await radio(chosen.name).check();
        },
        'copy.submit': async () => {
          await page.getByRole('button', { name: 'COMPLETE COPY' }).click();
        },
        'copy.cancel': async () => {
          await page.getByRole('button', { name: 'CANCEL' }).click();
        },
        'xstate.done.actor.copyArtifact': serverAnswer(
          () => calls['copyArtifact']!,
          (answer) => {
            copyId = (answer.body as { id: number }).id;
          },
        ),
      },
    });
    expect(checked).toEqual(statesOf(path));
    const target = await api<{ sharedArtifacts: { id: number }[] }>(
      'GET',
      `/shared-portfolios/${shared.id}`,
      undefined,
      model.token,
    );
    expect(target.body.sharedArtifacts.map((a) => a.id)).toEqual([copyId]);
  });

  it('invitation: a second thought about deleting it, then it is accepted', async () => {
    const shared = await newSharedPortfolio('Invitation PLC', model, false);
    const invitation = (await api('GET', `/invitations/${shared.invitation}`, undefined, model.token)).body;
    const portfolio = (await api('GET', `/shared-portfolios/${shared.id}`, undefined, model.token)).body;
    const AFTER_ACCEPTED = 'xstate.after.redirectDelay.invitation.accepted';
    const AFTER_DELETED = 'xstate.after.redirectDelay.invitation.deleted';

    const events = modelEvents<AnyEventObject, Snapshot>(
      [
        { type: 'invitation.accept' },
        { type: 'invitation.delete' },
        { type: 'delete.confirm' },
        { type: 'delete.cancel' },
        { type: AFTER_ACCEPTED },
        { type: AFTER_DELETED },
      ],
      {
        fetchInvitation: () => [{ type: 'xstate.done.actor.fetchInvitation', output: invitation }],
        fetchSharedPortfolio: () => [{ type: 'xstate.done.actor.fetchSharedPortfolio', output: portfolio }],
        acceptInvitation: () => [{ type: 'xstate.done.actor.acceptInvitation', output: portfolio }],
        deleteInvitation: () => [{ type: 'xstate.done.actor.deleteInvitation', output: invitation }],
      },
    );
    const path = generatePath(invitationMachine, { input: { invitationId: shared.invitation }, events }, [
      (step) => step.event.type === 'delete.cancel',
      (step, from) => step.state.matches('finished') && from.matches('accepted'),
    ]);
    console.log(`invitation path: ${describePath(path)}`);

    const page = await pageOf(model);
    const calls = await holdCalls(page, path, {
      fetchInvitation: ['GET', apiPath(`/invitations/${shared.invitation}`)],
      fetchSharedPortfolio: ['GET', apiPath(`/shared-portfolios/${shared.id}`)],
      acceptInvitation: ['POST', apiPath(`/invitations/${shared.invitation}/accept`)],
      deleteInvitation: ['DELETE', apiPath(`/invitations/${shared.invitation}`)],
    });
    const invitationPath = `/invitation/${shared.invitation}`;
    const main = page.getByRole('main');
    const question = page.getByRole('alertdialog', { name: 'Delete Invitation' });
    const summary = async () => ({
      title: await page.getByRole('heading', { level: 1, name: `Invitation to Join ${shared.name}` }).count(),
      from: await shows(page, `${DEMO.lead.username} (${DEMO.lead.email})`),
      accept: await isEnabled(page, 'Accept Invitation'),
      delete: await isEnabled(page, 'Delete Invitation'),
      question: await question.count(),
      path: pathname(page),
    });

    const checked = await replay(path, {
      calls,
      states: {
        loading: () =>
          expectView(
            async () => ({
              loading: await page.getByRole('status', { name: 'Loading invitation' }).count(),
              buttons: await main.getByRole('button').count(),
            }),
            {
              loading: 1,
              buttons: 0,
            },
          ),
        pending: () =>
          expectView(summary, { title: 1, from: true, accept: true, delete: true, question: 0, path: invitationPath }),
        confirmingDelete: () =>
          expectView(
            async () => ({
              asks:
                (await question.count()) === 1 &&
                (await question.getByText('Are you sure you want to delete this invitation?').count()) === 1,
              yes: await question.getByRole('button', { name: 'YES' }).isEnabled(),
            }),
            { asks: true, yes: true },
          ),
        accepting: () =>
          expectView(async () => ({ ...(await summary()), busy: await isBusy(page, 'Accept Invitation') }), {
            title: 1,
            from: true,
            accept: false,
            delete: false,
            question: 0,
            path: invitationPath,
            busy: true,
          }),
        accepted: () =>
          expectView(
            async () => ({
              told: await shows(page, INVITATION_MESSAGES.accepted),
              accept: await isEnabled(page, 'Accept Invitation'),
              delete: await isEnabled(page, 'Delete Invitation'),
            }),
            { told: true, accept: false, delete: false },
          ),
        finished: () => expectView(async () => ({ path: pathname(page) }), { path: '/dashboard' }),
      },
      events: {
        'xstate.init': async () => {
          await page.goto(invitationPath);
        },
        'xstate.done.actor.fetchInvitation': serverAnswer(() => calls['fetchInvitation']!),
        'xstate.done.actor.fetchSharedPortfolio': serverAnswer(() => calls['fetchSharedPortfolio']!),
        'invitation.delete': async () => {
          await page.getByRole('button', { name: 'Delete Invitation', exact: true }).click();
        },
        'delete.cancel': async () => {
          await question.getByRole('button', { name: 'NO' }).click();
        },
        'delete.confirm': async () => {
          await question.getByRole('button', { name: 'YES' }).click();
        },
        'invitation.accept': async () => {
          await page.getByRole('button', { name: 'Accept Invitation', exact: true }).click();
        },
        'xstate.done.actor.acceptInvitation': serverAnswer(() => calls['acceptInvitation']!),
        'xstate.done.actor.deleteInvitation': serverAnswer(() => calls['deleteInvitation']!),
        // A second after the answer the dashboard opens.
        [AFTER_ACCEPTED]: async () => {
          await page.waitForURL((url) => url.pathname === '/dashboard', { timeout: 10_000 });
        },
        [AFTER_DELETED]: async () => {
          await page.waitForURL((url) => url.pathname === '/dashboard', { timeout: 10_000 });
        },
      },
    });
    expect(checked).toEqual(statesOf(path));
    const mine = await api<{ id: number }[]>('GET', '/shared-portfolios', undefined, model.token);
    expect(mine.body.map((p) => p.id)).toContain(shared.id);
  });

  it('compare: two artifacts side by side, a third replaces the second, compare mode ends', async () => {
    const NAMES = ['Wind vanes', 'Rain gauges', 'Cloud journals'];
    const portfolio = await newPortfolio(model, 'Compare', NAMES);
    const nameOf = new Map(portfolio.artifacts.map((id, i) => [id, NAMES[i]!]));
    const events = modelEvents<AnyEventObject, Snapshot>([
      { type: 'compare.toggle' },
      ...portfolio.artifacts.map((artifactId) => ({ type: 'compare.pick', artifactId })),
    ]);
    const path = generatePath(compareMachine, { events }, [
      (step, from) =>
        step.event.type === 'compare.pick' && from.matches({ on: 'pair' }) && step.state.matches({ on: 'pair' }),
      (step) => step.state.matches('off'),
    ]);
    console.log(`compare path: ${describePath(path)}`);

    const page = await pageOf(model);
    const toggle = page.getByRole('checkbox', { name: 'Compare', exact: true });
    const view = async () => {
      const region = page.getByRole('region', { name: 'Compare Artifacts' });
      const boxes = page.getByRole('checkbox', { name: /^Compare ./ });
      return {
        toggle: await toggle.isChecked(),
        rowBoxes: await boxes.count(),
        shown: (await region.count()) === 1 ? await region.getByRole('heading', { level: 3 }).allTextContents() : [],
        ticked: (
          await boxes.evaluateAll((els) =>
            els.filter((el) => (el as HTMLInputElement).checked).map((el) => el.getAttribute('aria-label') ?? ''),
          )
        ).sort(),
        detailPane: await page.getByRole('region', { name: 'Artifact details' }).count(),
      };
    };
    const expected = (s: Snapshot) => {
      const on = s.matches('on');
      const selection = s.context.selection as number[];
      return {
        toggle: on,
        rowBoxes: on ? NAMES.length : 0,
        shown: selection.map((id) => nameOf.get(id)!),
        ticked: selection.map((id) => `Compare ${nameOf.get(id)!}`).sort(),
        detailPane: on ? 0 : 1,
      };
    };

    const checked = await replay(path, {
      calls: {},
      states: {
        off: (s) => expectView(view, expected(s)),
        on: (s) => expectView(view, expected(s)),
      },
      events: {
        'xstate.init': async () => {
          await page.goto(`/my-portfolios/${portfolio.id}`);
          await page.getByRole('grid', { name: 'Artifacts' }).getByText(NAMES[0]!).waitFor();
        },
        'compare.toggle': async () => {
          await toggle.click();
        },
        'compare.pick': async (event) => {
          await page
            .getByRole('checkbox', { name: `Compare ${nameOf.get(event['artifactId'] as number)!}`, exact: true })
            .click();
        },
      },
    });
    expect(checked).toEqual(statesOf(path));
  });
});
