import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import { describeIssue, HttpError, isFastifyClientError, reasonOf } from '../../errors.ts';
import { API_PREFIX } from '../../http/apiPrefix.ts';
import { RequestValidationError } from '../../http/validation.ts';

/** The status, stable code and message an error is answered with; unexpected errors are logged. */
function describeError(error: FastifyError | Error, log: (error: unknown) => void): { status: number; code: string; message: string } {
  if (error instanceof RequestValidationError) {
    return { status: 400, code: 'validation_error', message: error.issues[0] ? describeIssueOf(error) : 'The request is not valid.' };
  }
  if (error instanceof HttpError) return { status: error.statusCode, code: error.code, message: error.message };
  if (isFastifyClientError(error)) {
    const code = (typeof error.code === 'string' ? error.code : 'bad_request').toLowerCase();
    return { status: error.statusCode!, code, message: clientErrorMessage(error.code, error.message) };
  }
  log(error);
  return { status: 500, code: 'internal_error', message: 'An internal server error occurred.' };
}

function describeIssueOf(error: RequestValidationError): string {
  // An unknown field explains the request best (a misspelt name also shows up as a missing one).
  const issue = error.issues.find((i) => i.code === 'unrecognized_keys') ?? error.issues[0]!;
  if (issue.path.length === 0 && issue.code === 'invalid_type' && (issue.input === null || issue.input === undefined)) {
    return error.part === 'body' ? 'The request body is required.' : 'The request is missing its parameters.';
  }
  return describeIssue(issue, error.part);
}

function clientErrorMessage(code: string, fallback: string): string {
  switch (code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'This content type is not accepted here.';
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'The request body is too large.';
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'The request body is required.';
    case 'FST_STATIC_FORBIDDEN_PATH':
      return 'This address is not allowed: it must not contain "." or ".." segments, backslashes or empty segments.';
    default:
      return fallback;
  }
}

/**
 * Errors raised before routing (a URL that cannot be decoded) get the common error body too;
 * given to Fastify's constructor as `frameworkErrors`.
 */
export function frameworkErrors(error: FastifyError, _request: unknown, reply: FastifyReply): void {
  const status = error.statusCode ?? 400;
  const message = status < 500 ? 'The address of the request is not valid.' : 'An internal server error occurred.';
  void reply
    .status(status)
    .type('application/json')
    .send({ statusCode: status, error: reasonOf(status), message, code: status < 500 ? 'bad_url' : 'internal_error' });
}

/**
 * One error handler for every route: `{statusCode, error, message, code}`, with the message in
 * the nested `[{messages: [{id, message}]}]` shape under `/auth/` (the mobile apps read it so).
 */
async function errorHandler(app: FastifyInstance): Promise<void> {
  app.setErrorHandler((error: FastifyError | Error, request, reply) => {
    const nested = request.url.startsWith(`${API_PREFIX}/auth/`);
    const { status, code, message } = describeError(error, (err) => request.log.error({ err }, 'unexpected error'));
    const body = {
      statusCode: status,
      error: reasonOf(status),
      message: nested || (error instanceof HttpError && error.nested) ? [{ messages: [{ id: `Auth.${code}`, message }] }] : message,
      code,
    };
    if (status >= 500) request.log.warn({ status, code }, 'request failed');
    reply.status(status).type('application/json').serializer(JSON.stringify).send(body);
  });
}

export default fastifyPlugin(errorHandler, { name: 'errors' });
