/**
 * The permission table (`permissions.md`) as a test, personal portfolios and their artifacts: see
 * `server/test/authorizationMatrix.ts` for what every case checks.
 */
import {
  ARTIFACT_NOT_FOUND,
  type Case,
  checkRoutes,
  everyone,
  get,
  ONLY_RESEARCHERS,
  people,
  personal,
  personalArtifact,
  personalWorld,
  PORTFOLIO_NOT_FOUND,
  sharedWorld,
  t,
  template,
} from '../../../test/authorizationMatrix.ts';
import { COMPLETE_RESPONSES, createPortfolio, createSharedPortfolio } from '../../../test/factories.ts';
import { multipart, pdfDocument } from '../../../test/files.ts';

const CASES: Case[] = [
  // Personal portfolios
  {
    route: 'GET /portfolios',
    expect: { owner: 200, teacher: 200, lead: 200, researcher: 200 },
    request: async () => get('/portfolios'),
  },
  { route: 'GET /portfolios/1 (template)', expect: everyone(200), request: async () => get('/portfolios/1') },
  {
    route: 'GET /portfolios/{id}',
    expect: { owner: 200, researcher: 200, teacher: [404, PORTFOLIO_NOT_FOUND], lead: [404, PORTFOLIO_NOT_FOUND] },
    request: async () => get(`/portfolios/${(await createPortfolio(t, people.owner)).id}`),
  },
  // The web's compact view of the same portfolio: allowed exactly as the full route.
  {
    route: 'GET /portfolios/1/summary (template)',
    expect: everyone(200),
    request: async () => get('/portfolios/1/summary'),
  },
  {
    route: 'GET /portfolios/{id}/summary',
    expect: { owner: 200, researcher: 200, teacher: [404, PORTFOLIO_NOT_FOUND], lead: [404, PORTFOLIO_NOT_FOUND] },
    request: async () => get(`/portfolios/${(await createPortfolio(t, people.owner)).id}/summary`),
  },
  {
    route: 'POST /portfolios',
    expect: { owner: 200, teacher: 200, lead: 200, researcher: [403, 'Researchers do not keep personal portfolios.'] },
    request: async () => ({ method: 'POST', url: '/portfolios', payload: { name: 'New' } }),
  },
  {
    route: 'PUT /portfolios/{id}',
    expect: { owner: 200, ...personal },
    request: async () => ({
      method: 'PUT',
      url: `/portfolios/${(await createPortfolio(t, people.owner)).id}`,
      payload: { name: 'Renamed' },
    }),
  },
  {
    route: 'PUT /portfolios/1 (template)',
    expect: template,
    request: async () => ({ method: 'PUT', url: '/portfolios/1', payload: { name: 'Mine now' } }),
  },
  {
    route: 'DELETE /portfolios/{id}',
    expect: { owner: 200, ...personal },
    request: async () => ({ method: 'DELETE', url: `/portfolios/${(await createPortfolio(t, people.owner)).id}` }),
  },
  {
    route: 'DELETE /portfolios/1 (template)',
    expect: template,
    request: async () => ({ method: 'DELETE', url: '/portfolios/1' }),
  },
  {
    route: 'GET /portfolios/export',
    expect: {
      researcher: 200,
      owner: [403, ONLY_RESEARCHERS],
      teacher: [403, ONLY_RESEARCHERS],
      lead: [403, ONLY_RESEARCHERS],
    },
    request: async () => get('/portfolios/export'),
  },
  {
    route: 'POST /portfolios/{id}/artifacts/responses',
    expect: { owner: 200, ...personal },
    request: async () => ({
      method: 'POST',
      url: `/portfolios/${(await createPortfolio(t, people.owner)).id}/artifacts/responses`,
      payload: {},
    }),
  },
  {
    route: 'POST /portfolios/1/artifacts/responses (template)',
    expect: template,
    request: async () => ({ method: 'POST', url: '/portfolios/1/artifacts/responses', payload: {} }),
  },
  {
    route: 'GET /artifacts',
    expect: { owner: 200, teacher: 200, lead: 200, researcher: 200 },
    request: async () => get('/artifacts'),
  },
  {
    route: 'GET /artifacts/{id}',
    expect: { owner: 200, researcher: 200, teacher: [404, ARTIFACT_NOT_FOUND], lead: [404, ARTIFACT_NOT_FOUND] },
    request: async () => get(`/artifacts/${(await personalWorld()).artifact.id}`),
  },
  {
    route: 'GET /artifacts/{id}/shares',
    expect: { owner: 200, researcher: 200, teacher: [404, ARTIFACT_NOT_FOUND], lead: [404, ARTIFACT_NOT_FOUND] },
    request: async () => get(`/artifacts/${(await personalWorld()).artifact.id}/shares`),
  },
  {
    route: 'PUT /artifacts/{id}',
    expect: { owner: 200, ...personalArtifact },
    request: async () => ({
      method: 'PUT',
      url: `/artifacts/${(await personalWorld()).artifact.id}`,
      payload: { responses: COMPLETE_RESPONSES },
    }),
  },
  {
    route: 'DELETE /artifacts/{id}',
    expect: { owner: 200, ...personalArtifact },
    request: async () => ({ method: 'DELETE', url: `/artifacts/${(await personalWorld()).artifact.id}` }),
  },
  {
    route: 'PUT /portfolios/{id}/artifacts/{artifactId}/responses',
    expect: { owner: 200, ...personalArtifact },
    request: async () => {
      const { portfolio, artifact } = await personalWorld();
      return {
        method: 'PUT',
        url: `/portfolios/${portfolio.id}/artifacts/${artifact.id}/responses`,
        payload: { responses: { nextSteps: 'More ramps.' } },
      };
    },
  },
  {
    route: 'POST /portfolios/{id}/artifacts/{artifactId}/documents',
    expect: { owner: 200, ...personalArtifact },
    request: async () => {
      const { portfolio, artifact } = await personalWorld();
      return {
        method: 'POST',
        url: `/portfolios/${portfolio.id}/artifacts/${artifact.id}/documents`,
        ...multipart('file', 'plan.pdf', pdfDocument()),
      };
    },
  },
  {
    route: 'DELETE /portfolios/{id}/artifacts/{artifactId}/documents/{fileId}',
    expect: { owner: 200, ...personalArtifact },
    request: async () => {
      const { portfolio, artifact, fileId } = await personalWorld();
      return { method: 'DELETE', url: `/portfolios/${portfolio.id}/artifacts/${artifact.id}/documents/${fileId}` };
    },
  },
  {
    route: 'POST /artifacts/{id}/share',
    expect: { owner: 200, ...personalArtifact },
    request: async () => {
      const { artifact } = await personalWorld();
      const target = await createSharedPortfolio(t, people.spOwner, {
        members: [people.owner, people.teacher, people.lead, people.researcher],
      });
      return { method: 'POST', url: `/artifacts/${artifact.id}/share`, payload: { sharedPortfolioId: target.id } };
    },
  },
  {
    route: 'POST /artifacts/{id}/share into a shared portfolio the owner is not in',
    expect: { owner: [404, 'Invalid shared portfolio ID.'] },
    request: async () => {
      const { artifact } = await personalWorld();
      const { sp } = await sharedWorld({ empty: true });
      return { method: 'POST', url: `/artifacts/${artifact.id}/share`, payload: { sharedPortfolioId: sp.id } };
    },
  },
  {
    route: 'POST /artifacts/{id}/share into a shared portfolio the owner is invited to',
    expect: { owner: [403, 'You are not a member of this shared portfolio.'] },
    request: async () => {
      const { artifact } = await personalWorld();
      const sp = await createSharedPortfolio(t, people.spOwner, { invitees: [people.owner] });
      return { method: 'POST', url: `/artifacts/${artifact.id}/share`, payload: { sharedPortfolioId: sp.id } };
    },
  },
];

checkRoutes(CASES);
