/** How a message for the user reads: a success is a toast, an error an alert. */
export type NoticeTone = 'success' | 'error';

/**
 * A message for the user, handed to the app's injected `notify` (a toast; errors as alerts).
 * `Notice<'error'>` is one that can only be an error.
 */
export interface Notice<Tone extends NoticeTone = NoticeTone> {
  message: string;
  tone: Tone;
}
