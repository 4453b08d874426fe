/**
 * The permission table (`permissions.md`) as a test, shared artifacts, their comments and reactions: see
 * `server/test/authorizationMatrix.ts` for what every case checks.
 */
import {
  addMember,
  type Case,
  checkRoutes,
  everyone,
  get,
  hidden,
  NOT_YOURS,
  people,
  SHARED_ARTIFACT_NOT_FOUND,
  sharedWorld,
  t,
  work,
} from '../../../test/authorizationMatrix.ts';
import {
  COMPLETE_RESPONSES,
  createComment,
  createReaction,
  createSharedPortfolio,
  removeMember,
} from '../../../test/factories.ts';
import { multipart, pdfDocument } from '../../../test/files.ts';

const CASES: Case[] = [
  // Shared artifacts
  {
    route: 'GET /shared-artifacts/{id}',
    expect: {
      spOwner: 200,
      member: 200,
      invitee: 200,
      researcher: 200,
      ...hidden(SHARED_ARTIFACT_NOT_FOUND, 'teacher', 'lead', 'former'),
    },
    request: async () => get(`/shared-artifacts/${(await sharedWorld()).sa!.id}`),
  },
  {
    route: 'PUT /shared-artifacts/{id}',
    expect: work(),
    request: async () => {
      const { sa } = await sharedWorld();
      return {
        method: 'PUT',
        url: `/shared-artifacts/${sa!.id}`,
        payload: { responses: { ...COMPLETE_RESPONSES, team1: 'Ours' }, updated_at: sa!.updated_at },
      };
    },
  },
  {
    route: 'DELETE /shared-artifacts/{id}',
    expect: work(),
    request: async () => ({ method: 'DELETE', url: `/shared-artifacts/${(await sharedWorld()).sa!.id}` }),
  },
  {
    route: 'PUT /shared-portfolios/{id}/shared-artifacts/{artifactId}/responses',
    expect: work(),
    request: async () => {
      const { sp, sa } = await sharedWorld();
      return {
        method: 'PUT',
        url: `/shared-portfolios/${sp.id}/shared-artifacts/${sa!.id}/responses`,
        payload: { responses: { team1: 'Ours' }, updated_at: sa!.updated_at },
      };
    },
  },
  {
    route: 'POST /shared-portfolios/{id}/shared-artifacts/{artifactId}/documents',
    expect: work(),
    request: async () => {
      const { sp, sa } = await sharedWorld();
      return {
        method: 'POST',
        url: `/shared-portfolios/${sp.id}/shared-artifacts/${sa!.id}/documents`,
        ...multipart('myFile', 'notes.pdf', pdfDocument()),
      };
    },
  },
  {
    route: 'DELETE /shared-portfolios/{id}/shared-artifacts/{artifactId}/documents/{fileId}',
    expect: work(),
    request: async () => {
      const { sp, sa, fileId } = await sharedWorld();
      return { method: 'DELETE', url: `/shared-portfolios/${sp.id}/shared-artifacts/${sa!.id}/documents/${fileId}` };
    },
  },
  {
    route: 'GET /shared-portfolios/{id}/shared-artifacts/{artifactId}/gate-check',
    expect: work(),
    request: async () => {
      const { sp, sa } = await sharedWorld();
      return get(
        `/shared-portfolios/${sp.id}/shared-artifacts/${sa!.id}/gate-check?updated_at=${encodeURIComponent(sa!.updated_at)}`,
      );
    },
  },
  {
    route: 'POST /shared-portfolios/{id}/shared-artifacts/{artifactId}/lock',
    expect: work(),
    request: async () => {
      const { sp, sa } = await sharedWorld();
      return { method: 'POST', url: `/shared-portfolios/${sp.id}/shared-artifacts/${sa!.id}/lock` };
    },
  },
  {
    route: 'POST /shared-portfolios/{id}/shared-artifacts/{artifactId}/unlock',
    expect: work(),
    request: async () => {
      const { sp, sa } = await sharedWorld();
      return { method: 'POST', url: `/shared-portfolios/${sp.id}/shared-artifacts/${sa!.id}/unlock`, payload: {} };
    },
  },
  {
    route: 'POST /shared-artifacts/{id}/share',
    expect: work(),
    request: async () => {
      const { sp, sa } = await sharedWorld();
      return { method: 'POST', url: `/shared-artifacts/${sa!.id}/share`, payload: { sharedPortfolioId: sp.id } };
    },
  },
  {
    route: 'POST /shared-artifacts/{id}/share into a shared portfolio the caller is not in (invited: 403)',
    expect: {
      member: [403, 'You are not a member of this shared portfolio.'],
      spOwner: [404, 'Invalid shared portfolio ID.'],
    },
    request: async () => {
      const { sa } = await sharedWorld();
      const elsewhere = await createSharedPortfolio(t, people.lead, { invitees: [people.member] });
      return { method: 'POST', url: `/shared-artifacts/${sa!.id}/share`, payload: { sharedPortfolioId: elsewhere.id } };
    },
  },
  { route: 'GET /shared-artifacts', expect: everyone(200), request: async () => get('/shared-artifacts') },

  // Comments and reactions
  { route: 'GET /comments', expect: everyone(200), request: async () => get('/comments') },
  { route: 'GET /reactions', expect: everyone(200), request: async () => get('/reactions') },
  { route: 'GET /reactions/available', expect: everyone(200), request: async () => get('/reactions/available') },
  {
    route: 'POST /comments',
    expect: work('Invalid shared artifact ID.'),
    request: async () => ({
      method: 'POST',
      url: '/comments',
      payload: { sharedArtifact: (await sharedWorld()).sa!.id, text: 'Nice.' },
    }),
  },
  {
    route: 'POST /reactions',
    expect: work('Invalid shared artifact ID.'),
    request: async () => ({
      method: 'POST',
      url: '/reactions',
      payload: { sharedArtifact: (await sharedWorld()).sa!.id, value: '🌉' },
    }),
  },
  {
    route: "PUT /comments/{id} (a member's comment)",
    expect: {
      member: 200,
      spOwner: [403, NOT_YOURS],
      researcher: [403, NOT_YOURS],
      ...hidden('Comment not found.', 'invitee', 'teacher', 'lead', 'former'),
    },
    request: async () => {
      const { sa } = await sharedWorld();
      return {
        method: 'PUT',
        url: `/comments/${await createComment(t, sa!, people.member)}`,
        payload: { text: 'Edited.' },
      };
    },
  },
  {
    route: "DELETE /comments/{id} (a member's comment)",
    expect: {
      member: 200,
      spOwner: [403, NOT_YOURS],
      researcher: [403, NOT_YOURS],
      ...hidden('Comment not found.', 'invitee', 'teacher', 'lead', 'former'),
    },
    request: async () => {
      const { sa } = await sharedWorld();
      return { method: 'DELETE', url: `/comments/${await createComment(t, sa!, people.member)}` };
    },
  },
  {
    route: 'PUT /comments/{id} by its author after leaving',
    expect: { former: [404, 'Comment not found.'] },
    request: async () => {
      const { sp, sa } = await sharedWorld();
      await addMember(sp.id, people.former);
      const id = await createComment(t, sa!, people.former);
      await removeMember(t, sp, people.former);
      return { method: 'PUT', url: `/comments/${id}`, payload: { text: 'Still mine?' } };
    },
  },
  {
    route: "DELETE /reactions/{id} (a member's reaction)",
    expect: {
      member: 200,
      spOwner: [403, NOT_YOURS],
      researcher: [403, NOT_YOURS],
      ...hidden('Reaction not found.', 'invitee', 'teacher', 'lead', 'former'),
    },
    request: async () => {
      const { sa } = await sharedWorld();
      return { method: 'DELETE', url: `/reactions/${(await createReaction(t, sa!, people.member, '❓')).id}` };
    },
  },
];

checkRoutes(CASES);
