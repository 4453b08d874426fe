// @vitest-environment jsdom
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { lazySchema } from './lazy.ts';

describe('lazySchema in the browser', () => {
  it('builds nothing until the schema is first used, then builds it once', () => {
    const build = vi.fn(() => z.object({ id: z.number().int() }));
    const schema = lazySchema(build);
    expect(build).not.toHaveBeenCalled();
    expect(schema.parse({ id: 3 })).toEqual({ id: 3 });
    expect(schema.safeParse({ id: 'x' }).success).toBe(false);
    expect(build).toHaveBeenCalledTimes(1);
  });

  it('is not built when another schema only holds it', () => {
    const build = vi.fn(() => z.string().max(3));
    const inner = lazySchema(build);
    const outer = lazySchema(() => z.object({ tags: z.array(inner), first: inner.optional() }));
    const list = z.array(inner);
    expect(build).not.toHaveBeenCalled();
    expect(list.parse(['a', 'bc'])).toEqual(['a', 'bc']);
    expect(outer.safeParse({ tags: ['abcd'] }).success).toBe(false);
    expect(outer.parse({ tags: [], first: 'ab' })).toEqual({ tags: [], first: 'ab' });
    expect(build).toHaveBeenCalledTimes(1);
  });

  it('behaves as the schema: its class, its methods (detached too), extending it, its error messages', () => {
    const schema = lazySchema(() => z.strictObject({ name: z.string().min(1, 'A name is required.') }));
    expect(schema).toBeInstanceOf(z.ZodObject);
    expect(schema instanceof z.ZodType).toBe(true);
    const { parse } = schema;
    expect(parse({ name: 'x' })).toEqual({ name: 'x' });
    const extended = schema.extend({ age: z.number().optional() });
    expect(extended.parse({ name: 'y', age: 2 })).toEqual({ name: 'y', age: 2 });
    const failed = schema.safeParse({ name: '', extra: 1 });
    expect(failed.success).toBe(false);
    expect(failed.error?.issues.map((i) => i.message)).toContain('A name is required.');
    expect(Object.keys(schema.shape)).toEqual(['name']);
    expect('shape' in schema).toBe(true);
  });

  it('builds schemas that refer to each other lazily', () => {
    const Node: z.ZodType<{ name: string; children: { name: string; children: unknown[] }[] }> = lazySchema(() =>
      z.object({
        name: z.string(),
        get children() {
          return z.array(Node);
        },
      }),
    ) as never;
    expect(Node.parse({ name: 'a', children: [{ name: 'b', children: [] }] })).toEqual({
      name: 'a',
      children: [{ name: 'b', children: [] }],
    });
  });
});
