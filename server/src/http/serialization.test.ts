import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createResponseSerializerCompiler } from './serialization.ts';

type Serialize = (data: unknown) => string;

const Moment = z
  .object({ media: z.number().int(), start: z.number(), end: z.number().nullable() })
  .meta({ id: 'Moment' });
const Answer = z.union([z.string(), z.array(z.string()), z.number()]);
const Schema = z.object({
  role: z.union([z.literal(1), z.literal(3), z.literal(4)]),
  kind: z.union([z.literal('a'), z.literal('b')]),
  responses: z.record(z.string(), Answer),
  moment: Moment.nullable(),
  again: Moment.nullable(),
  size: z.number().int().nullable(),
});

/** The route serializer, in production (`fast`) and test mode (`verified`: it must agree with Zod). */
function serializers(schema: z.ZodType): { fast: Serialize; verified: Serialize } {
  const route = { schema, method: 'GET', url: '/things', httpStatus: '200' } as never;
  return {
    fast: createResponseSerializerCompiler({ verify: false })(route) as Serialize,
    verified: createResponseSerializerCompiler({ verify: true })(route) as Serialize,
  };
}

const value = {
  role: 3,
  kind: 'b',
  responses: { q1: 'text', q2: ['x', 'y'], q3: 4.5, q4: [] },
  moment: { media: 7, start: 1.5, end: null },
  again: null,
  size: null,
};

describe('the compiled response serializer', () => {
  it('writes unions of literals, of plain types and nullable definitions as Zod does', () => {
    const { fast, verified } = serializers(Schema);
    expect(JSON.parse(fast(value))).toEqual(value);
    expect(verified(value)).toBe(fast(value));
    const other = { ...value, role: 1, kind: 'a', responses: {}, moment: null, again: value.moment, size: 12 };
    expect(verified(other)).toBe(fast(other));
  });

  it('leaves out fields the schema does not name, inside the rewritten unions too', () => {
    const { fast } = serializers(Schema);
    const extra = { ...value, secret: 1, moment: { ...value.moment, secret: 2 } };
    expect(JSON.parse(fast(extra))).toEqual(value);
  });

  it('refuses a value that none of the types fits', () => {
    const { fast } = serializers(Schema);
    expect(() => fast({ ...value, responses: { q1: true } })).toThrow(/does not match schema definition/);
  });
});
