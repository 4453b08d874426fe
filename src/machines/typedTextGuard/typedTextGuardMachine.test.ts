import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { hasTypedText, typedTextGuardMachine } from './typedTextGuardMachine.ts';

function start() {
  const effects: string[] = [];
  const actor = createActor(
    typedTextGuardMachine.provide({
      actions: { allowLeave: () => effects.push('allowLeave'), stayHere: () => effects.push('stayHere') },
    }),
  ).start();
  return { actor, effects };
}

describe('typedTextGuardMachine guards', () => {
  it('hasTypedText: a box with text makes the page typed; hasNoTypedText: clearing the last makes it clean', () => {
    const { actor } = start();
    expect(actor.getSnapshot().value).toBe('clean');
    actor.send({ type: 'box.typed', box: 'comment' });
    expect(actor.getSnapshot().value).toBe('typed');
    actor.send({ type: 'box.typed', box: 'caption' });
    actor.send({ type: 'box.cleared', box: 'comment' });
    expect(actor.getSnapshot().value).toBe('typed');
    actor.send({ type: 'box.cleared', box: 'caption' });
    expect(actor.getSnapshot().value).toBe('clean');
    expect(hasTypedText(actor.getSnapshot())).toBe(false);
  });
});

describe('typedTextGuardMachine actions', () => {
  it('addBox keeps each box once; removeBox drops only that box', () => {
    const { actor } = start();
    actor.send({ type: 'box.typed', box: 'comment' });
    actor.send({ type: 'box.typed', box: 'caption' });
    actor.send({ type: 'box.typed', box: 'comment' });
    expect(actor.getSnapshot().context.boxes).toEqual(['comment', 'caption']);
    actor.send({ type: 'box.cleared', box: 'comment' });
    expect(actor.getSnapshot().context.boxes).toEqual(['caption']);
    expect(hasTypedText(actor.getSnapshot())).toBe(true);
  });

  it('allowLeave: leaving a clean page goes on at once', () => {
    const { actor, effects } = start();
    actor.send({ type: 'leave.request' });
    expect(effects).toEqual(['allowLeave']);
    expect(actor.getSnapshot().value).toBe('clean');
  });

  it('stayHere keeps the text; forgetBoxes and allowLeave on leaving anyway', () => {
    const { actor, effects } = start();
    actor.send({ type: 'box.typed', box: 'comment' });
    actor.send({ type: 'leave.request' });
    expect(actor.getSnapshot().value).toBe('confirmingLeave');
    expect(effects).toEqual([]);
    actor.send({ type: 'leave.stay' });
    expect(effects).toEqual(['stayHere']);
    expect(actor.getSnapshot().value).toBe('typed');
    expect(actor.getSnapshot().context.boxes).toEqual(['comment']);
    actor.send({ type: 'leave.request' });
    actor.send({ type: 'leave.confirm' });
    expect(effects).toEqual(['stayHere', 'allowLeave']);
    expect(actor.getSnapshot().value).toBe('clean');
    expect(actor.getSnapshot().context.boxes).toEqual([]);
  });
});
