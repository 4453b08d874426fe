/**
 * The permission table (`permissions.md`) as a test, the charts' numbers (decision 057): see
 * `server/test/authorizationMatrix.ts` for what every case checks.
 */
import {
  type Case,
  checkRoutes,
  get,
  hidden,
  people,
  SHARED_NOT_FOUND,
  sharedWorld,
  t,
} from '../../../test/authorizationMatrix.ts';
import { seedRubricAndScore } from '../../../test/fixtures/rubrics.ts';

const NOT_ALLOWED = 'Charts are for researchers and for the leads of shared portfolios.';

/** A shared world whose portfolio scores with a rubric, with one score by its owner. */
async function chartedWorld() {
  const world = await sharedWorld();
  await seedRubricAndScore(t, world.sp.id, world.sa!.id, people.spOwner.user.id);
  return world;
}

const CASES: Case[] = [
  {
    // PLC leads (`lead`, `spOwner`) see their own portfolios (none for `lead`); a teacher who
    // owns no shared portfolio is told no.
    route: 'GET /insights',
    expect: {
      researcher: 200,
      spOwner: 200,
      lead: 200,
      owner: [403, NOT_ALLOWED],
      teacher: [403, NOT_ALLOWED],
      member: [403, NOT_ALLOWED],
      invitee: [403, NOT_ALLOWED],
      former: [403, NOT_ALLOWED],
    },
    request: async () => {
      await chartedWorld();
      return get('/insights?from=2026-01-01');
    },
  },
  {
    route: 'GET /insights?sharedPortfolio=',
    expect: {
      spOwner: 200,
      researcher: 200,
      member: [403, 'Only the owner of this shared portfolio can do this.'],
      ...hidden(SHARED_NOT_FOUND, 'invitee', 'teacher', 'lead', 'former', 'owner'),
    },
    request: async () => get(`/insights?sharedPortfolio=${(await chartedWorld()).sp.id}`),
  },
];

checkRoutes(CASES);
