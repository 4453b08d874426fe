/** Small helpers shared by repositories. */

/** A timestamp column as the API shows it. */
export function iso(value: Date | string): string {
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

/** A JSON value as a `jsonb` parameter (always pass with `$n::jsonb`). */
export function json(value: unknown): string {
  return JSON.stringify(value);
}
