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
    const json = withoutRunTimeChoices(
      z.toJSONSchema(schema, { io: 'output', target: 'draft-7', unrepresentable: 'throw' }),
    );
    return fastJson(json as Parameters<typeof fastJson>[0]) as Serialize;
  } catch {
    return null;
  }
}

type JsonSchema = { [key: string]: unknown };

const isObject = (value: unknown): value is JsonSchema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isNullType = (value: unknown) => isObject(value) && Object.keys(value).length === 1 && value['type'] === 'null';

/** Types `fast-json-stringify` tells apart by the value's JavaScript type (`typeof`, `Array.isArray`). */
const PLAIN_TYPES = new Set(['string', 'number', 'boolean', 'array']);
/** Keywords that only validate: the stringifier writes the value the same with or without them. */
const VALIDATION_ONLY = new Set([
  'type',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'maxItems',
  'minItems',
]);

/** A branch that is a plain type with validation keywords only (an array's items being plain too). */
function plainBranch(branch: unknown): branch is JsonSchema {
  if (!isObject(branch) || typeof branch['type'] !== 'string' || !PLAIN_TYPES.has(branch['type'])) return false;
  if (!Object.keys(branch).every((key) => VALIDATION_ONLY.has(key) || (key === 'items' && branch['type'] === 'array')))
    return false;
  return branch['type'] !== 'array' || (plainBranch(branch['items']) && branch['items']['type'] !== 'array');
}

/**
 * One `anyOf` written without a run-time choice, or `null` when it needs one:
 * - "X or null" (how Zod writes `.nullable()`) as `X` with `nullable: true`, also when X is a
 *   definition that refers to no other (`fast-json-stringify` writes `nullable` directly);
 * - constants of one type (a union of literals) as that type: the stringifier writes the value;
 * - plain types that JavaScript tells apart (`string | string[] | number`) as a list of types,
 *   which the stringifier chooses between with `typeof` and `Array.isArray`.
 */
function withoutChoice(anyOf: unknown[], definitions: JsonSchema): JsonSchema | null {
  if (anyOf.length === 2 && anyOf.some(isNullType)) {
    let other = anyOf.find((branch) => !isNullType(branch));
    const ref = isObject(other) && Object.keys(other).length === 1 ? other['$ref'] : undefined;
    if (typeof ref === 'string' && ref.startsWith('#/definitions/')) {
      const target = definitions[ref.slice('#/definitions/'.length)];
      if (isObject(target) && !JSON.stringify(target).includes('"$ref"')) other = target;
    }
    if (isObject(other) && !('anyOf' in other) && !('oneOf' in other) && !('$ref' in other))
      return { ...other, nullable: true };
    return null;
  }
  const first = anyOf[0];
  const constType = isObject(first) ? first['type'] : undefined;
  if (
    (constType === 'number' || constType === 'string') &&
    anyOf.every((b) => isObject(b) && b['type'] === constType && 'const' in b && Object.keys(b).length === 2)
  )
    return { type: constType, enum: anyOf.map((b) => (b as JsonSchema)['const']) };
  if (anyOf.every(plainBranch)) {
    // The string branch goes last: the stringifier takes anything with its own `toString` (an
    // array too) for a string.
    const types = anyOf.map((b) => b['type'] as string).sort((a, b) => Number(a === 'string') - Number(b === 'string'));
    if (new Set(types).size !== types.length) return null;
    const array = anyOf.find((b) => b['type'] === 'array');
    return { type: types, ...(array ? { items: array['items'] } : {}) };
  }
  return null;
}

/**
 * The schema with its `anyOf`s written without a run-time choice where the value's JavaScript
 * type decides (see `withoutChoice`). An `anyOf` left makes `fast-json-stringify` pick the branch
 * at run time with a JSON Schema validator of its own (Ajv), compiled from the whole response
 * schema at the route's first answer: about 50 MB of memory across the routes' serializers, and
 * 0.3–0.5 s of the first sign-in after a start.
 */
function withoutRunTimeChoices(root: unknown): unknown {
  const definitions = isObject(root) && isObject(root['definitions']) ? root['definitions'] : {};
  const rewrite = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(rewrite);
    if (!isObject(node)) return node;
    const out: JsonSchema = {};
    for (const [key, value] of Object.entries(node)) out[key] = rewrite(value);
    const anyOf = out['anyOf'];
    if (!Array.isArray(anyOf)) return out;
    const single = withoutChoice(anyOf, definitions);
    if (!single) return out;
    const { anyOf: _dropped, ...rest } = out;
    return { ...rest, ...(rewrite(single) as JsonSchema) };
  };
  return rewrite(root);
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
