import { act, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import {
  scoringMachine,
  type ScoringEvent,
  type ScoringLoaded,
  type ScoringRef,
} from '../../src/machines/scoring/scoringMachine.ts';
import { ScoringLogicContext, useScoringActor } from '../../src/machines/scoring/useScoring.ts';
import type { Score, ScoreBody } from '../../src/schemas/rubrics.ts';
import { ApiError } from '../../src/services/errors.ts';
import { makeScore, TALK_RUBRIC } from '../../src/test/scoringFixtures.ts';
import { ScoreList } from '../../src/views/scoring/ScoreList.tsx';
import { ScorePicker } from '../../src/views/scoring/ScorePicker.tsx';
import { checkStates } from './support/checkStates.ts';
import { coverageInspector, isInvoking } from './support/coverage.ts';
import { controllableActor } from './support/deferred.ts';
import { checkedShortestPaths, modelEvent, pathName } from './support/paths.ts';
import { trackCoverage } from './support/report.ts';

// Scoring a shared artifact (decision 055), driven through the picker under a video player and the
// score list with its whole-artifact picker.
trackCoverage(scoringMachine);

type Snapshot = SnapshotFrom<typeof scoringMachine>;
type Step = { event: unknown };

const VIDEO = 77;
const NOW = 12.4;
const MINE = makeScore(900, VIDEO, 3, { note: 'Groups argued it out.' });
const LOADED: ScoringLoaded = {
  chosen: { rubric: TALK_RUBRIC, abilities: { score: true, choose: false } },
  scores: [MINE],
};
const SAVED = makeScore(901, VIDEO, NOW, { criterion: { id: 502, code: '', label: 'Questioning' } });
const refused = new ApiError(400, 'invalid_score', 'This level is not one of the levels of this criterion.', '');
const ev = modelEvent<ScoringEvent>();

/** Few paths, every transition: each choice is made once, from the untouched draft. */
function events(snapshot: unknown): ScoringEvent[] {
  const s = snapshot as Snapshot;
  const c = s.context;
  const list: ScoringEvent[] = [];
  if (isInvoking(s, 'loadScoring'))
    list.push(
      ev('xstate.done.actor.loadScoring', { output: LOADED }),
      ev('xstate.error.actor.loadScoring', { error: refused }),
    );
  if (s.matches('loadFailed')) list.push({ type: 'retry' });
  const untouched = c.scores.length === 1 && c.error === null;
  if (s.matches({ ready: 'idle' }) && untouched)
    list.push(
      { type: 'score.pickCriterion', criterion: 501, anchor: { media: VIDEO, start: NOW } },
      { type: 'score.delete', id: MINE.id },
    );
  if (s.matches({ ready: 'picking' })) {
    const fresh = c.criterion === 501 && c.note === '' && c.error === null;
    if (fresh)
      list.push(
        { type: 'note.change', text: 'Open questions.' },
        { type: 'score.pickCriterion', criterion: 502, anchor: { media: VIDEO, start: NOW } },
        { type: 'score.cancel' },
      );
    if (c.criterion === 502 && c.error === null) list.push({ type: 'score.pickLevel', level: 516 });
    if (c.error !== null) list.push({ type: 'score.cancel' });
  }
  if (isInvoking(s, 'saveScore'))
    list.push(
      ev('xstate.done.actor.saveScore', { output: SAVED }),
      ev('xstate.error.actor.saveScore', { error: refused }),
    );
  if (isInvoking(s, 'removeScore'))
    list.push(
      ev('xstate.done.actor.removeScore', { output: MINE }),
      ev('xstate.error.actor.removeScore', { error: refused }),
    );
  return list;
}

function Harness() {
  const scoring: ScoringRef = useScoringActor({ sharedPortfolioId: 7, artifactId: 70 });
  return (
    <>
      <ScorePicker
        scoring={scoring}
        place={{ kind: 'video', mediaId: VIDEO, time: NOW, now: () => NOW, capture: capture }}
      />
      <ScoreList scoring={scoring} videos={[]} />
    </>
  );
}
const capture = vi.fn();

function setup() {
  const load = controllableActor<ScoringLoaded>();
  const save = controllableActor<Score, ScoreBody>();
  const remove = controllableActor<Score, { id: number }>();
  const logic = scoringMachine.provide({
    actors: { loadScoring: load.logic as never, saveScore: save.logic, removeScore: remove.logic },
  });
  render(
    <ScoringLogicContext.Provider value={{ logic, inspect: coverageInspector }}>
      <Harness />
    </ScoringLogicContext.Provider>,
  );
  return { load, save, remove, ux: userEvent.setup() };
}

const videoPicker = () => screen.getByRole('group', { name: /^Score at 0:12/ });
const list = () => screen.getByRole('region', { name: 'Rubric scores' });

const checks = {
  loading: () => {
    expect(screen.queryByRole('group')).toBeNull();
    expect(screen.queryByRole('heading')).toBeNull();
  },
  loadFailed: () => {
    expect(screen.getByRole('alert').textContent).toContain('The rubric scores could not be loaded.');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  },
  'ready.idle': (s: Snapshot) => {
    expect(list().querySelectorAll('li[id^="score-"]')).toHaveLength(s.context.scores.length);
    expect(screen.queryByLabelText('Note (optional)')).toBeNull();
    expect(within(videoPicker()).getByRole('button', { name: 'D1 Student talk' }).hasAttribute('disabled')).toBe(false);
    if (s.context.error) expect(within(list()).getByRole('alert').textContent).toBe(refused.message);
  },
  'ready.picking': (s: Snapshot) => {
    const picker = videoPicker();
    const chosen = within(picker).getByRole('button', { pressed: true });
    expect(chosen.textContent).toBe(s.context.criterion === 501 ? 'D1 Student talk' : 'Questioning');
    expect((within(picker).getByLabelText('Note (optional)') as HTMLTextAreaElement).value).toBe(s.context.note);
    // The whole-artifact picker waits while this one is open.
    const whole = screen.getByRole('group', { name: /^Score the whole artifact/ });
    expect(within(whole).getByRole('button', { name: 'D1 Student talk' }).hasAttribute('disabled')).toBe(true);
    if (s.context.error) expect(within(picker).getByRole('alert').textContent).toBe(refused.message);
    else expect(within(picker).queryByRole('alert')).toBeNull();
  },
  'ready.saving': () => {
    expect(videoPicker().getAttribute('aria-busy')).toBe('true');
    expect(within(videoPicker()).getByRole('button', { name: 'Cancel' }).hasAttribute('disabled')).toBe(true);
  },
  'ready.deleting': () => {
    expect(within(list()).getByRole('button', { name: /^Delete the score/ }).textContent).toBe('Deleting…');
  },
};

describe('scoring model', () => {
  const paths = checkedShortestPaths(
    scoringMachine,
    { input: { sharedPortfolioId: 7, artifactId: 70 }, events },
    checks,
    6,
  );
  for (const path of paths) {
    it(`${pathName(path)}`, async () => {
      const h = setup();
      const settle = async (
        call: { deferred: { resolve: (v: never) => void; reject: (e: unknown) => void } },
        step: Step,
      ) => {
        const e = step.event as { type: string; output?: unknown; error?: unknown };
        await act(async () =>
          e.type.startsWith('xstate.done') ? call.deferred.resolve(e.output as never) : call.deferred.reject(e.error),
        );
      };
      await path.test({
        states: checkStates<Snapshot>(checks),
        events: {
          'xstate.done.actor.loadScoring': (step: Step) => settle(h.load.next(), step),
          'xstate.error.actor.loadScoring': (step: Step) => settle(h.load.next(), step),
          retry: () => h.ux.click(screen.getByRole('button', { name: 'Try again' })),
          'score.pickCriterion': async (step: Step) => {
            const { criterion } = step.event as { criterion: number };
            const name = criterion === 501 ? 'D1 Student talk' : 'Questioning';
            await h.ux.click(within(videoPicker()).getByRole('button', { name }));
            expect(capture).toHaveBeenCalled();
          },
          'note.change': (step: Step) => {
            fireEvent.change(screen.getByLabelText('Note (optional)'), {
              target: { value: (step.event as { text: string }).text },
            });
          },
          'score.pickLevel': () => h.ux.click(within(videoPicker()).getByRole('button', { name: /^Open \(3\)/ })),
          'score.cancel': () => h.ux.click(within(videoPicker()).getByRole('button', { name: 'Cancel' })),
          'score.delete': () => h.ux.click(within(list()).getByRole('button', { name: /^Delete the score/ })),
          'xstate.done.actor.saveScore': async (step: Step) => {
            const call = h.save.next();
            expect(call.input).toEqual({
              sharedArtifact: 70,
              rubric: TALK_RUBRIC.id,
              criterion: 502,
              level: 516,
              moment: { media: VIDEO, start: NOW },
              note: '',
            });
            await settle(call, step);
          },
          'xstate.error.actor.saveScore': (step: Step) => settle(h.save.next(), step),
          'xstate.done.actor.removeScore': async (step: Step) => {
            const call = h.remove.next();
            expect(call.input).toEqual({ id: MINE.id });
            await settle(call, step);
          },
          'xstate.error.actor.removeScore': (step: Step) => settle(h.remove.next(), step),
        },
      });
    });
  }
});
