import type { FastifySchemaCompiler } from 'fastify';
import type { z } from 'zod';

/** A request part (body, query, params) that failed its Zod schema; keeps the issues for the message. */
export class RequestValidationError extends Error {
  override name = 'RequestValidationError';
  readonly statusCode = 400;
  constructor(
    readonly issues: z.core.$ZodIssue[],
    readonly part: string,
  ) {
    super(issues[0]?.message ?? 'Invalid request');
  }
}

/**
 * Validates every request part with its Zod schema, keeping the parsed (trimmed, coerced) value.
 * Issues keep their input, so that a wrong value ("must be a number") is told apart from a
 * missing one ("is required"). Fastify hands a missing body over as `null`; it is validated as
 * absent, so that routes whose body is optional take a request without one.
 */
export const zodValidatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema, httpPart }) =>
  (data: unknown) => {
    const result = schema.safeParse(httpPart === 'body' && data === null ? undefined : data, { reportInput: true });
    if (result.success) return { value: result.data };
    return { error: new RequestValidationError(result.error.issues, httpPart ?? 'body') };
  };
