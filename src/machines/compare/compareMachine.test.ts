import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { compareMachine } from './compareMachine.ts';

function startOn() {
  const actor = createActor(compareMachine).start();
  actor.send({ type: 'compare.toggle' });
  return actor;
}

describe('compareMachine guards', () => {
  it('isPicked: picking a picked artifact un-picks it, from a pair and from a single', () => {
    const actor = startOn();
    actor.send({ type: 'compare.pick', artifactId: 1 });
    actor.send({ type: 'compare.pick', artifactId: 2 });
    expect(actor.getSnapshot().value).toEqual({ on: 'pair' });
    actor.send({ type: 'compare.pick', artifactId: 1 });
    expect(actor.getSnapshot().value).toEqual({ on: 'single' });
    expect(actor.getSnapshot().context.selection).toEqual([2]);
    actor.send({ type: 'compare.pick', artifactId: 2 });
    expect(actor.getSnapshot().value).toEqual({ on: 'empty' });
    expect(actor.getSnapshot().context.selection).toEqual([]);
  });

  it('isPicked: a new artifact is added', () => {
    const actor = startOn();
    actor.send({ type: 'compare.pick', artifactId: 1 });
    actor.send({ type: 'compare.pick', artifactId: 3 });
    expect(actor.getSnapshot().value).toEqual({ on: 'pair' });
    expect(actor.getSnapshot().context.selection).toEqual([1, 3]);
  });
});

describe('compareMachine actions', () => {
  it('replaceSecond: a third pick replaces the second, keeping the first', () => {
    const actor = startOn();
    actor.send({ type: 'compare.pick', artifactId: 1 });
    actor.send({ type: 'compare.pick', artifactId: 2 });
    actor.send({ type: 'compare.pick', artifactId: 5 });
    expect(actor.getSnapshot().value).toEqual({ on: 'pair' });
    expect(actor.getSnapshot().context.selection).toEqual([1, 5]);
  });

  it('clearSelection: turning compare mode off forgets the selection', () => {
    const actor = startOn();
    actor.send({ type: 'compare.pick', artifactId: 1 });
    actor.send({ type: 'compare.toggle' });
    expect(actor.getSnapshot().value).toBe('off');
    expect(actor.getSnapshot().context.selection).toEqual([]);
    actor.send({ type: 'compare.toggle' });
    expect(actor.getSnapshot().value).toEqual({ on: 'empty' });
  });
});
