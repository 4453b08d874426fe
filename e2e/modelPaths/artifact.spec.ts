/**
 * The parking-lot lifecycle of an artifact and compare, end to end, each along one path generated
 * from its machine.
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
import {
  artifactLifecycleMachine,
  SAVED_MESSAGE,
} from '../../src/machines/artifactLifecycle/artifactLifecycleMachine.ts';
import { compareMachine } from '../../src/machines/compare/compareMachine.ts';
import { FORM_ERROR_MESSAGE } from '../../src/schemas/responses.ts';
import { modelEvents } from '../../tests/model/support/coverage.ts';
import { api } from '../fixtures.ts';
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

let model: Account;
beforeAll(async () => {
  model = await newTeacher('teacher');
});

describe('critical flows along paths generated from their machines', () => {
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
        // The save (the page's `artifactSave` child: one PUT) ends saved; the server stores what was
        // sent, and only 'Save to Parking Lot' keeps the artifact in the lot.
        artifactSave: (s) => [
          {
            type: 'xstate.done.actor.artifactSave',
            output: {
              outcome: 'saved',
              artifact: {
                ...(s.context.artifact as object),
                responses: s.context.responses,
                parkingLot: s.context.intent === 'saveToLot',
              },
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
      artifactSave: ['PUT', apiPath(`/artifacts/${artifactId}`)],
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
            async () => ({ busy: await isBusy(page, BUTTONS[intent]), sent: calls['artifactSave']!.waiting().body }),
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
        'xstate.done.actor.artifactSave': serverAnswer(
          () => calls['artifactSave']!,
          (answer, event) => {
            expect((answer.body as { parkingLot: boolean }).parkingLot).toBe(
              (event['output'] as { artifact: { parkingLot: boolean } }).artifact.parkingLot,
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
      const headings =
        (await region.count()) === 1 ? await region.getByRole('heading', { level: 3 }).allTextContents() : [];
      return {
        toggle: await toggle.isChecked(),
        rowBoxes: await boxes.count(),
        shown: headings.filter((h) => !h.startsWith('Differences from')),
        differences: headings.find((h) => h.startsWith('Differences from')) ?? null,
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
        // Two artifacts side by side come with their differences.
        differences:
          selection.length === 2
            ? `Differences from “${nameOf.get(selection[0]!)!}” to “${nameOf.get(selection[1]!)!}”`
            : null,
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
