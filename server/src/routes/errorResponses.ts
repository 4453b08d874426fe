import { ApiErrorSchema } from '#schemas/common';

/** The error answers a route documents in the OpenAPI description. */
export const errorResponses = {
  400: ApiErrorSchema,
  401: ApiErrorSchema,
  403: ApiErrorSchema,
  404: ApiErrorSchema,
  429: ApiErrorSchema,
} as const;
