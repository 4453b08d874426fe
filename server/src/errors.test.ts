import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describeIssue } from './errors.ts';

/** The message for the first issue of parsing `input` with `schema`, as the API words it. */
function messageFor(schema: z.ZodType, input: unknown, part = 'body'): string {
  const result = schema.safeParse(input, { reportInput: true });
  expect(result.success).toBe(false);
  return describeIssue(result.error!.issues[0]!, part);
}

describe('describeIssue', () => {
  const body = z.strictObject({
    name: z.string().trim().min(1).max(5),
    count: z.number().int().positive(),
    kind: z.enum(['a', 'b']),
    items: z.array(z.string()).min(1).max(2),
    custom: z.string().min(1, 'Field Custom is required.').optional(),
    predicate: z.string().regex(/^x/, 'must start with x').optional(),
  });
  const valid = { name: 'ok', count: 1, kind: 'a', items: ['x'] };

  it('names the field in plain words for Zod’s own issues', () => {
    expect(messageFor(body, { ...valid, name: undefined })).toBe('name is required.');
    expect(messageFor(body, { ...valid, name: '  ' })).toBe('name is required.');
    expect(messageFor(body, { ...valid, name: 'toolong' })).toBe('name must be at most 5 characters.');
    expect(messageFor(body, { ...valid, name: 3 })).toBe('name must be a text.');
    expect(messageFor(body, { ...valid, count: '3' })).toBe('count must be a number.');
    expect(messageFor(body, { ...valid, count: 1.5 })).toBe('count must be a whole number.');
    expect(messageFor(body, { ...valid, count: 0 })).toBe('count must be greater than 0.');
    expect(messageFor(body, { ...valid, kind: 'c' })).toBe('kind must be one of: "a", "b".');
    expect(messageFor(body, { ...valid, items: [] })).toBe('items must have at least 1 item(s).');
    expect(messageFor(body, { ...valid, items: ['a', 'b', 'c'] })).toBe('items must have at most 2 item(s).');
    expect(messageFor(body, { ...valid, items: [1] })).toBe('items.0 must be a text.');
    expect(messageFor(body, { ...valid, extra: 1, more: 2 })).toBe(
      'Unknown fields "extra", "more"; they are not accepted.',
    );
    expect(messageFor(body, [valid])).toBe('The request body must be an object.');
  });

  it('keeps the schema’s own sentences and prefixes its predicates with the field', () => {
    expect(messageFor(body, { ...valid, custom: '' })).toBe('Field Custom is required.');
    expect(messageFor(body, { ...valid, predicate: 'y' })).toBe('predicate must start with x.');
  });

  it('names the query for unknown query keys', () => {
    expect(messageFor(z.strictObject({ role: z.string().optional() }), { x: '1' }, 'querystring')).toBe(
      'Unknown field "x" in the query; it is not accepted.',
    );
  });
});
