import { isDeepStrictEqual } from 'node:util';
import type { FastifySerializerCompiler } from 'fastify/types/schema.js';
import fastJson from 'fast-json-stringify';
import { ResponseSerializationError } from 'fastify-type-provider-zod';
import { z } from 'zod';

type Serialize = (data: unknown) => string;

/** The route's response schema: a Zod schema, or the `{ properties }` wrapper Fastify may hand over. */
function zodSchemaOf(schema: unknown): z.ZodType {
  if (schema instanceof z.ZodType) return schema;
  if (typeof schema === 'object' && schema !== null && 'properties' in schema && schema.properties instanceof z.ZodType) return schema.properties;
  throw new Error(`a response schema that is not a Zod schema: ${JSON.stringify(schema)}`);
}

/** The Zod way: encode (a checked copy holding only the schema's fields), then `JSON.stringify`. */
function zodSerializer(schema: z.ZodType, method: string, url: string): Serialize {
  return (data) => {
    const result = z.safeEncode(schema, data);
    if (result.error) throw new ResponseSerializationError(method, url, { cause: result.error });
    return JSON.stringify(result.data);
  };
}

/**
 * A stringifier compiled from the schema's JSON Schema (`fast-json-stringify`, Fastify's own
 * serializer), or `null` for a schema JSON Schema cannot express (a transform, say).
 */
function compiledSerializer(schema: z.ZodType): Serialize | null {
  try {
    const json = z.toJSONSchema(schema, { io: 'output', target: 'draft-7', unrepresentable: 'throw' });
    return fastJson(json as Parameters<typeof fastJson>[0]) as Serialize;
  } catch {
    return null;
  }
}

/**
 * Serializes every answer through its route's response schema, so that only the fields the
 * schema names ever leave the server.
 *
 * In production the schema is compiled once into a stringifier (`fast-json-stringify`): it writes
 * the schema's fields straight from the data, where Zod would first build a checked copy of the
 * whole answer and then stringify it (on a 200 KB portfolio, that copy and its garbage were a
 * third of the request's CPU). With `verify` (the test suites, end-to-end included), every answer
 * also goes the Zod way and the two must agree — same fields, same values — or the request fails:
 * the fast path is proved against the schema on every answer the tests produce. Answers Zod
 * would refuse (a missing field, a wrong type) fail there too.
 */
export function createResponseSerializerCompiler({ verify }: { verify: boolean }): FastifySerializerCompiler<unknown> {
  return ({ schema: maybeSchema, method, url }) => {
    const schema = zodSchemaOf(maybeSchema);
    const checked = zodSerializer(schema, method, url);
    const fast = compiledSerializer(schema);
    if (!fast) return checked;
    if (!verify) return fast;
    return (data) => {
      const expected = checked(data);
      const written = fast(data);
      if (!isDeepStrictEqual(JSON.parse(written), JSON.parse(expected))) {
        throw new Error(`the compiled serializer of ${method} ${url} wrote ${written.slice(0, 300)}, the schema gives ${expected.slice(0, 300)}`);
      }
      return written;
    };
  };
}
