import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { lazySchema } from './lazy.ts';

describe('lazySchema outside the browser', () => {
  it('builds the schema at once and is the schema itself (the server compiles serializers from it)', () => {
    const built = z.object({ id: z.number() }).meta({ id: 'LazyTestThing' });
    const build = vi.fn(() => built);
    const schema = lazySchema(build);
    expect(build).toHaveBeenCalledTimes(1);
    expect(schema).toBe(built);
    expect(z.toJSONSchema(z.object({ thing: schema }), { io: 'output', target: 'draft-7' })).toMatchObject({
      properties: { thing: { $ref: '#/definitions/LazyTestThing' } },
    });
  });
});
