import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { GateCheckResponse } from '../../schemas/sharedArtifact.ts';
import type { SharedArtifact } from '../../schemas/sharedPortfolio.ts';
import type { Structure } from '../../schemas/structure.ts';
import { ApiError } from '../../services/errors.ts';
import { makeSharedArtifact } from '../../test/sharedFixtures.ts';
import type { Notice } from '../shared/notice.ts';
import type { MergeSources, MergeSourcesInput } from './mergeSources.ts';
import { sharedArtifactSaveMachine, type GateCheckInput, type SharedUpdateInput } from './sharedArtifactSaveMachine.ts';

const LOADED = '2026-03-01T10:00:00.000Z';
const STORED = '2026-03-01T10:05:00.000Z';
const NEWEST = '2026-03-01T10:07:00.000Z';
const QUESTIONS: Structure = [
  { key: 'q1', text: 'Title', type: 'shortText' },
  { key: 'q2', text: 'Student thinking', type: 'longText' },
];
const saved = makeSharedArtifact({ id: 12 });
const ok: GateCheckResponse = { type: 'ok', message: 'ok' };
const warning: GateCheckResponse = { type: 'warning', message: 'Someone saved.', updated_at: STORED };
const stale = new ApiError(409, 'conflict', 'Someone saved again.', '');

/** The base (version 3, what was loaded), and theirs stored since. */
const sources = (current: MergeSources['current'], updatedAt = STORED, people = ['Pat']): MergeSources => ({
  base: { number: 3, responses: { q1: 'Ramps', q2: 'Heavy is fast' }, files: [1] },
  current,
  updatedAt,
  people,
});
const theirsQ2 = sources({ number: 4, responses: { q1: 'Ramps', q2: 'Mass does not matter' }, files: [1, 5] });
const theirsQ1 = sources({ number: 4, responses: { q1: 'Ramp races', q2: 'Heavy is fast' }, files: [1] });

function start(gate: GateCheckResponse[], puts: (Error | SharedArtifact)[], merges: MergeSources[] = []) {
  const notices: Notice[] = [];
  const sent: SharedUpdateInput[] = [];
  const asked: MergeSourcesInput[] = [];
  const actor = createActor(
    sharedArtifactSaveMachine.provide({
      actors: {
        gateCheck: fromPromise<GateCheckResponse, GateCheckInput>(async () => gate.shift() ?? ok),
        updateSharedArtifact: fromPromise<SharedArtifact, SharedUpdateInput>(async ({ input }) => {
          sent.push(input);
          const answer = puts.shift() ?? saved;
          if (answer instanceof Error) throw answer;
          return answer;
        }),
        loadMergeSources: fromPromise<MergeSources, MergeSourcesInput>(async ({ input }) => {
          asked.push(input);
          const next = merges.shift();
          if (!next) throw new Error('no merge expected');
          return next;
        }),
      },
      actions: { notify: (_, notice) => notices.push(notice) },
    }),
    {
      input: {
        portfolioId: 3,
        artifactId: 12,
        responses: { q1: 'Ramp races', q2: 'Heavy is fast' },
        updatedAt: LOADED,
        version: 3,
        questions: QUESTIONS,
      },
    },
  ).start();
  return { actor, notices, sent, asked };
}

