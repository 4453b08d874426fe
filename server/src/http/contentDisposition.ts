import { neutraliseBidi } from './fileNames.ts';

/** Characters a quoted `filename` cannot carry as they are, for every browser: non-ASCII, controls, `"`, `\` and `%`. */
const NOT_PLAIN = /[^\x20-\x7e]|["\\%]/g;

/** RFC 5987 `ext-value` encoding: UTF-8, percent-encoded except the `attr-char`s. */
function encodeExtValue(text: string): string {
  return encodeURIComponent(text).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * The `Content-Disposition` of a download (`attachment`) or of a file shown by the browser
 * (`inline`), as RFC 6266 advises: a quoted ASCII `filename` (each character it cannot carry
 * becomes `_`), followed by the exact name in UTF-8 as `filename*` (RFC 5987) when the name is
 * more than letters, digits and `!#$&+-.^_`|~`. Bidirectional controls are made visible first,
 * so that no name reads as another (`invoice‮fdp.exe`).
 */
export function contentDisposition(kind: 'attachment' | 'inline', fileName: string): string {
  const name = neutraliseBidi(fileName);
  const plain = `${kind}; filename="${name.replace(NOT_PLAIN, '_')}"`;
  const encoded = encodeExtValue(name);
  return encoded === name ? plain : `${plain}; filename*=UTF-8''${encoded}`;
}
