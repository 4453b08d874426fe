import { act } from '@testing-library/react';
import { fromPromise } from 'xstate';

/** A promise the test settles by hand. */
export interface Deferred<T> {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
}

export function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/**
 * A promise actor whose every invocation waits for the test: `next()` hands out the oldest
 * pending call, so a path step can resolve or reject exactly the request the view made.
 */
export function controllableActor<TOutput, TInput = unknown>(options: { dropCancelled?: boolean } = {}) {
  const calls: { input: TInput; deferred: Deferred<TOutput> }[] = [];
  const logic = fromPromise<TOutput, TInput>(({ input, signal }) => {
    const d = deferred<TOutput>();
    const call = { input, deferred: d };
    calls.push(call);
    // With `dropCancelled`, a call whose actor was stopped (its state left) is no longer handed out.
    if (options.dropCancelled) {
      const drop = () => {
        const index = calls.indexOf(call);
        if (index >= 0) calls.splice(index, 1);
      };
      signal.addEventListener('abort', drop, { once: true });
    }
    return d.promise;
  });
  return {
    logic,
    calls,
    /** The oldest call not yet settled. */
    next(): { input: TInput; deferred: Deferred<TOutput> } {
      const call = calls.shift();
      if (!call) throw new Error('The view made no request to settle');
      return call;
    },
  };
}

/**
 * Settles a fake service's call as a path step says: `xstate.done.actor.*` resolves it with the
 * step's output, `xstate.error.actor.*` rejects it with the step's error (inside `act`, so the
 * view has rendered the answer when it returns).
 */
export async function answerAsStep(
  call: { deferred: { resolve: (value: never) => void; reject: (error: unknown) => void } },
  step: { event: unknown },
): Promise<void> {
  const event = step.event as { type: string; output?: unknown; error?: unknown };
  await act(async () =>
    event.type.startsWith('xstate.done')
      ? call.deferred.resolve(event.output as never)
      : call.deferred.reject(event.error),
  );
}
