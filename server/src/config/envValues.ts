import { z } from 'zod';

/* Value types shared by the environment variables of several settings. */

/** `true`/`false`, `1`/`0` or `yes`/`no`. */
export const booleanText = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/** An absolute http(s) address. */
export const absoluteUrl = z.url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL' });
