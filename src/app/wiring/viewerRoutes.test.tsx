import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderApp, resetApp } from '../../test/renderApp.tsx';
import { viewerFileName } from './viewerRoutes.tsx';

afterEach(resetApp);

describe('the viewer routes', () => {
  it('drop a trailing .html (the mobile apps’ links) and show the stored file, without a session', async () => {
    renderApp('/images/uploads/ramp_1a2b.png.html');
    // Opened from outside the portal the viewer does not know the file's own name: it never shows the stored one.
    const img = (await screen.findByRole('img', { name: 'Image' })) as HTMLImageElement;
    expect(img.getAttribute('src')).toBe(`${location.origin}/api/v1/uploads/ramp_1a2b.png`);
  });

  it('play a video from its stored file', async () => {
    renderApp('/videos/uploads/race_3c4d.mp4.html');
    expect(await screen.findByRole('heading', { level: 1, name: 'Video' })).toBeTruthy();
    expect(document.querySelector('video')!.getAttribute('src')).toBe(
      `${location.origin}/api/v1/uploads/race_3c4d.mp4`,
    );
  });

  it('keep names without .html as they are', () => {
    expect(viewerFileName('a.png')).toBe('a.png');
    expect(viewerFileName('a.PNG.HTML')).toBe('a.PNG');
    expect(viewerFileName('report.html.pdf')).toBe('report.html.pdf');
  });
});
