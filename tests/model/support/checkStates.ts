/**
 * State assertions for `path.test({ states })` keyed by state value ('loading', 'ready.editing').
 * `createPathModel` builds a plain `TestModel`, whose own matcher only knows the '*' key, so the
 * assertions are dispatched here with `snapshot.matches(key)`. A reached state that no key
 * matches fails the path, so a forgotten state cannot pass silently.
 */
export function checkStates<S extends { matches: (value: never) => boolean; value: unknown }>(
  checks: Record<string, (snapshot: S) => Promise<void> | void>,
): { '*': (snapshot: unknown) => Promise<void> } {
  return {
    '*': async (snapshot: unknown) => {
      const s = snapshot as S;
      const keys = Object.keys(checks).filter((key) => (s.matches as (value: string) => boolean)(key));
      if (keys.length === 0) throw new Error(`No state assertion for ${JSON.stringify(s.value)}`);
      for (const key of keys) await checks[key]!(s);
    },
  };
}

/** `checkStates` for assertions that also take the test's harness `h`. */
export function checkStatesOf<H, S extends { matches: (value: never) => boolean; value: unknown }>(
  h: H,
  checks: Record<string, (h: H, snapshot: S) => Promise<void> | void>,
): { '*': (snapshot: unknown) => Promise<void> } {
  return checkStates<S>(
    Object.fromEntries(Object.entries(checks).map(([key, check]) => [key, (snapshot: S) => check(h, snapshot)])),
  );
}
