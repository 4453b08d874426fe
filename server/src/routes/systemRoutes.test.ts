import { describe, expect, it } from 'vitest';
import { AppConfigSchema, HealthResponseSchema, ReadyResponseSchema } from '#schemas/common';
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

describe('GET /ready', async () => {
  const t = await buildTestApp();

  it('answers 200 while the database and the media store answer, 503 once the node drains', async () => {
    const ready = await t.api({ method: 'GET', url: '/ready' });
    expect(ready).toHaveStatus(200);
    expect(ReadyResponseSchema.parse(ready.json())).toEqual({
      status: 'ready',
      database: true,
      media: true,
      draining: false,
    });
    expect(ready.headers['cache-control']).toBe('no-store');
    t.app.lifecycle.draining = true;
    try {
      const draining = await t.api({ method: 'GET', url: '/ready' });
      expect(draining).toHaveStatus(503);
      expect(draining.json()).toEqual({ status: 'unavailable', database: true, media: true, draining: true });
      // Still alive, and still serving what it gets while the balancer notices.
      expect(await t.api({ method: 'GET', url: '/health' })).toHaveStatus(200);
    } finally {
      t.app.lifecycle.draining = false;
    }
  });

  it('answers 503 when the media store cannot be used', async () => {
    const check = t.app.mediaStore.objects.check;
    t.app.mediaStore.objects.check = () => Promise.reject(new Error('bucket gone'));
    try {
      const res = await t.api({ method: 'GET', url: '/ready' });
      expect(res).toHaveStatus(503);
      expect(res.json()).toMatchObject({ status: 'unavailable', database: true, media: false });
    } finally {
      t.app.mediaStore.objects.check = check;
    }
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
