import { TestModel } from '@xstate/graph';
import type { AnyEventObject, AnyStateMachine, EventFromLogic, InputFrom, InspectionEvent, SnapshotFrom } from 'xstate';

interface NodeLike {
  id: string;
  states: Record<string, NodeLike>;
  transitions: Map<string, readonly TransitionLike[]>;
  always?: readonly TransitionLike[];
}
interface TransitionLike {
  source: NodeLike;
  eventType: string;
  target?: readonly { id: string }[] | undefined;
}

/** Which states and transitions of one machine the generated paths reached. */
export interface MachineCoverage {
  machineId: string;
  states: Map<string, number>;
  transitions: Map<string, number>;
}

const registry = new Map<string, MachineCoverage>();

function transitionKey(t: TransitionLike): string {
  const list = t.eventType ? t.source.transitions.get(t.eventType) : t.source.always;
  const index = list ? list.indexOf(t) : 0;
  const targets = t.target?.map((n) => n.id).join(',') || '(stay)';
  return `${t.source.id} --${t.eventType || 'always'}--> ${targets}${list && list.length > 1 ? ` [${index + 1}]` : ''}`;
}

function walk(node: NodeLike, visit: (n: NodeLike) => void): void {
  visit(node);
  for (const child of Object.values(node.states)) walk(child, visit);
}

/** Registers a machine: every state node and every transition definition it has. */
export function trackMachine(machine: AnyStateMachine): MachineCoverage {
  const existing = registry.get(machine.id);
  if (existing) return existing;
  const coverage: MachineCoverage = { machineId: machine.id, states: new Map(), transitions: new Map() };
  walk(machine.root as unknown as NodeLike, (node) => {
    if (node !== (machine.root as unknown as NodeLike)) coverage.states.set(node.id, 0);
    for (const list of node.transitions.values()) for (const t of list) coverage.transitions.set(transitionKey(t), 0);
    for (const t of node.always ?? []) coverage.transitions.set(transitionKey(t), 0);
  });
  registry.set(machine.id, coverage);
  return coverage;
}

/**
 * An `inspect` callback for `createActor`: marks every transition the running machine takes
 * and every state it enters (for the machines registered with `trackMachine`).
 */
export function coverageInspector(event: InspectionEvent): void {
  const logic = (event.actorRef as unknown as { logic?: { id?: string } }).logic;
  const coverage = logic?.id ? registry.get(logic.id) : undefined;
  if (!coverage) return;
  if (event.type === '@xstate.microstep') {
    for (const t of event._transitions as unknown as TransitionLike[]) {
      const key = transitionKey(t);
      if (coverage.transitions.has(key)) coverage.transitions.set(key, coverage.transitions.get(key)! + 1);
      // A transition out of a state proves the state was active (transient states are never observed).
      if (coverage.states.has(t.source.id)) coverage.states.set(t.source.id, coverage.states.get(t.source.id)! + 1);
    }
  }
  if (event.type === '@xstate.snapshot' || event.type === '@xstate.microstep') {
    const nodes = (event.snapshot as unknown as { _nodes?: readonly { id: string }[] })._nodes ?? [];
    for (const node of nodes)
      if (coverage.states.has(node.id)) coverage.states.set(node.id, coverage.states.get(node.id)! + 1);
  }
}

/** What was not reached. */
export function missing(coverage: MachineCoverage): { states: string[]; transitions: string[] } {
  return {
    states: [...coverage.states].filter(([, n]) => n === 0).map(([k]) => k),
    transitions: [...coverage.transitions].filter(([, n]) => n === 0).map(([k]) => k),
  };
}

/** A printable summary: states and transitions, and how many the paths covered. */
export function describeCoverage(coverage: MachineCoverage): string {
  const statesDone = [...coverage.states.values()].filter((n) => n > 0).length;
  const transitionsDone = [...coverage.transitions.values()].filter((n) => n > 0).length;
  const pct = (a: number, b: number) => (b === 0 ? 100 : Math.round((a / b) * 1000) / 10);
  const lines = [
    `machine ${coverage.machineId}: states ${statesDone}/${coverage.states.size} (${pct(statesDone, coverage.states.size)}%), ` +
      `transitions ${transitionsDone}/${coverage.transitions.size} (${pct(transitionsDone, coverage.transitions.size)}%)`,
  ];
  for (const [state, n] of coverage.states) lines.push(`  state      ${n > 0 ? '✓' : '✗'} ${state}`);
  for (const [transition, n] of coverage.transitions) lines.push(`  transition ${n > 0 ? '✓' : '✗'} ${transition}`);
  return lines.join('\n');
}

