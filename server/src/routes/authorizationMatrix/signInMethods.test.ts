/**
 * The permission table (`permissions.md`) as a test, accounts' sign-in methods: see
 * `server/test/authorizationMatrix.ts` for what every case checks.
 */
import { type Case, checkRoutes, everyone, get, people, t } from '../../../test/authorizationMatrix.ts';
import { createTeacher } from '../../../test/factories.ts';

const ONLY_RESEARCHERS = 'Only researchers can manage users.';
const refusedToAll = {
  owner: [403, ONLY_RESEARCHERS],
  teacher: [403, ONLY_RESEARCHERS],
  lead: [403, ONLY_RESEARCHERS],
  spOwner: [403, ONLY_RESEARCHERS],
  member: [403, ONLY_RESEARCHERS],
  invitee: [403, ONLY_RESEARCHERS],
  former: [403, ONLY_RESEARCHERS],
} as const;

/** A teacher with an identity at the provider `school` linked. */
async function linkedTeacher(): Promise<{ userId: number; identityId: number }> {
  const teacher = await createTeacher(t);
  const { rows } = await t.db.query<{ id: number }>(
    `INSERT INTO linked_identities (user_id, provider, subject, email) VALUES ($1, 'school', $2, $3) RETURNING id`,
    [teacher.user.id, `subject-${teacher.user.id}`, teacher.user.email],
  );
  return { userId: teacher.user.id, identityId: rows[0]!.id };
}

const CASES: Case[] = [
  {
    route: 'GET /users/{id}/sign-in-methods',
    expect: { researcher: 200, ...refusedToAll },
    request: async () => get(`/users/${(await linkedTeacher()).userId}/sign-in-methods`),
  },
  {
    route: 'DELETE /users/{id}/identities/{identityId}',
    expect: { researcher: 200, ...refusedToAll },
    request: async () => {
      const { userId, identityId } = await linkedTeacher();
      return { method: 'DELETE', url: `/users/${userId}/identities/${identityId}` };
    },
  },
  // Last: a password set ends the caller's other sessions (its token here among them).
  {
    route: 'PUT /users/me/password',
    expect: everyone(200),
    request: async (caller) => ({
      method: 'PUT',
      url: '/users/me/password',
      payload: {
        password: 'a long and unusual phrase 42',
        passwordConfirmation: 'a long and unusual phrase 42',
        ...(caller === 'anon' ? {} : { currentPassword: people[caller].password }),
      },
    }),
  },
];

checkRoutes(CASES);
