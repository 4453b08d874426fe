import { describe, expect, it } from 'vitest';
import {
  VersionDetailSchema,
  VersionListQuerySchema,
  VersionParamsSchema,
  VersionRestoreBodySchema,
} from './versions.ts';

describe('the history contract', () => {
  it('reads a page query: before and limit as digits, limit 1 to 100, nothing else', () => {
    expect(VersionListQuerySchema.parse({})).toEqual({});
    expect(VersionListQuerySchema.parse({ before: '26', limit: '20' })).toEqual({ before: 26, limit: 20 });
    for (const limit of ['0', '101', '-1', '2.5', 'ten'])
      expect(VersionListQuerySchema.safeParse({ limit }).error?.issues[0]?.message).toBe(
        'limit must be a whole number from 1 to 100.',
      );
    expect(VersionListQuerySchema.safeParse({ before: '0' }).success).toBe(false);
    expect(VersionListQuerySchema.safeParse({ page: '2' }).success).toBe(false);
  });

  it('reads a version address and a restore body', () => {
    expect(VersionParamsSchema.parse({ id: '7', n: '3' })).toEqual({ id: 7, n: 3 });
    expect(VersionParamsSchema.safeParse({ id: '7', n: '0' }).success).toBe(false);
    expect(VersionRestoreBodySchema.parse(undefined)).toBeUndefined();
    expect(VersionRestoreBodySchema.parse({ updated_at: '1732780800000' })).toEqual({ updated_at: '1732780800000' });
    expect(VersionRestoreBodySchema.safeParse({ responses: {} }).success).toBe(false);
  });

  it('describes a whole version: who, when, how, what changed, its answers and files', () => {
    const version = {
      number: 2,
      author: null,
      created_at: '2026-11-29T06:00:00.000Z',
      client: 'mobile',
      restoredFrom: null,
      summary: 'Artifact Name',
      responses: { artifactName: 'Ramp race' },
      images: [],
      videos: [],
      documents: [],
    };
    expect(VersionDetailSchema.parse(version)).toEqual(version);
    expect(VersionDetailSchema.safeParse({ ...version, client: 'tablet' }).success).toBe(false);
  });
});
