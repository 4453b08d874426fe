import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
// The signed-in user the viewer reads, as the session sets it.
// oxlint-disable-next-line no-restricted-imports
import { signIn, signOut } from '../../services/session.ts';
import { makeUser } from '../../test/renderApp.tsx';
import { transformReducer, INITIAL_TRANSFORM, MIN_ZOOM } from '../viewers/imageTransform.ts';
import { viewerState } from '../viewers/viewerOrigin.ts';
import { ImageViewerPage } from './ImageViewerPage.tsx';
import { VideoViewerPage, VIDEO_FALLBACK } from './VideoViewerPage.tsx';

afterEach(() => {
  signOut();
  window.history.replaceState(null, '');
});

/** The viewer opened from an artifact's file (the history entry the portal's link makes). */
function openedFromArtifact(poster: string | null = null) {
  window.history.replaceState(
    viewerState({
      title: 'A. ramp-setup.png',
      artifactTitle: 'Ramp races',
      backHref: '/my-portfolios/2/artifacts/1',
      poster,
    }),
    '',
  );
}

function renderPage(page: React.ReactNode) {
  const location = memoryLocation({ path: '/images/uploads/ramp_1a.png', record: true });
  render(<Router hook={location.hook}>{page}</Router>);
  return { location, ux: userEvent.setup() };
}

const image = () => screen.getByRole('img', { name: 'Image' }) as HTMLImageElement;
const status = () => screen.getByRole('status').textContent;

