/**
 * Copying an artifact to a shared portfolio and answering an invitation, end to end, each along one
 * path generated from its machine.
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
import { COPIED_MESSAGE, copyArtifactMachine } from '../../src/machines/copyArtifact/copyArtifactMachine.ts';
import { copyTargets, toCopySource } from '../../src/machines/copySource/copySourceMachine.ts';
import type { Artifact } from '../../src/schemas/artifact.ts';
import type { SharedPortfolioListItem } from '../../src/schemas/sharedPortfolio.ts';
import { INVITATION_MESSAGES, invitationMachine } from '../../src/machines/invitation/invitationMachine.ts';
import { modelEvents } from '../../tests/model/support/coverage.ts';
import { api, DEMO } from '../fixtures.ts';
import {
  type Account,
  apiPath,
  describePath,
  expectView,
  generatePath,
  holdCalls,
  isBusy,
  isEnabled,
  newPortfolio,
  newSharedPortfolio,
  newTeacher,
  pageOf,
  pathname,
  replay,
  serverAnswer,
  shows,
  type Snapshot,
  statesOf,
  setupFlows,
} from './support.ts';

setupFlows();

let model: Account;
beforeAll(async () => {
  model = await newTeacher('teacher');
});

describe('critical flows along paths generated from their machines', () => {
  it('copy: an artifact goes to a shared portfolio', async () => {
    const shared = await newSharedPortfolio('Copy target PLC', model);
    const source = await newPortfolio(model, 'Copy source', ['Sound cups']);
    const artifactId = source.artifacts[0]!;
    const artifact = toCopySource(
      (await api<Artifact>('GET', `/artifacts/${artifactId}`, undefined, model.token)).body,
    );
    const portfolios = (await api<SharedPortfolioListItem[]>('GET', '/shared-portfolios', undefined, model.token)).body;
    expect(portfolios.map((p) => p.id)).toContain(shared.id);

    const events = modelEvents<AnyEventObject, Snapshot>(
      [
        ...portfolios.map((p) => ({ type: 'target.select', sharedPortfolioId: p.id })),
        { type: 'copy.submit' },
        { type: 'copy.cancel' },
      ],
      {
        // Loading (the artifact, then the shared portfolios) ends with both: copySource's own paths are in tests/model.
        copySource: () => [
          {
            type: 'xstate.done.actor.copySource',
            output: {
              kind: 'loaded',
              source: artifact,
              portfolios: copyTargets({ from: 'artifact', source: artifact }, portfolios),
            },
          },
        ],
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
      // The first request of loading is held; the list of shared portfolios follows its answer.
      copySource: ['GET', apiPath(`/artifacts/${artifactId}`)],
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
        'xstate.done.actor.copySource': serverAnswer(() => calls['copySource']!),
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
});
