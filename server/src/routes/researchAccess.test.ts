import { describe, expect, it } from 'vitest';
import { countRows, createLead, createResearcher, createSharedPortfolio, createTeacher } from '../../test/factories.ts';
import { buildTestApp } from '../../test/helper.ts';

describe('GET /research/export and /research/exports: who may', async () => {
  const t = await buildTestApp();

  it('is for researchers only; anonymous 401, teachers and PLC leads 403, nothing recorded', async () => {
    const before = await countRows(t, 'research_exports');
    for (const url of ['/research/export', '/research/exports']) {
      expect(await t.api({ method: 'GET', url })).toBeApiError(401, 'You need to log in.');
      for (const who of [await createTeacher(t), await createLead(t)]) {
        expect(await t.api({ method: 'GET', url, token: who.token })).toBeApiError(
          403,
          'Only researchers can export research data.',
        );
        expect(
          await t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: { cookie: `jwt=${who.token}` } }),
        ).toBeApiError(403);
      }
    }
    expect(await countRows(t, 'research_exports')).toBe(before);
  });

  it('opens with the session cookie from the portal, but not from a link of another site', async () => {
    const researcher = await createResearcher(t);
    const cookie = { cookie: `jwt=${researcher.token}` };
    const own = await t.app.inject({
      method: 'GET',
      url: '/api/v1/research/export',
      headers: { ...cookie, 'sec-fetch-site': 'same-origin' },
    });
    expect(own).toHaveStatus(200);
    expect(own.headers['content-type']).toBe('application/zip');
    expect(own.headers['content-disposition']).toMatch(
      /^attachment; filename="practicefolio-research-\d{4}-\d{2}-\d{2}-export-\d+\.zip"$/,
    );
    expect(own.headers['cache-control']).toBe('no-store');
    const before = await countRows(t, 'research_exports');
    const foreign = await t.app.inject({
      method: 'GET',
      url: '/api/v1/research/export',
      headers: { ...cookie, 'sec-fetch-site': 'cross-site' },
    });
    expect(foreign).toBeApiError(403, 'This request must come from the portal’s own pages.');
    expect(await countRows(t, 'research_exports')).toBe(before);
  });

  it('validates the filters strictly, with clear messages, and records nothing on bad input', async () => {
    const researcher = await createResearcher(t);
    const teacher = await createTeacher(t);
    const sp = await createSharedPortfolio(t, await createLead(t));
    const before = await countRows(t, 'research_exports');
    const cases: [string, string | RegExp][] = [
      ['format=xlsx', 'Unknown field "format" in the query; it is not accepted.'],
      ['from=2026-13-01', 'from must be a date that exists.'],
      ['from=yesterday', 'from must be a date written YYYY-MM-DD.'],
      ['from=2026-03-02&to=2026-03-01', 'The end date must not be before the start date.'],
      ['teachers=1,x', 'teachers must be ids separated by commas.'],
      ['identities=everyone', /^identities must be one of/],
      ['identities=included', 'Confirm that the people in this export consented to being identified.'],
      [
        'identities=included&consentConfirmed=false',
        'Confirm that the people in this export consented to being identified.',
      ],
      [`teachers=${researcher.user.id}`, `No teacher or PLC lead has the id ${researcher.user.id}.`],
      [`teachers=${teacher.user.id},2000000000`, 'No teacher or PLC lead has the id 2000000000.'],
      [`sharedPortfolios=${sp.id},2000000001`, 'No shared portfolio has the id 2000000001.'],
    ];
    for (const [query, message] of cases) {
      expect(
        await t.api({ method: 'GET', url: `/research/export?${query}`, token: researcher.token }),
        query,
      ).toBeApiError(400, message);
    }
    expect(await t.api({ method: 'GET', url: '/research/exports?limit=5', token: researcher.token })).toBeApiError(
      400,
      /Unknown field "limit"/,
    );
    expect(await countRows(t, 'research_exports')).toBe(before);
  });
});
