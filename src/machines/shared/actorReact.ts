/**
 * How views read machines: `useSelector` and `createActorContext` with the interface of
 * `@xstate/react`, but with the priority of the cause. A snapshot that changed during the user's
 * own input (a click, a keystroke) is drawn at once, as React draws its own state; one that came
 * from elsewhere (an answer of the server, a timer, the notification stream) is drawn as a
 * transition, which React renders in slices and interrupts for the user's next input. (The
 * library reads every change through `useSyncExternalStore`, which renders each at once, in one
 * task: a page of data arriving blocked the main thread for hundreds of milliseconds on a slow
 * device; decision 034.)
 *
 * Like the library's, a render reads the actor's snapshot of the moment; what React has not drawn
 * yet is always drawn from the newest snapshot.
 */
// The one place that wraps the library's context (its useSelector is replaced below).
// oxlint-disable-next-line no-restricted-imports
import { createActorContext as createLibraryActorContext } from '@xstate/react';
import { startTransition, useLayoutEffect, useReducer, useRef } from 'react';
import type { ActorOptions, AnyActorLogic, AnyActorRef, SnapshotFrom } from 'xstate';

/** The events of the user's own input: a change they cause is drawn before the next frame. */
const USER_INPUT = new Set([
  'auxclick',
  'beforeinput',
  'blur',
  'change',
  'click',
  'compositionend',
  'contextmenu',
  'copy',
  'cut',
  'dblclick',
  'drop',
  'focus',
  'focusin',
  'focusout',
  'input',
  'keydown',
  'keypress',
  'keyup',
  'mousedown',
  'mouseup',
  'paste',
  'pointerdown',
  'pointerup',
  'reset',
  'select',
  'submit',
  'touchend',
  'touchstart',
]);

/** Whether the code runs inside a handler of the user's own input. */
export function duringUserInput(): boolean {
  const event = typeof window === 'undefined' ? undefined : window.event;
  return event !== undefined && USER_INPUT.has(event.type);
}

const sameValue = (a: unknown, b: unknown): boolean => a === b;

type Read<TSnapshot, T> = (snapshot: TSnapshot) => T;

interface Rendered<TSnapshot, T> {
  snapshot: TSnapshot;
  read: Read<TSnapshot, T>;
  value: T;
}

type SnapshotOf<TActor> = TActor extends AnyActorRef ? SnapshotFrom<TActor> : undefined;

const nextCount = (count: number): number => count + 1;

/** Reads a part of an actor's snapshot; the component renders again when that part changes. */
export function useSelector<TActor extends AnyActorRef | undefined, T>(
  actor: TActor,
  selector: (snapshot: SnapshotOf<TActor>) => T,
  compare: (a: T, b: T) => boolean = sameValue,
): T {
  type TSnapshot = SnapshotOf<TActor>;
  const [, redraw] = useReducer(nextCount, 0);
  const snapshot = actor?.getSnapshot() as TSnapshot;
  const status = (snapshot as { status?: string } | undefined)?.status;
  if (status === 'error') throw (snapshot as { error: unknown }).error;

  // The last value read (the same value is returned while the selection is equal).
  const last = useRef<Rendered<TSnapshot, T> | null>(null);
  // Memoising the selection reads the last one during render (as React's own
  // useSyncExternalStoreWithSelector does): it only decides whether to return the same value.
  // oxlint-disable-next-line react/refs
  const value = selected(last.current, snapshot, selector, compare);
  const latest = useRef({ selector, compare, value });
  useLayoutEffect(() => {
    last.current = { snapshot, read: selector, value };
    latest.current = { selector, compare, value };
  });

  useLayoutEffect(() => {
    if (!actor) return undefined;
    const check = () => {
      const next = actor.getSnapshot() as TSnapshot;
      const { selector: read, compare: equal, value: drawn } = latest.current;
      const failed = (next as { status?: string } | undefined)?.status === 'error';
      if (!failed && equal(drawn, read(next))) return;
      if (duringUserInput()) redraw();
      else startTransition(redraw);
    };
    // A change between the render and this effect is not missed.
    check();
    const subscription = actor.subscribe({ next: check, error: check });
    return () => subscription.unsubscribe();
  }, [actor]);
  return value;
}

/** The selection of `snapshot`, the previous value kept when it is equal (or nothing changed). */
function selected<TSnapshot, T>(
  previous: Rendered<TSnapshot, T> | null,
  snapshot: TSnapshot,
  read: Read<TSnapshot, T>,
  compare: (a: T, b: T) => boolean,
): T {
  if (previous && previous.snapshot === snapshot && previous.read === read) return previous.value;
  const value = read(snapshot);
  return previous && compare(previous.value, value) ? previous.value : value;
}

/** A value kept outside React that views read with the priority of its change's cause, as an actor's snapshot. */
export interface ExternalValue<T> {
  get(): T;
  /** Calls `onChange` after each change; returns the unsubscription. */
  subscribe(onChange: () => void): () => void;
}

/**
 * Reads `source` (a module-level object: a new one each render would subscribe again); the
 * component renders again when it changes, as a transition unless the user's own input changed it.
 */
export function useExternalValue<T>(source: ExternalValue<T>): T {
  let actor = externalActors.get(source);
  if (!actor) externalActors.set(source, (actor = asActor(source)));
  return useSelector(actor as unknown as AnyActorRef, readValue as (snapshot: unknown) => T);
}

const externalActors = new WeakMap<ExternalValue<unknown>, unknown>();
/** The snapshot is a new wrapper on each read (so that a value with a `status` is never taken for a failed actor's). */
const readValue = (snapshot: { value: unknown }): unknown => snapshot.value;

/** The part of an actor's interface `useSelector` uses. */
function asActor<T>(source: ExternalValue<T>) {
  return {
    getSnapshot: () => ({ value: source.get() }),
    subscribe: (observer: { next: () => void }) => ({ unsubscribe: source.subscribe(() => observer.next()) }),
  };
}

/** `@xstate/react`'s actor context whose `useSelector` is the one above. */
export function createActorContext<TLogic extends AnyActorLogic>(logic: TLogic, options?: ActorOptions<TLogic>) {
  const context = createLibraryActorContext(logic, options);
  return {
    Provider: context.Provider,
    useActorRef: context.useActorRef,
    useSelector<T>(selector: (snapshot: SnapshotFrom<TLogic>) => T, compare?: (a: T, b: T) => boolean): T {
      const actor = context.useActorRef();
      return useSelector(actor, selector as never, compare);
    },
  };
}
