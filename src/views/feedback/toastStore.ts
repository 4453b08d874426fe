import { signal } from '@preact/signals-react';

export type ToastTone = 'info' | 'success' | 'error';

export interface Toast {
  id: number;
  message: string;
  tone: ToastTone;
}

/** The messages on screen, newest last. */
export const toasts = signal<readonly Toast[]>([]);

let nextId = 1;
const SUCCESS_MS = 6000;
/** Errors stay longer: there is more to read, and something to do. */
const ERROR_MS = 12000;

/**
 * Shows a message to the user: a confirmation, or an error that belongs to no field or form
 * (those show next to what caused them). Every message leaves by itself after a few seconds.
 */
export function notify(message: string, tone: ToastTone = 'info'): void {
  const toast = { id: nextId++, message, tone };
  toasts.value = [...toasts.value, toast];
  setTimeout(() => dismiss(toast.id), tone === 'error' ? ERROR_MS : SUCCESS_MS);
}

/** Removes one message. */
export function dismiss(id: number): void {
  toasts.value = toasts.value.filter((t) => t.id !== id);
}

/** Removes every message (tests). */
export function clearToasts(): void {
  toasts.value = [];
}
