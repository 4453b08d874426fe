/**
 * The login and password-reset flows end to end, each along one path generated from its machine.
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
import { beforeAll, describe, expect, it } from 'vitest';
import type { AnyEventObject } from 'xstate';
import { LOGIN_FAILED_MESSAGE, LOGIN_FIELD_MESSAGES, loginMachine } from '../../src/machines/login/loginMachine.ts';
import {
  PASSWORD_RESET_FIELD_MESSAGES,
  PASSWORD_RESET_MESSAGES,
  passwordResetMachine,
} from '../../src/machines/passwordReset/passwordResetMachine.ts';
import { modelEvents } from '../../tests/model/support/coverage.ts';
import { api, DEMO, outboxFor, waitForResetLink } from '../fixtures.ts';
import {
  type Account,
  alerts,
  apiPath,
  describePath,
  expectView,
  generatePath,
  hasToken,
  holdCalls,
  isBusy,
  newTeacher,
  pageOf,
  pathname,
  replay,
  serverAnswer,
  shown,
  shows,
  type Snapshot,
  statesOf,
  setupFlows,
} from './support.ts';

setupFlows();

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
      (step) => step.state.matches('form.loggedIn'),
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
        'form.editing': (s) =>
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
        'form.submitting': (s) =>
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
        'form.loadingUser': () =>
          expectView(async () => ({ busy: await isBusy(page, loginButton), token: await hasToken(page) }), {
            busy: true,
            token: true,
          }),
        'form.loggedIn': () =>
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
});
