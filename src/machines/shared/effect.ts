/**
 * An outward effect (navigation, a toast, leaving a page) that the app provides with
 * `machine.provide()`. Until then it throws, instead of silently doing nothing. Typed by its
 * params, so that the chart, `provide` and the tests agree without a cast:
 * `effect('scrollToTop')` takes none, `effect<Notice>('notify')` takes a notice.
 */
export function effect(name: string): () => void;
export function effect<Params>(name: string): (args: unknown, params: Params) => void;
export function effect(name: string): () => void {
  return () => {
    throw new Error(`"${name}" must be provided with machine.provide() before the machine runs.`);
  };
}
