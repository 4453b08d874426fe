/**
 * Leaving a page with unsaved work. The page of a form registers a guard while it is shown; the
 * form's machine decides. Every in-app navigation (links, the app's own navigation, Back and
 * Forward inside the app) is held and the machine is asked with `leave.request`; its
 * `allowLeave` action lets the held navigation happen, its `stayHere` action drops it. Reloading
 * or closing the tab asks the browser's own question (`beforeunload`) while the machine says
 * there are unsaved changes.
 *
 * Back and Forward have already moved the address when the browser reports them: the guard puts
 * the page's address back (as a new entry) before asking, and on leaving steps back to where the
 * user was going.
 */

/** What a page with a form tells the guard. */
export interface LeaveGuard {
  /** Someone wants to leave: ask the form's machine (it answers with `allowLeave` or `stayHere`). */
  request(): void;
  /** Whether reloading or closing the tab would lose work. */
  hasUnsavedChanges(): boolean;
}

let guard: LeaveGuard | null = null;
let held: (() => void) | null = null;
/** Set while a navigation the machine allowed is under way (it must not be held again). */
let passing = false;
/** The address the app shows, kept to restore it when Back or Forward is held. */
let shownAddress: string | null = null;

const currentAddress = () => `${window.location.pathname}${window.location.search}${window.location.hash}`;

/** Registers the guard of the page on screen; returns its removal. */
export function registerLeaveGuard(next: LeaveGuard): () => void {
  guard = next;
  held = null;
  return () => {
    if (guard === next) {
      guard = null;
      held = null;
    }
  };
}

/** Runs `navigate` now, or holds it and asks the page's guard first. */
export function attemptNavigation(navigate: () => void): void {
  if (!guard || passing) {
    navigate();
    return;
  }
  const asking = held !== null;
  held = navigate;
  // A second attempt while the question is open replaces the first; the question is already asked.
  if (!asking) guard.request();
}

/** The machine allows leaving: the held navigation happens. */
export function allowLeave(): void {
  const navigate = held;
  held = null;
  if (!navigate) return;
  passing = true;
  try {
    navigate();
  } finally {
    passing = false;
  }
}

/** The machine keeps the user on the page: the held navigation is dropped. */
export function stayHere(): void {
  held = null;
}

/** Whether a navigation is held, waiting for the machine's answer (tests). */
export function isNavigationHeld(): boolean {
  return held !== null;
}

/**
 * The router's `aroundNav`: every in-app navigation (links, `navigate`) passes the guard.
 */
export function guardedNavigation<O>(navigate: (to: string, options?: O) => void, to: string, options?: O): void {
  attemptNavigation(() => navigate(to, options));
}

let installed = false;
/** Set when the guard itself steps back after the machine allowed a held Back or Forward. */
let ownStep = false;

/**
 * Listens to Back / Forward and to reloading or closing the tab. Call once before the app
 * renders, so this listener hears Back and Forward before the router does.
 */
export function installLeaveGuard(target: Window = window): void {
  if (installed) return;
  installed = true;
  shownAddress = currentAddress();
  // The address the app shows follows every pushState and replaceState (whoever calls them).
  for (const method of ['pushState', 'replaceState'] as const) {
    const original = target.history[method].bind(target.history);
    target.history[method] = (...args: Parameters<History['pushState']>) => {
      original(...args);
      shownAddress = currentAddress();
    };
  }
  target.addEventListener('popstate', (event) => {
    if (ownStep || !guard || shownAddress === null) {
      ownStep = false;
      shownAddress = currentAddress();
      return;
    }
    // Hold it: the router must not see the move, and the address goes back to the page's.
    event.stopImmediatePropagation();
    target.history.pushState(target.history.state, '', shownAddress);
    attemptNavigation(() => {
      // The entry before the restored one is where Back or Forward was going.
      ownStep = true;
      target.history.back();
    });
  });
  target.addEventListener('beforeunload', (event) => {
    if (!guard?.hasUnsavedChanges()) return;
    event.preventDefault();
    // Older browsers show the question only when a value is set.
    event.returnValue = '';
  });
}