describe('sharedArtifactSaveMachine', () => {
  it('isOk: nobody saved in between: the PUT carries the loaded version and nothing is merged', async () => {
    const { actor, sent, asked, notices } = start([ok], []);
    await waitFor(actor, (s) => s.status === 'done');
    expect(sent).toEqual([{ artifactId: 12, responses: { q1: 'Ramp races', q2: 'Heavy is fast' }, updatedAt: LOADED }]);
    expect(asked).toEqual([]);
    expect(notices).toEqual([]);
    expect(actor.getSnapshot().output).toEqual({ outcome: 'saved', artifact: saved });
  });

  it('a warning merges from the loaded version: their field is kept, saved against theirs, and the person told', async () => {
    const { actor, sent, asked, notices } = start([warning], [], [theirsQ2]);
    await waitFor(actor, (s) => s.status === 'done');
    expect(asked).toEqual([{ artifactId: 12, basedOn: 3 }]);
    expect(sent).toEqual([
      { artifactId: 12, responses: { q1: 'Ramp races', q2: 'Mass does not matter' }, updatedAt: STORED },
    ]);
    expect(notices).toEqual([
      { message: "Saved with Pat's changes to “Student thinking” and “Files”.", tone: 'success' },
    ]);
  });

  it('a 409 after an ok merges too; a field both changed the same way is no conflict and not theirs', async () => {
    const { actor, sent, notices } = start([ok], [stale], [theirsQ1]);
    await waitFor(actor, (s) => s.status === 'done');
    expect(sent.map((p) => p.updatedAt)).toEqual([LOADED, STORED]);
    expect(notices).toEqual([]);
  });

  it('hasConflicts: waits for a choice per field; save is refused until each has one', async () => {
    const both = sources({ number: 4, responses: { q1: 'Ramps!', q2: 'Theirs' }, files: [1] });
    const { actor, sent } = start([warning], [], [both]);
    await waitFor(actor, (s) => s.matches('resolving'));
    expect(actor.getSnapshot().context.merge?.result.conflicts.map((c) => c.key)).toEqual(['q1']);
    actor.send({ type: 'merge.save' });
    actor.send({ type: 'merge.choose', key: 'q2', choice: { pick: 'mine' } });
    expect(actor.getSnapshot().matches('resolving')).toBe(true);
    expect(actor.getSnapshot().context.choices).toEqual({});
    actor.send({ type: 'merge.choose', key: 'q1', choice: { pick: 'theirs' } });
    actor.send({ type: 'merge.save' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(sent).toEqual([{ artifactId: 12, responses: { q1: 'Ramps!', q2: 'Theirs' }, updatedAt: STORED }]);
  });

  it('a 409 after the dialog merges again from the version it resolved against, keeping the choices', async () => {
    const both = sources({ number: 4, responses: { q1: 'Ramps!', q2: 'Heavy is fast' }, files: [1] });
    const third: MergeSources = {
      base: both.current,
      current: { number: 5, responses: { q1: 'Ramps!', q2: 'Friction' }, files: [1] },
      updatedAt: NEWEST,
      people: ['Lee'],
    };
    const { actor, sent, asked, notices } = start([warning], [stale], [both, third]);
    await waitFor(actor, (s) => s.matches('resolving'));
    actor.send({ type: 'merge.choose', key: 'q1', choice: { pick: 'edit', value: 'Ramp rally' } });
    actor.send({ type: 'merge.save' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(asked).toEqual([
      { artifactId: 12, basedOn: 3 },
      { artifactId: 12, basedOn: 4 },
    ]);
    expect(sent).toEqual([
      { artifactId: 12, responses: { q1: 'Ramp rally', q2: 'Heavy is fast' }, updatedAt: STORED },
      { artifactId: 12, responses: { q1: 'Ramp rally', q2: 'Friction' }, updatedAt: NEWEST },
    ]);
    expect(notices).toEqual([{ message: "Saved with Lee's changes to “Student thinking”.", tone: 'success' }]);
  });

  it('cancel in the dialog saves nothing', async () => {
    const both = sources({ number: 4, responses: { q1: 'Ramps!', q2: 'Heavy is fast' }, files: [1] });
    const { actor, sent } = start([warning], [], [both]);
    await waitFor(actor, (s) => s.matches('resolving'));
    actor.send({ type: 'merge.cancel' });
    expect(actor.getSnapshot().output).toEqual({ outcome: 'cancelled' });
    expect(sent).toEqual([]);
  });

  it('a refusing gate check, a failed merge read or a failed PUT stops with the message alerted', async () => {
    const refusal = start([{ type: 'error', message: 'Invalid updated_at parameter.' }], []);
    await waitFor(refusal.actor, (s) => s.status === 'done');
    expect(refusal.notices).toEqual([{ message: 'Invalid updated_at parameter.', tone: 'error' }]);
    const unread = start([warning], [], []);
    await waitFor(unread.actor, (s) => s.status === 'done');
    expect(unread.actor.getSnapshot().output).toMatchObject({ outcome: 'stopped' });
    const forbidden = start([ok], [new ApiError(403, 'forbidden', 'You are no longer a member.', '')]);
    await waitFor(forbidden.actor, (s) => s.status === 'done');
    expect(forbidden.notices).toEqual([{ message: 'You are no longer a member.', tone: 'error' }]);
    expect(forbidden.actor.getSnapshot().output).toEqual({
      outcome: 'stopped',
      error: { kind: 'forbidden', status: 403, message: 'You are no longer a member.' },
    });
  });
});
