import { isDeepStrictEqual } from 'node:util';
import type { FastifySerializerCompiler } from 'fastify/types/schema.js';
import fastJson from 'fast-json-stringify';
import { ResponseSerializationError } from 'fastify-type-provider-zod';
import { z } from 'zod';

type Serialize = (data: unknown) => string;

/** The route's response schema: a Zod schema, or the `{ properties }` wrapper Fastify may hand over. */
function zodSchemaOf(schema: unknown): z.ZodType {
  if (schema instanceof z.ZodType) return schema;
  if (typeof schema === 'object' && schema !== null && 'properties' in schema && schema.properties instanceof z.ZodType)
    return schema.properties;
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
    const json = withNullable(z.toJSONSchema(schema, { io: 'output', target: 'draft-7', unrepresentable: 'throw' }));
    return fastJson(json as Parameters<typeof fastJson>[0]) as Serialize;
  } catch {
    return null;
  }
}

type JsonSchema = { [key: string]: unknown };

const isNullType = (value: unknown) =>
  typeof value === 'object' &&
  value !== null &&
  Object.keys(value).length === 1 &&
  (value as JsonSchema)['type'] === 'null';

/**
 * The schema with every "X or null" (`anyOf: [X, {type: 'null'}]`, how Zod writes `.nullable()`)
 * written as `X` with `nullable: true`. `fast-json-stringify` writes the latter directly; an
 * `anyOf` makes it pick the branch at run time with a JSON Schema validator of its own (Ajv),
 * which cost about 50 MB of memory across the routes' serializers.
 */
function withNullable(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withNullable);
  if (typeof node !== 'object' || node === null) return node;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) out[key] = withNullable(value);
  const anyOf = out['anyOf'];
  if (Array.isArray(anyOf) && anyOf.length === 2 && anyOf.some(isNullType)) {
    const other = anyOf.find((branch) => !isNullType(branch)) as JsonSchema;
    if (
      typeof other === 'object' &&
      other !== null &&
      !('anyOf' in other) &&
      !('oneOf' in other) &&
      !('$ref' in other)
    ) {
      const { anyOf: _dropped, ...rest } = out;
      return { ...rest, ...other, nullable: true };
    }
  }
  return out;
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
    // Compiled at a route's first answer with this status: a process compiles the writers of the
    // answers it gives (most routes' error answers are never sent), and starts sooner.
    let fast: Serialize | null | undefined;
    const written = (data: unknown) => {
      fast ??= compiledSerializer(schema) ?? checked;
      return fast(data);
    };
    if (!verify) return written;
    return (data) => {
      const expected = checked(data);
      const json = written(data);
      if (!isDeepStrictEqual(JSON.parse(json), JSON.parse(expected))) {
        throw new Error(
          `the compiled serializer of ${method} ${url} wrote ${json.slice(0, 300)}, the schema gives ${expected.slice(0, 300)}`,
        );
      }
      return json;
    };
  };
}
