import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  allowLeave,
  attemptNavigation,
  installLeaveGuard,
  isNavigationHeld,
  registerLeaveGuard,
  stayHere,
} from './leaveGuard.ts';

let unregister: (() => void) | null = null;
afterEach(() => {
  unregister?.();
  unregister = null;
});

function guard(hasUnsavedChanges = true) {
  const request = vi.fn<() => void>();
  unregister = registerLeaveGuard({ request, hasUnsavedChanges: () => hasUnsavedChanges });
  return request;
}

describe('the leave guard', () => {
  it('lets navigations through while no form is on screen', () => {
    const navigate = vi.fn();
    attemptNavigation(navigate);
    expect(navigate).toHaveBeenCalledTimes(1);
  });

  it('holds a navigation and asks the form once; the machine allows the latest one or drops it', () => {
    const request = guard();
    const first = vi.fn();
    const second = vi.fn();
    attemptNavigation(first);
    attemptNavigation(second);
    expect(request).toHaveBeenCalledTimes(1);
    expect(isNavigationHeld()).toBe(true);
    allowLeave();
    expect(first).not.toHaveBeenCalled();
    expect(second).toHaveBeenCalledTimes(1);
    expect(isNavigationHeld()).toBe(false);

    const third = vi.fn();
    attemptNavigation(third);
    stayHere();
    allowLeave();
    expect(third).not.toHaveBeenCalled();
  });

  it('does not hold the navigation the form itself allows (it may navigate again on the way)', () => {
    const inner = vi.fn();
    unregister = registerLeaveGuard({ request: () => allowLeave(), hasUnsavedChanges: () => false });
    attemptNavigation(() => attemptNavigation(inner));
    expect(inner).toHaveBeenCalledTimes(1);
  });

  it('asks the browser’s question on reload or close only while there are unsaved changes', () => {
    installLeaveGuard(window);
    guard(true);
    const asked = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(asked);
    expect(asked.defaultPrevented).toBe(true);
    unregister?.();
    guard(false);
    const free = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(free);
    expect(free.defaultPrevented).toBe(false);
  });

  it('holds Back: the address goes back to the form’s; once allowed, Back happens', async () => {
    installLeaveGuard(window);
    window.history.pushState(null, '', '/list');
    window.history.pushState(null, '', '/form');
    const request = guard();
    const router = vi.fn();
    window.addEventListener('popstate', router);

    window.history.back();
    await vi.waitFor(() => expect(request).toHaveBeenCalledTimes(1));
    expect(window.location.pathname).toBe('/form');
    expect(router).not.toHaveBeenCalled();

    allowLeave();
    await vi.waitFor(() => expect(router).toHaveBeenCalledTimes(1));
    expect(window.location.pathname).toBe('/list');
    window.removeEventListener('popstate', router);
  });
});

describe('several guards on screen (a form and the typed-text boxes)', () => {
  it('asks each in turn while each allows; one that keeps the user stops the navigation', () => {
    const asked: string[] = [];
    const offUnsaved = registerLeaveGuard({ request: () => asked.push('boxes'), hasUnsavedChanges: () => false });
    const offForm = registerLeaveGuard({ request: () => asked.push('form'), hasUnsavedChanges: () => true });
    try {
      const navigate = vi.fn();
      attemptNavigation(navigate);
      expect(asked).toEqual(['boxes']);
      allowLeave();
      expect(asked).toEqual(['boxes', 'form']);
      expect(navigate).not.toHaveBeenCalled();
      allowLeave();
      expect(navigate).toHaveBeenCalledTimes(1);

      const kept = vi.fn();
      attemptNavigation(kept);
      stayHere();
      allowLeave();
      expect(kept).not.toHaveBeenCalled();
      expect(asked).toEqual(['boxes', 'form', 'boxes']);
    } finally {
      offForm();
      offUnsaved();
    }
  });

  it('asks the browser’s question on reload when any guard has unsaved changes', () => {
    installLeaveGuard(window);
    const offClean = registerLeaveGuard({ request: () => allowLeave(), hasUnsavedChanges: () => false });
    const offDirty = registerLeaveGuard({ request: () => allowLeave(), hasUnsavedChanges: () => true });
    const asked = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(asked);
    expect(asked.defaultPrevented).toBe(true);
    offDirty();
    offClean();
  });
});
