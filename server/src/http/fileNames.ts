/**
 * Bidirectional controls (embeddings, overrides, isolates and marks) that can make a file name
 * read differently from what it is (`invoice‮fdp.exe` shown as `invoiceexe.pdf`). Shown
 * neutralised: each becomes a visible `�`.
 */
const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

/** A file name with its bidirectional controls made visible and inert. */
export function neutraliseBidi(name: string): string {
  return name.replace(BIDI_CONTROLS, '\uFFFD');
}
