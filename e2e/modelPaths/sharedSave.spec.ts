/**
 * The shared-artifact save with its gate check and its merge with a save in between, end to end,
 * along one path generated from its machine.
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
import { SHARED_SAVED_MESSAGE } from '../../src/machines/artifactLifecycle/artifactLifecycleMachine.ts';
import { mergedMessage } from '../../src/machines/sharedArtifactSave/mergeSources.ts';
import { sharedArtifactSaveMachine } from '../../src/machines/sharedArtifactSave/sharedArtifactSaveMachine.ts';
import type { Structure } from '../../src/schemas/structure.ts';
import { modelEvents } from '../../tests/model/support/coverage.ts';
import { api, DEMO, tokenFor } from '../fixtures.ts';
import {
  type Account,
  apiPath,
  describePath,
  expectView,
  generatePath,
  holdCalls,
  isBusy,
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
  it('shared-artifact save: the gate check finds a later save of another answer, which the save merges and keeps', async () => {
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
    const loaded = await api<{
      updated_at: string;
      version: number;
      structure: Structure;
      responses: Record<string, string>;
    }>('GET', `/shared-artifacts/${artifactId}`, undefined, model.token);
    const NEW_NAME = 'Paper bridges, revised';
    const LEAD_GOAL = 'Students compare how far paper bridges of three span lengths carry.';
    const lead = await tokenFor(DEMO.lead.email);

    // The save starts when Save is pressed on the edit page with a changed title.
    const input = {
      portfolioId: shared.id,
      artifactId,
      responses: { ...loaded.body.responses, artifactName: NEW_NAME },
      updatedAt: loaded.body.updated_at,
      version: loaded.body.version,
      questions: loaded.body.structure,
    };
    // The lead's save in between changed only the goal: the merge takes it and keeps the new title.
    const theirs = { ...loaded.body.responses, learningGoal: LEAD_GOAL };
    const merge = {
      type: 'xstate.done.actor.loadMergeSources',
      output: {
        base: { number: loaded.body.version, responses: loaded.body.responses, files: [] },
        current: { number: loaded.body.version + 1, responses: theirs, files: [] },
        updatedAt: 'later',
        people: [DEMO.lead.username],
      },
    };
    const gate = (type: 'ok' | 'warning') => ({
      type: 'xstate.done.actor.gateCheck',
      output: { type, message: '', updated_at: type === 'ok' ? loaded.body.updated_at : 'later' },
    });
    const events = modelEvents<AnyEventObject, Snapshot>([{ type: 'merge.save' }, { type: 'merge.cancel' }], {
      gateCheck: () => [gate('ok'), gate('warning')],
      loadMergeSources: () => [merge],
      updateSharedArtifact: () => [{ type: 'xstate.done.actor.updateSharedArtifact', output: {} }],
    });
    const path = generatePath(sharedArtifactSaveMachine, { input, events }, [
      (step) => step.state.matches('merging'),
      (step) => step.state.matches('saved'),
    ]);
    console.log(`sharedArtifactSave path: ${describePath(path)}`);

    const page = await pageOf(model);
    const calls = await holdCalls(page, path, {
      gateCheck: ['GET', apiPath(`/shared-portfolios/${shared.id}/shared-artifacts/${artifactId}/gate-check`)],
      updateSharedArtifact: ['PUT', apiPath(`/shared-artifacts/${artifactId}`)],
      // The merge's reads end with the history's newest page: holding it holds the merge.
      loadMergeSources: ['GET', apiPath(`/shared-artifacts/${artifactId}/versions`)],
    });
    const editPath = `/shared-portfolios/${shared.id}/artifacts/${artifactId}/edit`;
    const viewPath = `/shared-portfolios/${shared.id}/artifacts/${artifactId}`;
    const title = page.getByRole('textbox', { name: 'Artifact Name', exact: true });
    const dialog = page.getByRole('alertdialog', { name: 'Edit Conflict' });
    let lastGate: { type: string; updated_at?: string } | null = null;
    let leadSaved = '';

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
        merging: () =>
          expectView(
            async () => ({
              ...(await waiting()),
              page: calls['loadMergeSources']!.waiting().url.searchParams.get('limit'),
            }),
            // Who saved since the loaded version: one version.
            { busy: true, question: 0, title: NEW_NAME, page: '1' },
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
              // After an ok the loaded version; after a merge the lead's stored one, with the lead's goal kept.
              sent: expect.objectContaining({
                updated_at: lastGate?.type === 'ok' ? loaded.body.updated_at : leadSaved,
                responses: expect.objectContaining({
                  artifactName: NEW_NAME,
                  learningGoal: lastGate?.type === 'ok' ? loaded.body.responses['learningGoal'] : LEAD_GOAL,
                }),
              }) as Record<string, unknown>,
            },
          ),
        saved: () =>
          expectView(
            async () => ({
              told: await shows(page, SHARED_SAVED_MESSAGE),
              merged: await shows(page, mergedMessage([DEMO.lead.username], ['learningGoal'], loaded.body.structure)),
              path: pathname(page),
            }),
            { told: true, merged: lastGate?.type === 'warning', path: viewPath },
          ),
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
          const leadSave = { responses: theirs, updated_at: loaded.body.updated_at };
          const others =
            expected === 'warning'
              ? [await api<{ updated_at: string }>('PUT', `/shared-artifacts/${artifactId}`, leadSave, lead)]
              : [];
          leadSaved = others[0]?.body.updated_at ?? '';
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
        'xstate.done.actor.loadMergeSources': serverAnswer(() => calls['loadMergeSources']!),
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
    expect(stored.body.responses['learningGoal']).toBe(LEAD_GOAL);
  });
});
