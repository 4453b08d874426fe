/**
 * The permission table (`permissions.md`) as a test, invitations and the routes of the mobile apps: see
 * `server/test/authorizationMatrix.ts` for what every case checks.
 */
import {
  type Case,
  checkRoutes,
  everyone,
  get,
  hidden,
  invitationOf,
  manage,
  sharedWorld,
  t,
} from '../../../test/authorizationMatrix.ts';
import { createTeacher } from '../../../test/factories.ts';

const CASES: Case[] = [
  // Invitations
  { route: 'GET /invitations', expect: everyone(200), request: async () => get('/invitations') },
  {
    route: 'GET /invitations/{id}',
    expect: {
      invitee: 200,
      spOwner: 200,
      researcher: 200,
      ...hidden('Invitation not found.', 'member', 'teacher', 'lead', 'former'),
    },
    request: async () => {
      const { sp } = await sharedWorld({ empty: true });
      return get(`/invitations/${await invitationOf(sp.id)}`);
    },
  },
  {
    route: 'POST /invitations',
    expect: {
      ...manage,
      ...hidden('Invalid shared portfolio ID.', 'invitee', 'teacher', 'lead', 'former'),
    },
    request: async () => {
      const { sp } = await sharedWorld({ empty: true });
      const someone = await createTeacher(t);
      return { method: 'POST', url: '/invitations', payload: { to: someone.user.id, sharedPortfolio: sp.id } };
    },
  },
  {
    route: 'POST /invitations/{id}/accept',
    expect: {
      invitee: 200,
      ...hidden('Invitation not found.', 'spOwner', 'researcher', 'member', 'teacher', 'lead', 'former'),
    },
    request: async () => {
      const { sp } = await sharedWorld({ empty: true });
      return { method: 'POST', url: `/invitations/${await invitationOf(sp.id)}/accept` };
    },
  },
  {
    route: 'DELETE /invitations/{id}',
    expect: {
      invitee: 200,
      spOwner: 200,
      researcher: 200,
      ...hidden('Invitation not found.', 'member', 'teacher', 'lead', 'former'),
    },
    request: async () => {
      const { sp } = await sharedWorld({ empty: true });
      return { method: 'DELETE', url: `/invitations/${await invitationOf(sp.id)}` };
    },
  },

  // Routes of the mobile apps
  ...(
    [
      ['GET', '/messages/list', undefined],
      ['POST', '/messages/register-token', { platform: 'ios', osVersion: '17', fcmToken: 'token', devMode: false }],
      ['POST', '/messages/unregister-token', { fcmToken: 'token' }],
      ['POST', '/messages/mark-as-read', { messageId: '1' }],
      ['GET', '/contact', undefined],
      ['GET', '/grades', undefined],
      ['GET', '/subjects', undefined],
      ['POST', '/token/refresh', undefined],
      // Each person's own notifications (the event stream is checked in notificationDelivery.test.ts).
      ['GET', '/notifications', undefined],
      ['GET', '/notifications/unread', undefined],
      ['POST', '/notifications/read', { all: true }],
      ['GET', '/notification-preferences', undefined],
      ['PUT', '/notification-preferences', { email: { reaction: 'off' } }],
    ] as const
  ).map(([method, url, payload]): Case => ({
    route: `${method} ${url}`,
    expect: { owner: 200, researcher: 200, member: 200 },
    request: async () => ({ method, url, ...(payload ? { payload } : {}) }),
  })),
];

checkRoutes(CASES);