/** Whether the snapshot's active states invoke an actor with this id. */
export function isInvoking(snapshot: unknown, id: string): boolean {
  const nodes = (snapshot as { _nodes?: readonly { invoke: readonly { id: string }[] }[] })._nodes ?? [];
  return nodes.some((node) => node.invoke.some((inv) => inv.id === id));
}

/**
 * The events of a model in a state: the user events the state accepts (a gesture the view
 * does not offer there is not a path), and the done / error events of each invoked actor only
 * while a state invokes it (an unhandled actor error would otherwise crash the model). An actor's
 * events may depend on the state (as a real server answers differently in different states).
 */
export function modelEvents<E, S = unknown>(
  userEvents: readonly E[],
  actorEvents: Record<string, readonly E[] | ((snapshot: S) => readonly E[])> = {},
) {
  return (snapshot: unknown): E[] => {
    const can = (event: E) => (snapshot as { can: (e: E) => boolean }).can(event);
    return [
      ...userEvents.filter(can),
      ...Object.entries(actorEvents).flatMap(([id, events]) =>
        isInvoking(snapshot, id) ? (typeof events === 'function' ? events(snapshot as S) : events).filter(can) : [],
      ),
    ];
  };
}

function stateKey(snapshot: unknown): string {
  const s = snapshot as { value: unknown; context: unknown };
  return `${JSON.stringify(s.value)} ${JSON.stringify(s.context, (_k, v: unknown) => (v instanceof Error ? { name: v.name, message: v.message } : v))}`;
}

/**
 * A state's identity in the path graph: its value and context and, when the value changed, the
 * state and event it came from, so that "the form again, after a refusal" is a node of its own
 * (events that leave the state where it was make no new node, as in `createTestModel`).
 */
export function serializeState(state: unknown, event: { type: string } | undefined, prev: unknown): string {
  const value = JSON.stringify((state as { value: unknown }).value);
  const before = prev ? JSON.stringify((prev as { value: unknown }).value) : null;
  return `${stateKey(state)}${event && before !== null && before !== value ? ` <- ${before} ${JSON.stringify(event)}` : ''}`;
}

/**
 * A path model of a machine for driving its real view. Unlike `createTestModel`, it accepts
 * machines that invoke actors (their done / error events are model events, see `modelEvents`);
 * like it, it tells states apart by the transition that reached them, so the shortest paths
 * take every transition.
 */
export function createPathModel<M extends AnyStateMachine>(
  machine: M,
  options: {
    events: (snapshot: unknown) => EventFromLogic<M>[];
    input?: InputFrom<M>;
  },
): TestModel<SnapshotFrom<M>, AnyEventObject, unknown> {
  return new TestModel(
    machine as never,
    {
      ...(options.input !== undefined ? { input: options.input } : {}),
      events: options.events as never,
      // Named state checks match by state value ('editing', 'form.saving'); '*' matches every state.
      stateMatcher: (state: unknown, key: string) =>
        key === '*' || (state as { matches: (v: string) => boolean }).matches(key),
      serializeState,
    } as never,
  ) as never;
}

/**
 * Fails when a leaf state of the machine has no check in `states` (a path would then reach it
 * without asserting anything about the view). `'*'` counts as a check for every state.
 */
export function assertEveryStateChecked(machine: AnyStateMachine, states: Record<string, unknown>): void {
  if ('*' in states) return;
  const missingChecks: string[] = [];
  walk(machine.root as unknown as NodeLike, (node) => {
    if (Object.keys(node.states).length > 0 || node === (machine.root as unknown as NodeLike)) return;
    const key = node.id.split('.').slice(1).join('.');
    const covered = Object.keys(states).some((k) => k === key || key.startsWith(`${k}.`));
    if (!covered) missingChecks.push(key);
  });
  if (missingChecks.length > 0) throw new Error(`No view check for state(s): ${missingChecks.join(', ')}`);
}
