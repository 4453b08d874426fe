import { ApiErrorSchema } from '#schemas/common';

/** The error answers a route documents in the OpenAPI description. */
export const errorResponses = {
  400: ApiErrorSchema,
  401: ApiErrorSchema,
  403: ApiErrorSchema,
  404: ApiErrorSchema,
  429: ApiErrorSchema,
} as const;

/** The error answers of the shared-portfolio routes: also 409 (a newer version exists) and 423 (locked). */
export const sharedErrorResponses = { ...errorResponses, 409: errorResponses[400], 423: errorResponses[400] } as const;
