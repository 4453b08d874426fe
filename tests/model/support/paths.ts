import { expect, it } from 'vitest';
import type { AnyStateMachine } from 'xstate';
import { assertEveryStateChecked, createPathModel } from './coverage.ts';

type PathLike = { state: unknown; steps: readonly { event: unknown }[] };

/** An event type as a path's name shows it: an actor's answer as `✓ id` (done) or `✗ id` (error). */
export const stepLabel = (type: string): string =>
  type.replace(/^xstate\.(done|error)\.actor\./, (_, kind: string) => (kind === 'done' ? '✓ ' : '✗ '));

/**
 * A path's test name: the state it ends in, then the events that lead there (`start` where none).
 * `label` names one event (default: its type, see `stepLabel`).
 */
export function pathName<E extends { type: string }>(
  path: PathLike,
  label: (event: E) => string = (event) => stepLabel(event.type),
): string {
  const steps = path.steps
    .map((step) => step.event as E)
    .filter((e) => e.type !== 'xstate.init')
    .map(label);
  return `${JSON.stringify((path.state as { value: unknown }).value)} ← ${steps.join(' → ') || 'start'}`;
}

/** A maker of model events of type `E` from a type and a payload (an actor's output or error). */
export const modelEvent =
  <E>() =>
  (type: string, payload: Record<string, unknown> = {}): E =>
    ({ type, ...payload }) as unknown as E;

/**
 * The shortest paths of the machine's path model, with a test that every state of the machine has
 * a view check in `checks` and that there are more than `fewest` paths.
 */
export function checkedShortestPaths<M extends AnyStateMachine>(
  machine: M,
  options: Parameters<typeof createPathModel<M>>[1],
  checks: Record<string, unknown>,
  fewest: number,
) {
  const paths = createPathModel(machine, options).getShortestPaths();
  it('has a view check for every state and paths to all of them', () => {
    assertEveryStateChecked(machine, checks);
    expect(paths.length).toBeGreaterThan(fewest);
  });
  return paths;
}
