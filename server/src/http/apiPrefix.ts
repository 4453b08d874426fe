/** Where the API lives: every route of a feature, the OpenAPI document and its browsable page. */
export const API_PREFIX = '/api/v1';