describe('the image viewer', () => {
  it('shows the file; opened from elsewhere it is an "Image", never the stored file’s name', () => {
    renderPage(<ImageViewerPage src="http://x.test/api/v1/uploads/ramp_1a.png" fileName="ramp_1a.png" />);
    expect(image().getAttribute('src')).toBe('http://x.test/api/v1/uploads/ramp_1a.png');
    expect(screen.getByRole('heading', { level: 1, name: 'Image' })).toBeTruthy();
    expect(document.body.textContent).not.toContain('ramp_1a');
    // A way back, even from a bare link.
    expect(screen.getByRole('link', { name: '← Back to the dashboard' }).getAttribute('href')).toBe('/dashboard');
    expect(status()).toBe('Zoom 100% · Rotation 0°');
  });

  it('is named by the file’s own name and links back to the artifact it was opened from', async () => {
    openedFromArtifact();
    const { ux, location } = renderPage(<ImageViewerPage src="/f.png" fileName="ramp_1a.png" />);
    expect(screen.getByRole('heading', { level: 1, name: 'A. ramp-setup.png' })).toBeTruthy();
    expect(screen.getByRole('img', { name: 'A. ramp-setup.png' })).toBeTruthy();
    await ux.click(screen.getByRole('link', { name: '← Back to Ramp races' }));
    expect(location.history.at(-1)).toBe('/my-portfolios/2/artifacts/1');
  });

  it('takes no way back out of the portal from the history entry', () => {
    window.history.replaceState(
      viewerState({ title: 'x.png', artifactTitle: 'Elsewhere', backHref: '//evil.example/', poster: null }),
      '',
    );
    renderPage(<ImageViewerPage src="/f.png" fileName="ramp_1a.png" />);
    expect(screen.queryByRole('link', { name: /Back to Elsewhere/ })).toBeNull();
    expect(screen.getByRole('link', { name: '← Back to the dashboard' }).getAttribute('href')).toBe('/dashboard');
    expect(screen.getByRole('heading', { level: 1, name: 'Image' })).toBeTruthy();
  });

  it('zooms out no further than 25 %, and in again', async () => {
    const { ux } = renderPage(<ImageViewerPage src="/f.png" fileName="ramp_1a.png" />);
    for (let i = 0; i < 6; i += 1) {
      const out = screen.getByRole('button', { name: 'Zoom out' }) as HTMLButtonElement;
      if (!out.disabled) await ux.click(out);
    }
    expect(status()).toBe('Zoom 25% · Rotation 0°');
    expect(image().dataset.zoom).toBe('0.25');
    expect(image().style.transform).toContain('scale(0.25)');
    expect((screen.getByRole('button', { name: 'Zoom out' }) as HTMLButtonElement).disabled).toBe(true);
    await ux.click(screen.getByRole('button', { name: 'Zoom in' }));
    expect(status()).toBe('Zoom 50% · Rotation 0°');
    await ux.click(screen.getByRole('button', { name: 'Reset' }));
    expect(status()).toBe('Zoom 100% · Rotation 0°');
  });

  it('rotates in quarter turns through four positions, both ways', async () => {
    const { ux } = renderPage(<ImageViewerPage src="/f.png" fileName="ramp_1a.png" />);
    const seen: string[] = [];
    for (let i = 0; i < 4; i += 1) {
      await ux.click(screen.getByRole('button', { name: 'Rotate right' }));
      seen.push(
        `${image().className.match(/rotation-\d/)![0]} ${image().style.transform.match(/rotate\(\d+deg\)/)![0]}`,
      );
    }
    expect(seen).toEqual([
      'rotation-1 rotate(90deg)',
      'rotation-2 rotate(180deg)',
      'rotation-3 rotate(270deg)',
      'rotation-0 rotate(0deg)',
    ]);
    await ux.click(screen.getByRole('button', { name: 'Rotate left' }));
    expect(status()).toBe('Zoom 100% · Rotation 270°');
  });

  it('works from the keyboard: buttons, and + − 0 R L wherever the focus is (no need to tab onto the image)', async () => {
    const { ux } = renderPage(<ImageViewerPage src="/f.png" fileName="ramp_1a.png" />);
    // Nothing focused yet: the keys work at once.
    await ux.keyboard('+');
    expect(status()).toBe('Zoom 150% · Rotation 0°');
    await ux.tab();
    expect(document.activeElement).toBe(screen.getByRole('link', { name: '← Back to the dashboard' }));
    await ux.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Zoom in' }));
    await ux.keyboard('{Enter}');
    expect(status()).toBe('Zoom 200% · Rotation 0°');
    await ux.keyboard('---r');
    expect(status()).toBe('Zoom 75% · Rotation 90°');
    screen.getByRole('group', { name: 'Image Image' }).focus();
    await ux.keyboard('ll0');
    expect(status()).toBe('Zoom 100% · Rotation 0°');
    // Ctrl with a key is the browser's.
    await ux.keyboard('{Control>}+{/Control}');
    expect(status()).toBe('Zoom 100% · Rotation 0°');
  });

  it('zooms with the wheel, and with Ctrl + wheel (a trackpad pinch), within the limits', () => {
    renderPage(<ImageViewerPage src="/f.png" fileName="ramp_1a.png" />);
    const viewport = screen.getByRole('group', { name: 'Image Image' });
    fireEvent.wheel(viewport, { deltaY: 10000, ctrlKey: true });
    expect(status()).toBe('Zoom 25% · Rotation 0°');
    fireEvent.wheel(viewport, { deltaY: -69.3, ctrlKey: true });
    expect(status()).toBe('Zoom 50% · Rotation 0°');
    fireEvent.wheel(viewport, { deltaY: -346.6 });
    expect(status()).toBe('Zoom 100% · Rotation 0°');
    fireEvent.wheel(viewport, { deltaY: 100000 });
    expect(status()).toBe('Zoom 25% · Rotation 0°');
  });

  it('zooms with a two-finger pinch', () => {
    renderPage(<ImageViewerPage src="/f.png" fileName="ramp_1a.png" />);
    const viewport = screen.getByRole('group', { name: 'Image Image' });
    fireEvent.pointerDown(viewport, { pointerId: 1, pointerType: 'touch', clientX: 100, clientY: 100 });
    fireEvent.pointerDown(viewport, { pointerId: 2, pointerType: 'touch', clientX: 200, clientY: 100 });
    fireEvent.pointerMove(viewport, { pointerId: 2, pointerType: 'touch', clientX: 300, clientY: 100 });
    expect(status()).toBe('Zoom 200% · Rotation 0°');
    fireEvent.pointerUp(viewport, { pointerId: 2, pointerType: 'touch' });
    fireEvent.pointerUp(viewport, { pointerId: 1, pointerType: 'touch' });
  });

  it('explains a file that cannot be shown, with a way to log in', async () => {
    const { location, ux } = renderPage(<ImageViewerPage src="/f.png" fileName="ramp_1a.png" />);
    fireEvent.error(image());
    expect(screen.getByRole('alert').textContent).toContain('This image could not be shown.');
    await ux.click(screen.getByRole('link', { name: 'Log in' }));
    expect(location.history.at(-1)).toBe('/login');
    expect(sessionStorage.getItem('practicefolio.origin')).toBe('/images/uploads/ramp_1a.png');
  });

  it('tells a signed-in user the file may be gone', () => {
    signIn(makeUser('teacher'));
    renderPage(<ImageViewerPage src="/f.png" fileName="ramp_1a.png" />);
    fireEvent.error(image());
    expect(screen.getByRole('alert').textContent).toContain('It may have been removed');
    expect(screen.queryByRole('link', { name: 'Log in' })).toBeNull();
  });
});

