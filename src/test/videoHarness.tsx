/**
 * Test kit of video moments: media elements that play, pause and seek in jsdom, fixtures of
 * videos and caption tracks, and one video rendered with its timeline, composer and captions as
 * the shared artifact page renders it.
 */
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { vi } from 'vitest';
import { artifactNotesMachine } from '../machines/artifactNotes/artifactNotesMachine.ts';
import { captionEditorMachine } from '../machines/captionEditor/captionEditorMachine.ts';
import { momentCommentMachine, type MomentCommentInput } from '../machines/momentComment/momentCommentMachine.ts';
import {
  MomentsContext,
  useMomentCommentActor,
  type MomentsSetup,
} from '../machines/momentComment/useMomentComment.ts';
import type { MomentMark } from '../machines/videoPlayer/markers.ts';
import { videoPlayerMachine } from '../machines/videoPlayer/videoPlayerMachine.ts';
import type { Media } from '../schemas/media.ts';
import type { CaptionTrack } from '../schemas/moments.ts';
import { captionFileUrl, momentsExportUrl } from '../services/momentService.ts';
import { Toaster } from '../views/feedback/Toaster.tsx';
import { notify } from '../views/feedback/toastStore.ts';
import { MomentThreadProvider } from '../views/video/MomentThread.tsx';
import { VideoMoments, type VideoMomentsProps } from '../views/video/VideoMoments.tsx';
import { makeMedia } from './artifactFixtures.ts';

/**
 * Media elements as a browser has them, for jsdom (which neither plays nor seeks): `play()` and
 * `pause()` fire their events, `currentTime` keeps what is set, the metadata is there, and the
 * length is `duration`. Call in `beforeEach` (the spies are restored after each test).
 */
export function stubMediaElements(duration = 12) {
  const times = new WeakMap<HTMLMediaElement, number>();
  const play = vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(function (this: HTMLMediaElement) {
    this.dispatchEvent(new Event('play'));
    return Promise.resolve();
  });
  const pause = vi.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(function (this: HTMLMediaElement) {
    this.dispatchEvent(new Event('pause'));
  });
  vi.spyOn(HTMLMediaElement.prototype, 'currentTime', 'get').mockImplementation(function (this: HTMLMediaElement) {
    return times.get(this) ?? 0;
  });
  vi.spyOn(HTMLMediaElement.prototype, 'currentTime', 'set').mockImplementation(function (
    this: HTMLMediaElement,
    value: number,
  ) {
    times.set(this, value);
  });
  vi.spyOn(HTMLMediaElement.prototype, 'readyState', 'get').mockReturnValue(1);
  vi.spyOn(HTMLMediaElement.prototype, 'duration', 'get').mockReturnValue(duration);
  return { play, pause };
}

/** A 12-second video (media 61) as a shared artifact holds it. */
export function makeVideo(overrides: Partial<Media> = {}): Media {
  return makeMedia('videos', {
    id: 61,
    name: 'ramp-race.webm',
    caption: 'A',
    ext: '.webm',
    mime: 'video/webm',
    duration: 12,
    ...overrides,
  });
}

/** A caption track of video 61 with two cues, editable. */
export function makeTrack(overrides: Partial<CaptionTrack> = {}): CaptionTrack {
  return {
    id: 81,
    media: 61,
    language: 'en',
    label: 'English',
    cues: [
      { start: 0.5, end: 2.5, text: 'Ready, set, go!' },
      { start: 3, end: 5, text: 'The red car wins.' },
    ],
    cueCount: 2,
    url: '/captions/81/track.vtt',
    canEdit: true,
    created_at: '2026-03-05T10:00:00.000Z',
    updated_at: '2026-03-05T10:00:00.000Z',
    ...overrides,
  };
}

/** The app's video moments logic with the toasts, each machine's actors replaced by `fakes`. */
export function provideTestMoments(
  fakes: {
    player?: Record<string, unknown>;
    composer?: Record<string, unknown>;
    captions?: Record<string, unknown>;
    notes?: Record<string, unknown>;
  } = {},
  inspect?: MomentsSetup['inspect'],
): MomentsSetup {
  const notifyAction = (_: unknown, n: { message: string; tone: 'success' | 'error' }) => notify(n.message, n.tone);
  return {
    player: videoPlayerMachine.provide({ actors: (fakes.player ?? {}) as never }),
    composer: momentCommentMachine.provide({
      actions: { notify: notifyAction },
      actors: (fakes.composer ?? {}) as never,
    }),
    captions: captionEditorMachine.provide({
      actions: { notify: notifyAction },
      actors: (fakes.captions ?? {}) as never,
    }),
    notes: artifactNotesMachine.provide({ actors: (fakes.notes ?? {}) as never }),
    captionUrl: captionFileUrl,
    momentsExportUrl,
    ...(inspect ? { inspect } : {}),
  };
}

function Host({
  input,
  videos,
  children,
}: {
  input: MomentCommentInput;
  videos: readonly Media[];
  children: ReactNode;
}) {
  const composer = useMomentCommentActor(input);
  return (
    <MomentThreadProvider composer={composer} videos={videos}>
      {children}
    </MomentThreadProvider>
  );
}

/** One video with its timeline, composer and captions panel, inside the app's theme and toasts. */
export function renderVideoMoments({
  moments,
  video = makeVideo(),
  marks = [],
  startAt = null,
  canComment = true,
  canCaption = true,
  noun = 'Comment',
  composer = { artifactId: 70, target: 'comment', highlight: null },
  after,
}: {
  moments: MomentsSetup;
  video?: Media;
  marks?: readonly MomentMark[];
  startAt?: number | null;
  canComment?: boolean;
  canCaption?: boolean;
  noun?: VideoMomentsProps['noun'];
  composer?: MomentCommentInput;
  /** Rendered after the video (e.g. a comment thread). */
  after?: ReactNode;
}) {
  const location = memoryLocation({ path: '/shared-portfolios/9/artifacts/70' });
  const result = render(
    <Router hook={location.hook}>
      <MomentsContext.Provider value={moments}>
        <Host input={composer} videos={[video]}>
          <VideoMoments
            media={video}
            holder={{
              kind: composer.target === 'note' ? 'artifact' : 'sharedArtifact',
              artifactId: composer.artifactId,
            }}
            marks={marks}
            startAt={startAt}
            canComment={canComment}
            canCaption={canCaption}
            noun={noun}
          />
          {after}
        </Host>
      </MomentsContext.Provider>
      <Toaster />
    </Router>,
  );
  return { ...result, ux: userEvent.setup({ delay: null }) };
}
