/**
 * The permission table (`permissions.md`) as a test, shared portfolios, the researchers' exports and teachers' archives: see
 * `server/test/authorizationMatrix.ts` for what every case checks.
 */
import {
  addMember,
  ARCHIVE_NOT_FOUND,
  ARCHIVE_RESEARCHER,
  type Case,
  checkRoutes,
  everyone,
  get,
  hidden,
  manage,
  ONLY_RESEARCHERS,
  ONLY_RESEARCHERS_PACKAGE,
  ownersArchive,
  people,
  SHARED_NOT_FOUND,
  sharedWorld,
  t,
} from '../../../test/authorizationMatrix.ts';
import { createTeacher } from '../../../test/factories.ts';

const CASES: Case[] = [
  // Shared portfolios
  { route: 'GET /shared-portfolios', expect: everyone(200), request: async () => get('/shared-portfolios') },
  {
    route: 'GET /shared-portfolios/{id}',
    expect: {
      spOwner: 200,
      member: 200,
      invitee: 200,
      researcher: 200,
      ...hidden(SHARED_NOT_FOUND, 'teacher', 'lead', 'former'),
    },
    request: async () => get(`/shared-portfolios/${(await sharedWorld()).sp.id}`),
  },
  {
    route: 'GET /shared-portfolios/{id}/summary',
    expect: {
      spOwner: 200,
      member: 200,
      invitee: 200,
      researcher: 200,
      ...hidden(SHARED_NOT_FOUND, 'teacher', 'lead', 'former'),
    },
    request: async () => get(`/shared-portfolios/${(await sharedWorld()).sp.id}/summary`),
  },
  {
    route: 'POST /shared-portfolios',
    expect: {
      spOwner: 200,
      lead: 200,
      researcher: 200,
      teacher: [403, 'You do not have permission to access this page.'],
      member: [403, 'You do not have permission to access this page.'],
    },
    request: async () => ({ method: 'POST', url: '/shared-portfolios', payload: { name: 'Team', structure: [] } }),
  },
  {
    route: 'PUT /shared-portfolios/{id}',
    expect: manage,
    request: async () => ({
      method: 'PUT',
      url: `/shared-portfolios/${(await sharedWorld()).sp.id}`,
      payload: { name: 'Renamed', structure: [] },
    }),
  },
  {
    route: 'DELETE /shared-portfolios/{id}',
    expect: manage,
    request: async () => ({
      method: 'DELETE',
      url: `/shared-portfolios/${(await sharedWorld({ empty: true })).sp.id}`,
    }),
  },
  {
    route: 'GET /shared-portfolios/{id}/members',
    expect: manage,
    request: async () => get(`/shared-portfolios/${(await sharedWorld()).sp.id}/members`),
  },
  {
    route: 'POST /shared-portfolios/{id}/leave',
    expect: {
      member: 200,
      spOwner: 200,
      ...hidden(SHARED_NOT_FOUND, 'invitee', 'teacher', 'lead', 'former', 'researcher'),
    },
    request: async (caller) => {
      const { sp } = await sharedWorld();
      // The owner can leave only by naming a member as the new owner.
      const payload = caller === 'spOwner' ? { newOwnerId: people.member.user.id } : {};
      return { method: 'POST', url: `/shared-portfolios/${sp.id}/leave`, payload };
    },
  },
  {
    route: 'POST /shared-portfolios/{id}/remove-user/{userId}',
    expect: manage,
    request: async () => {
      const { sp } = await sharedWorld();
      const other = await createTeacher(t);
      await addMember(sp.id, other);
      return { method: 'POST', url: `/shared-portfolios/${sp.id}/remove-user/${other.user.id}` };
    },
  },
  {
    route: 'GET /shared-portfolios/export',
    expect: {
      researcher: 200,
      spOwner: [403, ONLY_RESEARCHERS],
      member: [403, ONLY_RESEARCHERS],
      teacher: [403, ONLY_RESEARCHERS],
    },
    request: async () => get('/shared-portfolios/export'),
  },
  {
    route: 'GET /research/export',
    expect: {
      researcher: 200,
      owner: [403, ONLY_RESEARCHERS_PACKAGE],
      spOwner: [403, ONLY_RESEARCHERS_PACKAGE],
      member: [403, ONLY_RESEARCHERS_PACKAGE],
    },
    request: async () => get('/research/export'),
  },
  {
    route: 'GET /research/exports',
    expect: { researcher: 200, teacher: [403, ONLY_RESEARCHERS_PACKAGE], lead: [403, ONLY_RESEARCHERS_PACKAGE] },
    request: async () => get('/research/exports'),
  },

  // A teacher's archive of her own work (decision 022): nobody else's, and no researcher's.
  {
    route: 'GET /archives',
    expect: { owner: 200, teacher: 200, lead: 200, researcher: [403, ARCHIVE_RESEARCHER] },
    request: async () => get('/archives'),
  },
  {
    route: 'POST /archives',
    expect: { teacher: 200, lead: 200, researcher: [403, ARCHIVE_RESEARCHER] },
    request: async () => ({ method: 'POST', url: '/archives' }),
  },
  {
    route: 'GET /archives/{id}/download',
    expect: {
      owner: 200,
      ...hidden(ARCHIVE_NOT_FOUND, 'teacher', 'lead', 'researcher', 'member'),
    },
    request: async () => get(`/archives/${await ownersArchive()}/download`),
  },
];

checkRoutes(CASES);
