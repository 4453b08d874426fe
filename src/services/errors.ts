/** Typed failures of API calls (style guide §8). */

/** The server answered with an error status. `code` is the server's stable error code. */
export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** The raw response text, which the spec's generic rule shows to the user. */
    readonly body: string,
  ) {
    super(message);
  }
}

/** The server could not be reached. */
export class NetworkError extends Error {
  override name = 'NetworkError';
  constructor(message = 'The server could not be reached. Check your connection and try again.') {
    super(message);
  }
}

/** The server answered something its contract does not allow: a server bug. */
export class ContractError extends Error {
  override name = 'ContractError';
  constructor(
    readonly path: string,
    readonly issues: readonly { path: readonly PropertyKey[]; message: string }[],
  ) {
    super(`Unexpected answer from the server for ${path}.`);
  }
}

/** A failure in a form the UI can store and render. */
export interface UiError {
  kind: 'network' | 'unauthorized' | 'forbidden' | 'notFound' | 'invalid' | 'conflict' | 'tooMany' | 'unexpected';
  status: number | null;
  message: string;
}

/** Maps any thrown value to a `UiError` whose message is fit to show. */
export function toUiError(error: unknown): UiError {
  if (error instanceof ApiError) {
    const kinds: Record<number, UiError['kind']> = {
      400: 'invalid',
      401: 'unauthorized',
      403: 'forbidden',
      404: 'notFound',
      409: 'conflict',
      413: 'invalid',
      429: 'tooMany',
    };
    return { kind: kinds[error.status] ?? 'unexpected', status: error.status, message: error.message };
  }
  if (error instanceof NetworkError) return { kind: 'network', status: null, message: error.message };
  if (error instanceof ContractError) {
    return {
      kind: 'unexpected',
      status: null,
      message: 'The server sent an unexpected answer. Please try again later.',
    };
  }
  return { kind: 'unexpected', status: null, message: 'Something went wrong. Please try again.' };
}

/**
 * Whether trying the same request again may succeed: the network, a busy or failing server, a
 * timeout. A refusal (a wrong file, too large, not allowed, not found) answers the same again.
 */
export function isTransient(error: UiError): boolean {
  return (
    error.kind === 'network' ||
    error.kind === 'tooMany' ||
    error.status === 408 ||
    (error.status !== null && error.status >= 500) ||
    (error.kind === 'unexpected' && error.status === null)
  );
}
