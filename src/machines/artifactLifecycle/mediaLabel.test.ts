import { describe, expect, it } from 'vitest';
import { mediaLabel, videoLabel } from './artifactSelectors.ts';

describe('mediaLabel: a file as people name it', () => {
  it('drops the upload letter and the extension and reads separators as spaces', () => {
    expect(mediaLabel({ name: 'classroom-clip.webm', mime: 'video/webm' })).toBe('classroom clip');
    expect(mediaLabel({ name: 'IMG_0042.JPG', mime: 'image/jpeg' })).toBe('IMG 0042');
    expect(mediaLabel({ name: 'ramp  race__final.v2.mp4', mime: 'video/mp4' })).toBe('ramp race final v2');
  });

  it('keeps a document’s type, which its tile does not show', () => {
    expect(mediaLabel({ name: 'lesson-plan.pdf', mime: 'application/pdf' })).toBe('lesson plan (PDF)');
    expect(mediaLabel({ name: 'notes', mime: 'text/plain' })).toBe('notes');
  });

  it('never gives an empty name', () => {
    expect(mediaLabel({ name: '.mp4', mime: 'video/mp4' })).toBe('mp4');
    expect(mediaLabel({ name: '---.png', mime: 'image/png' })).toBe('---.png');
    expect(mediaLabel({ name: '', mime: 'image/png' })).toBe('Untitled file');
  });
});

describe('videoLabel', () => {
  const a = { id: 1, caption: 'B', name: 'warm-up.mp4', mime: 'video/mp4' };
  const b = { id: 2, caption: 'A', name: 'classroom-clip.webm', mime: 'video/webm' };

  it('numbers a video among several, in upload order', () => {
    expect(videoLabel(a, [a, b])).toBe('Video 2 — warm up');
    expect(videoLabel(b, [a, b])).toBe('Video 1 — classroom clip');
  });

  it('names a lone video alone', () => {
    expect(videoLabel(a, [a])).toBe('warm up');
  });
});
