import { HttpError } from '../errors.ts';
import type { Decision } from '../policies/decision.ts';

/** Throws the 403 / 404 of a refused decision. */
export function assertAllowed(decision: Decision): void {
  if (!decision.ok)
    throw new HttpError(decision.status, decision.status === 404 ? 'not_found' : 'forbidden', decision.message);
}
