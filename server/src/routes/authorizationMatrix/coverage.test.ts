/**
 * The permission table (`permissions.md`) as a test, the coverage map (decision 056): see
 * `server/test/authorizationMatrix.ts` for what every case checks.
 */
import {
  type Case,
  checkRoutes,
  get,
  hidden,
  people,
  personalWorld,
  SHARED_NOT_FOUND,
  sharedWorld,
  work,
} from '../../../test/authorizationMatrix.ts';

const TEACHER_NOT_FOUND = 'Teacher not found.';
const INSTALLATION_ONLY = 'Only researchers can see the coverage of the whole installation.';

/** A teacher's own map: hers, and researchers'; nobody else learns of her. */
const ownMap = {
  owner: 200,
  researcher: 200,
  ...hidden(TEACHER_NOT_FOUND, 'teacher', 'lead', 'spOwner', 'member', 'invitee', 'former'),
} as const;
/** A shared portfolio's map: its members (the owner among them) and researchers. */
const plcMap = { ...work(SHARED_NOT_FOUND), owner: [404, SHARED_NOT_FOUND] } as const;
/** The installation's map: researchers only. */
const installationMap = {
  researcher: 200,
  ...Object.fromEntries(
    (['owner', 'teacher', 'lead', 'spOwner', 'member', 'invitee', 'former'] as const).map((p) => [
      p,
      [403, INSTALLATION_ONLY] as const,
    ]),
  ),
};

const teacherQuery = async () => {
  await personalWorld();
  return `scope=teacher&id=${people.owner.user.id}&rows=portfolios`;
};

const CASES: Case[] = [
  {
    route: 'GET /coverage of a teacher',
    expect: ownMap,
    request: async () => get(`/coverage?${await teacherQuery()}`),
  },
  {
    route: 'GET /coverage of a shared portfolio',
    expect: plcMap,
    request: async () => get(`/coverage?scope=shared&id=${(await sharedWorld()).sp.id}`),
  },
  {
    route: 'GET /coverage of the installation',
    expect: installationMap,
    request: async () => get('/coverage?scope=installation&rows=portfolios&dimension=coreIdeas'),
  },
  {
    route: 'GET /coverage/artifacts of a teacher',
    expect: ownMap,
    request: async () => {
      const { portfolio } = await personalWorld();
      return get(
        `/coverage/artifacts?scope=teacher&id=${people.owner.user.id}&rows=portfolios&row=${portfolio.id}&column=SEP1`,
      );
    },
  },
  {
    route: 'GET /coverage/artifacts of a shared portfolio',
    expect: plcMap,
    request: async () =>
      get(
        `/coverage/artifacts?scope=shared&id=${(await sharedWorld()).sp.id}&row=${people.member.user.id}&column=SEP2`,
      ),
  },
  {
    route: 'GET /coverage/artifacts of the installation',
    expect: installationMap,
    request: async () =>
      get(`/coverage/artifacts?scope=installation&row=${people.owner.user.id}&column=CCC1&dimension=crosscutting`),
  },
];

checkRoutes(CASES);
