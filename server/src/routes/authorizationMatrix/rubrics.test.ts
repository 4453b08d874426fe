/**
 * The permission table (`permissions.md`) as a test, rubrics and scores (decision 055): see
 * `server/test/authorizationMatrix.ts` for what every case checks.
 */
import {
  type Case,
  checkRoutes,
  everyone,
  get,
  hidden,
  manage,
  people,
  readShared,
  SHARED_ARTIFACT_NOT_FOUND,
  SHARED_NOT_FOUND,
  sharedVideoWorld,
  t,
  work,
} from '../../../test/authorizationMatrix.ts';
import { seedRubricAndScore, seedSpareRubric, SMALL_RUBRIC } from '../../../test/fixtures/rubrics.ts';

const RUBRIC_NOT_FOUND = 'Rubric not found.';
const INSTALLATION_ONLY = 'Only researchers can make or change rubrics for the whole installation.';

/** A shared video world whose portfolio scores with a rubric, with one score by the portfolio's owner. */
async function rubricWorld() {
  const world = await sharedVideoWorld();
  const seeded = await seedRubricAndScore(t, world.sp.id, world.sa!.id, people.spOwner.user.id, 1);
  return { ...world, ...seeded, rubric: { id: seeded.rubricId } };
}

const CASES: Case[] = [
  { route: 'GET /rubrics', expect: everyone(200), request: async () => get('/rubrics') },
  {
    route: 'POST /rubrics for a shared portfolio',
    expect: manage,
    request: async () => ({
      method: 'POST',
      url: '/rubrics',
      payload: { ...SMALL_RUBRIC, sharedPortfolio: (await rubricWorld()).sp.id },
    }),
  },
  {
    route: 'POST /rubrics installation-wide',
    expect: {
      researcher: 200,
      ...Object.fromEntries(
        (['owner', 'teacher', 'lead', 'spOwner', 'member', 'invitee', 'former'] as const).map((p) => [
          p,
          [403, INSTALLATION_ONLY] as const,
        ]),
      ),
    },
    request: async () => ({ method: 'POST', url: '/rubrics', payload: { ...SMALL_RUBRIC, sharedPortfolio: null } }),
  },
  {
    route: 'GET /rubrics/{id}',
    expect: readShared(RUBRIC_NOT_FOUND),
    request: async () => get(`/rubrics/${(await rubricWorld()).rubric.id}`),
  },
  {
    route: 'PUT /rubrics/{id}',
    expect: {
      spOwner: 200,
      researcher: 200,
      member: [403, 'Only the owner of this shared portfolio can do this.'],
      ...hidden(RUBRIC_NOT_FOUND, 'invitee', 'teacher', 'lead', 'former'),
    },
    request: async () => ({
      method: 'PUT',
      url: `/rubrics/${(await rubricWorld()).rubric.id}`,
      payload: { ...SMALL_RUBRIC, name: 'Renamed' },
    }),
  },
  {
    route: 'DELETE /rubrics/{id} (unused, of a shared portfolio)',
    expect: {
      spOwner: 200,
      researcher: 200,
      member: [403, 'Only the owner of this shared portfolio can do this.'],
      ...hidden(RUBRIC_NOT_FOUND, 'invitee', 'teacher', 'lead', 'former'),
    },
    request: async () => {
      const { sp } = await rubricWorld();
      return { method: 'DELETE', url: `/rubrics/${await seedSpareRubric(t, sp.id, people.spOwner.user.id)}` };
    },
  },
  {
    route: 'DELETE /rubrics/{id} (unused, installation-wide)',
    expect: {
      researcher: 200,
      ...Object.fromEntries(
        (['owner', 'teacher', 'lead', 'spOwner', 'member', 'invitee', 'former'] as const).map((p) => [
          p,
          [403, INSTALLATION_ONLY] as const,
        ]),
      ),
    },
    request: async () => {
      const id = await seedSpareRubric(t, null, people.researcher.user.id);
      return { method: 'DELETE', url: `/rubrics/${id}` };
    },
  },
  {
    route: 'GET /shared-portfolios/{id}/rubric',
    expect: readShared(SHARED_NOT_FOUND),
    request: async () => get(`/shared-portfolios/${(await rubricWorld()).sp.id}/rubric`),
  },
  {
    route: 'PUT /shared-portfolios/{id}/rubric',
    expect: manage,
    request: async () => ({
      method: 'PUT',
      url: `/shared-portfolios/${(await rubricWorld()).sp.id}/rubric`,
      payload: { rubric: null },
    }),
  },
  {
    route: 'GET /shared-artifacts/{id}/scores',
    expect: readShared(SHARED_ARTIFACT_NOT_FOUND),
    request: async () => get(`/shared-artifacts/${(await rubricWorld()).sa!.id}/scores`),
  },
  {
    route: 'POST /scores at a moment',
    expect: work('Invalid shared artifact ID.'),
    request: async () => {
      const { sa, video, choice } = await rubricWorld();
      return {
        method: 'POST',
        url: '/scores',
        payload: { sharedArtifact: sa!.id, ...choice, moment: { media: video, start: 1, end: 2 }, note: 'Here.' },
      };
    },
  },
  {
    route: 'DELETE /scores/{id} (given by the portfolio’s owner)',
    expect: {
      spOwner: 200,
      member: [403, 'You can delete only your own scores.'],
      researcher: [403, 'You can delete only your own scores.'],
      ...hidden('Score not found.', 'invitee', 'teacher', 'lead', 'former'),
    },
    request: async () => ({ method: 'DELETE', url: `/scores/${(await rubricWorld()).scoreId}` }),
  },
];

checkRoutes(CASES);