describe('the zoom and rotation rules', () => {
  it('never goes below the minimum zoom, and has four rotations', () => {
    let t = INITIAL_TRANSFORM;
    for (let i = 0; i < 20; i += 1) t = transformReducer(t, { type: 'zoomOut' });
    expect(t.zoom).toBe(MIN_ZOOM);
    expect(transformReducer(t, { type: 'zoomBy', factor: 0.01 }).zoom).toBe(0.25);
    const turns = [t.rotation];
    for (let i = 0; i < 4; i += 1) turns.push((t = transformReducer(t, { type: 'rotateRight' })).rotation);
    expect(turns).toEqual([0, 1, 2, 3, 0]);
  });
});

describe('the video viewer', () => {
  it('plays the file with controls and the fallback text; opened from elsewhere it is a "Video"', () => {
    renderPage(<VideoViewerPage src="http://x.test/api/v1/uploads/race_3c.mp4" fileName="race_3c.mp4" />);
    const video = document.querySelector('video')!;
    expect(video.getAttribute('src')).toBe('http://x.test/api/v1/uploads/race_3c.mp4');
    expect(video.hasAttribute('controls')).toBe(true);
    expect(video.hasAttribute('poster')).toBe(false);
    expect(video.textContent).toBe(VIDEO_FALLBACK);
    expect(VIDEO_FALLBACK).toBe('Your browser does not support the video tag.');
    expect(screen.getByRole('heading', { level: 1, name: 'Video' })).toBeTruthy();
  });

  it('is named by the file’s own name, shows the server’s poster frame and links back to the artifact', () => {
    openedFromArtifact('http://x.test/api/v1/uploads/large_race_3c.jpg');
    renderPage(<VideoViewerPage src="/v.mp4" fileName="race_3c.mp4" />);
    expect(screen.getByRole('heading', { level: 1, name: 'A. ramp-setup.png' })).toBeTruthy();
    expect(document.querySelector('video')!.getAttribute('poster')).toBe(
      'http://x.test/api/v1/uploads/large_race_3c.jpg',
    );
    expect(screen.getByRole('link', { name: '← Back to Ramp races' }).getAttribute('href')).toBe(
      '/my-portfolios/2/artifacts/1',
    );
  });

  it('explains a video that cannot be loaded', () => {
    renderPage(<VideoViewerPage src="/v.mp4" fileName="race_3c.mp4" />);
    fireEvent.error(document.querySelector('video')!);
    expect(screen.getByRole('alert').textContent).toContain('This video could not be shown.');
  });
});
