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

/** The guards of what is on screen (a form's page, the typed-text boxes), asked in this order. */
let guards: LeaveGuard[] = [];
let held: (() => void) | null = null;
/** While a navigation is held: the guards still to ask after the one asked now. */
let asking: LeaveGuard[] | null = null;
/** Set while a navigation the machine allowed is under way (it must not be held again). */
let passing = false;
/** The address the app shows, kept to restore it when Back or Forward is held. */
let shownAddress: string | null = null;

const currentAddress = () => `${window.location.pathname}${window.location.search}${window.location.hash}`;

/** Registers a guard of what is on screen; returns its removal. Several may be registered: each is asked in turn. */
export function registerLeaveGuard(next: LeaveGuard): () => void {
  guards = [...guards, next];
  return () => {
    if (!guards.includes(next)) return;
    guards = guards.filter((g) => g !== next);
    // A page that goes away while its question is open takes the held navigation with it.
    if (asking !== null) {
      held = null;
      asking = null;
    }
  };
}

/** Runs `navigate` now, or holds it and asks the guards first (each in turn, while each allows). */
export function attemptNavigation(navigate: () => void): void {
  if (guards.length === 0 || passing) {
    navigate();
    return;
  }
  const alreadyAsking = held !== null;
  held = navigate;
  // A second attempt while the question is open replaces the first; the question is already asked.
  if (alreadyAsking) return;
  const [first, ...rest] = guards;
  asking = rest;
  first!.request();
}

/** The guard asked allows leaving: the next guard is asked, or the held navigation happens. */
export function allowLeave(): void {
  if (!held) return;
  const next = asking?.shift();
  if (next) {
    next.request();
    return;
  }
  leaveWithoutAsking(held);
}

/** Goes on without asking (the session ended: nothing on the page can be saved now; local drafts keep the text). */
export function leaveWithoutAsking(navigate: () => void): void {
  held = null;
  asking = null;
  passing = true;
  try {
    navigate();
  } finally {
    passing = false;
  }
}

/** The guard asked keeps the user on the page: the held navigation is dropped. */
export function stayHere(): void {
  held = null;
  asking = null;
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
    if (ownStep || guards.length === 0 || shownAddress === null) {
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
    if (!guards.some((g) => g.hasUnsavedChanges())) return;
    event.preventDefault();
    // Older browsers show the question only when a value is set.
    event.returnValue = '';
  });
}
