// Login throttling: how long an address waits after failed logins, and how that wait is told.

/**
 * Login throttling that slows guessing without locking the real user out: per account (e-mail
 * and username count as one) and client address, the first `LOGIN_FREE_FAILURES` failures in the
 * window cost nothing; each further attempt from that address waits twice as long as the last
 * (1 s, 2 s, 4 s … at most 15 minutes) after its last failure. When an account collects
 * `LOGIN_ACCOUNT_FAILURES` failures from anywhere, every address that has never signed in to it
 * waits, after the account's last failure, twice as long with each further failure (1 s, 2 s …
 * at most 15 minutes): guessing no longer grows with the attacker's addresses, while the owner's
 * own addresses (a school, home) are not slowed by it. Each address also has a budget of
 * `LOGIN_ADDRESS_FAILURES` failures across accounts in the window; past it, it may sign in only
 * to accounts it has signed in to before.
 */
export const LOGIN_FREE_FAILURES = 5;
export const LOGIN_MAX_WAIT_SECONDS = 15 * 60;
export const LOGIN_ACCOUNT_FAILURES = 20;
export const LOGIN_ADDRESS_FAILURES = 60;
export const LOGIN_FAILURE_WINDOW_SECONDS = 15 * 60;

/** How long an address must still wait before its next login attempt on an account (0: none). */
export function loginWaitSeconds(
  failures: { fromAddress: number; lastFromAddress: Date | null; fromAnywhere: number; lastFromAnywhere: Date | null },
  knownAddress: boolean,
  now = Date.now(),
): number {
  const remaining = (last: Date | null, wait: number) =>
    last ? Math.max(0, Math.ceil((last.getTime() + wait * 1000 - now) / 1000)) : 0;
  let wait = 0;
  if (failures.fromAddress >= LOGIN_FREE_FAILURES)
    wait = remaining(
      failures.lastFromAddress,
      Math.min(2 ** (failures.fromAddress - LOGIN_FREE_FAILURES), LOGIN_MAX_WAIT_SECONDS),
    );
  if (!knownAddress && failures.fromAnywhere >= LOGIN_ACCOUNT_FAILURES) {
    wait = Math.max(
      wait,
      remaining(
        failures.lastFromAnywhere,
        Math.min(2 ** (failures.fromAnywhere - LOGIN_ACCOUNT_FAILURES), LOGIN_MAX_WAIT_SECONDS),
      ),
    );
  }
  return wait;
}

/** A wait in words: seconds under a minute, else whole minutes. */
export const waitWords = (seconds: number): string =>
  seconds < 60
    ? `${seconds} second${seconds === 1 ? '' : 's'}`
    : `${Math.ceil(seconds / 60)} minute${Math.ceil(seconds / 60) === 1 ? '' : 's'}`;
