/**
 * The permission table (`permissions.md`) as a test, for the files: see
 * `server/test/authorizationMatrix.ts` for the callers.
 */
import { describe, expect, it } from 'vitest';
import {
  type Caller,
  type Expected,
  FILE_NOT_FOUND,
  hidden,
  people,
  type Person,
  t,
  uploadedFiles,
} from '../../../test/authorizationMatrix.ts';
import { snapshot } from '../../../test/factories.ts';

/**
 * Files answer to capability addresses alone (no session): the address the API gave a caller is
 * signed for that caller, and works while that caller may read the file. Sent without any
 * credentials. Anonymous means the bare address of the file, without a capability.
 */
const FILE_CASES: {
  route: string;
  expect: Partial<Record<Person, Expected>>;
  url: () => Promise<string>;
  viewer?: true;
}[] = [
  {
    route: 'GET /uploads/{capability}/{name} of a personal artifact',
    expect: {
      owner: 200,
      researcher: 200,
      ...hidden(FILE_NOT_FOUND, 'teacher', 'lead', 'member'),
    },
    url: async () => (await uploadedFiles()).personal,
  },
  {
    route: 'GET /uploads/{capability}/{name} of a shared artifact',
    expect: {
      spOwner: 200,
      member: 200,
      invitee: 200,
      researcher: 200,
      ...hidden(FILE_NOT_FOUND, 'teacher', 'lead', 'former'),
    },
    url: async () => (await uploadedFiles()).shared,
  },
  // What the portal's viewer learns of a file opened from a bare link: the same rule as the file.
  {
    route: 'GET /viewer-files/{capability}/{name} of a personal artifact',
    expect: {
      owner: 200,
      researcher: 200,
      ...hidden(FILE_NOT_FOUND, 'teacher', 'lead', 'member'),
    },
    url: async () => (await uploadedFiles()).personal,
    viewer: true,
  },
  {
    route: 'GET /viewer-files/{capability}/{name} of a shared artifact',
    expect: {
      spOwner: 200,
      member: 200,
      invitee: 200,
      researcher: 200,
      ...hidden(FILE_NOT_FOUND, 'teacher', 'lead', 'former'),
    },
    url: async () => (await uploadedFiles()).shared,
    viewer: true,
  },
];

describe.each(FILE_CASES)('$route', (c) => {
  // The bare address is no route at all (404).
  const callers: [Caller, Expected][] = [
    ['anon', 404],
    ['blocked', [404, FILE_NOT_FOUND]],
    ...(Object.entries(c.expect) as [Person, Expected][]),
  ];
  const addressFor = async (caller: Caller) => {
    const url = await c.url();
    const bare = `/uploads/${url.split('/').pop()}`;
    const address = caller === 'anon' ? bare : t.app.services.media.signFor(people[caller].user.id)(url);
    return c.viewer ? address.replace(/^\/uploads\//, '/viewer-files/') : address;
  };

  const fetched = async (caller: Caller) => {
    const address = await addressFor(caller);
    const before = await snapshot(t);
    const res = await t.app.inject({ method: 'GET', url: `/api/v1${address}` });
    return { res, before };
  };

  it.each(callers.filter(([, e]) => typeof e === 'number'))('as %s: %j, changing nothing', async (caller, expected) => {
    const { res, before } = await fetched(caller);
    expect(res).toHaveStatus(expected as number);
    expect(await snapshot(t)).toEqual(before);
  });

  it.each(callers.filter(([, e]) => typeof e !== 'number'))('as %s: %j, changing nothing', async (caller, expected) => {
    const { res, before } = await fetched(caller);
    const [status, message] = expected as readonly [number, string];
    expect(res).toBeApiError(status, message);
    expect(await snapshot(t)).toEqual(before);
  });
});
