import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { GateCheckResponse } from '../../schemas/sharedArtifact.ts';
import type { SharedArtifact } from '../../schemas/sharedPortfolio.ts';
import { ApiError } from '../../services/errors.ts';
import { makeSharedArtifact } from '../../test/sharedFixtures.ts';
import type { Notice } from '../shared/notice.ts';
import { sharedArtifactSaveMachine, type GateCheckInput, type SharedUpdateInput } from './sharedArtifactSaveMachine.ts';

const LOADED = '2026-03-01T10:00:00.000Z';
const STORED = '2026-03-01T10:05:00.000Z';
const NEWEST = '2026-03-01T10:07:00.000Z';
const saved = makeSharedArtifact({ id: 12 });
const ok: GateCheckResponse = { type: 'ok', message: 'ok' };
const warning = (at: string): GateCheckResponse => ({
  type: 'warning',
  message: 'Someone saved this artifact.',
  updated_at: at,
  saved_by: { id: 5, username: 'Pat' },
});
const stale = new ApiError(409, 'conflict', 'Someone saved again.', '');

function start(gate: GateCheckResponse[], puts: (Error | SharedArtifact)[]) {
  const notices: Notice[] = [];
  const checked: GateCheckInput[] = [];
  const sent: SharedUpdateInput[] = [];
  const actor = createActor(
    sharedArtifactSaveMachine.provide({
      actors: {
        gateCheck: fromPromise<GateCheckResponse, GateCheckInput>(async ({ input }) => {
          checked.push(input);
          return gate.shift() ?? ok;
        }),
        updateSharedArtifact: fromPromise<SharedArtifact, SharedUpdateInput>(async ({ input }) => {
          sent.push(input);
          const answer = puts.shift() ?? saved;
          if (answer instanceof Error) throw answer;
          return answer;
        }),
      },
      actions: { notify: (_, notice) => notices.push(notice) },
    }),
    { input: { portfolioId: 3, artifactId: 12, responses: { q1: 'Ramps' }, updatedAt: LOADED } },
  ).start();
  return { actor, notices, checked, sent };
}

describe('sharedArtifactSaveMachine guards', () => {
  it('isOk: nobody saved in between: the PUT carries the loaded version and the save ends saved', async () => {
    const { actor, checked, sent } = start([ok], []);
    await waitFor(actor, (s) => s.status === 'done');
    expect(checked).toEqual([{ portfolioId: 3, artifactId: 12, updatedAt: LOADED }]);
    expect(sent).toEqual([{ artifactId: 12, responses: { q1: 'Ramps' }, updatedAt: LOADED }]);
    expect(actor.getSnapshot().output).toEqual({ outcome: 'saved', artifact: saved });
  });

  it('isConflict: asks, naming who saved and when; cancelling saves nothing', async () => {
    const { actor, sent } = start([warning(STORED)], []);
    await waitFor(actor, (s) => s.matches('confirming'));
    expect(actor.getSnapshot().context).toMatchObject({
      conflictMessage: 'Someone saved this artifact.',
      conflictSave: { at: STORED, by: { id: 5, username: 'Pat' } },
      version: STORED,
    });
    actor.send({ type: 'overwrite.cancel' });
    expect(actor.getSnapshot().output).toEqual({ outcome: 'cancelled' });
    expect(sent).toEqual([]);
  });

  it('isRefusal: a refusing gate check stops with its message alerted', async () => {
    const { actor, notices, sent } = start([{ type: 'error', message: 'The portfolio is archived.' }], []);
    await waitFor(actor, (s) => s.status === 'done');
    expect(notices).toEqual([{ message: 'The portfolio is archived.', tone: 'error' }]);
    expect(actor.getSnapshot().output).toEqual({
      outcome: 'stopped',
      error: { kind: 'invalid', status: null, message: 'The portfolio is archived.' },
    });
    expect(sent).toEqual([]);
  });

  it('isStaleVersion: a 409 after YES rechecks and asks again with the newest version and the server message', async () => {
    const { actor, sent, notices } = start([warning(STORED), warning(NEWEST)], [stale]);
    await waitFor(actor, (s) => s.matches('confirming'));
    actor.send({ type: 'overwrite.confirm' });
    await waitFor(actor, (s) => s.matches('confirming') && s.context.version === NEWEST);
    expect(actor.getSnapshot().context.conflictMessage).toBe('Someone saved again.');
    actor.send({ type: 'overwrite.confirm' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(sent.map((put) => put.updatedAt)).toEqual([STORED, NEWEST]);
    expect(actor.getSnapshot().output).toEqual({ outcome: 'saved', artifact: saved });
    expect(notices).toEqual([]);
  });
});

describe('sharedArtifactSaveMachine actions', () => {
  it('a failed PUT other than 409 stops with the server message alerted', async () => {
    const { actor, notices } = start([ok], [new ApiError(403, 'forbidden', 'You are no longer a member.', '')]);
    await waitFor(actor, (s) => s.status === 'done');
    expect(notices).toEqual([{ message: 'You are no longer a member.', tone: 'error' }]);
    expect(actor.getSnapshot().output).toEqual({
      outcome: 'stopped',
      error: { kind: 'forbidden', status: 403, message: 'You are no longer a member.' },
    });
  });
});
