import { describe, expect, it } from 'vitest';
import { AppConfigSchema, HealthResponseSchema } from '#schemas/common';
import { createTeacher } from '../../test/factories.ts';
import { buildTestApp } from '../../test/helper.ts';

describe('GET /health', async () => {
  const t = await buildTestApp();

  it('answers ok to anybody', async () => {
    const res = await t.api({ method: 'GET', url: '/health' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(HealthResponseSchema.parse(res.json())).toEqual({ status: 'ok' });
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('ignores a token, even an invalid one', async () => {
    const teacher = await createTeacher(t);
    expect((await t.api({ method: 'GET', url: '/health', token: teacher.token })).statusCode).toBe(200);
    expect((await t.api({ method: 'GET', url: '/health', token: 'garbage' })).statusCode).toBe(200);
  });
});

describe('GET /config', async () => {
  const configured = await buildTestApp({
    showcaseUrl: 'https://showcase.example.org/',
    helpUrl: 'https://help.example.org/guide',
    feedbackUrl: 'https://feedback.example.org/form',
    contactEmail: 'help@school.example',
    researchEmail: 'study@university.example',
    aboutVideoId: 'dQw4w9WgXcQ',
    learnMoreUrl: 'https://project.example.org/',
    iosAppUrl: 'https://apps.apple.com/us/app/practicefolio/id1234567890',
    androidAppUrl: 'https://play.google.com/store/apps/details?id=org.example.practicefolio',
  });
  const bare = await buildTestApp({ showcaseUrl: null, helpUrl: null, feedbackUrl: null, contactEmail: null });

  it('answers the links the operator configured', async () => {
    const res = await configured.api({ method: 'GET', url: '/config' });
    expect(res.statusCode).toBe(200);
    expect(AppConfigSchema.parse(res.json())).toEqual({
      showcaseUrl: 'https://showcase.example.org/',
      helpUrl: 'https://help.example.org/guide',
      feedbackUrl: 'https://feedback.example.org/form',
      contactEmail: 'help@school.example',
      researchEmail: 'study@university.example',
      aboutVideoId: 'dQw4w9WgXcQ',
      learnMoreUrl: 'https://project.example.org/',
      iosAppUrl: 'https://apps.apple.com/us/app/practicefolio/id1234567890',
      androidAppUrl: 'https://play.google.com/store/apps/details?id=org.example.practicefolio',
    });
  });

  it('answers null for links that are not configured, and nothing else', async () => {
    const res = await bare.api({ method: 'GET', url: '/config' });
    expect(res.json()).toEqual({
      showcaseUrl: null,
      helpUrl: null,
      feedbackUrl: null,
      contactEmail: null,
      researchEmail: null,
      aboutVideoId: null,
      learnMoreUrl: null,
      iosAppUrl: null,
      androidAppUrl: null,
    });
    for (const secret of [bare.config.jwtSecret, 'secret', 'database', 'smtp'])
      expect(res.body.toLowerCase()).not.toContain(secret.toLowerCase());
  });
});
