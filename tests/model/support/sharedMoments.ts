/**
 * Moments on the video of a shared artifact for the discussion's model tests: the moment logic
 * with fake services, and a comment or reaction placed at 0:05 through the page, as a user does.
 */
import { act, fireEvent, screen, within } from '@testing-library/react';
import type userEvent from '@testing-library/user-event';
import { fromPromise } from 'xstate';
import type { MomentPost } from '../../../src/machines/momentComment/momentCommentMachine.ts';
import type { CommentAnswer } from '../../../src/machines/sharedArtifactDiscussion/discussionSelectors.ts';
import type { MomentBody } from '../../../src/schemas/moments.ts';
import type { Reaction } from '../../../src/schemas/sharedArtifact.ts';
import { makeVideo, provideTestMoments, stubMediaElements } from '../../../src/test/videoHarness.tsx';
import { controllableActor } from './deferred.ts';

/** The artifact's one video (media 61, 12 s). */
export const VIDEO = makeVideo();
/** Where the moments are placed. */
export const AT = 5;

/** The moment logic of the page with its posts waiting for the test; call inside a test (media elements are stubbed). */
export function momentFakes() {
  stubMediaElements(12);
  const fakes = {
    postMoment: controllableActor<CommentAnswer, MomentPost>(),
    reactAtMoment: controllableActor<Reaction, { artifactId: number; value: string; moment: MomentBody }>(),
  };
  const moments = provideTestMoments({
    composer: { postMoment: fakes.postMoment.logic, reactAtMoment: fakes.reactAtMoment.logic },
    player: { listCaptions: fromPromise(async () => []) },
  });
  return { moments, ...fakes };
}

type Ux = ReturnType<typeof userEvent.setup>;
type Fakes = ReturnType<typeof momentFakes>;

/** Opens the moment composer at 0:05 of the video. */
async function openAt(ux: Ux) {
  const video = document.querySelector('video')!;
  act(() => {
    video.currentTime = AT;
    fireEvent.timeUpdate(video);
  });
  await ux.click(screen.getByRole('button', { name: 'Comment at 0:05' }));
  return screen.getByRole('form', { name: 'Comment at 0:05' });
}

/** Comments `text` at 0:05; the server answers `answer`. */
export async function commentAtMoment(ux: Ux, fakes: Fakes, text: string, answer: CommentAnswer) {
  const form = await openAt(ux);
  await ux.type(within(form).getByRole('textbox', { name: 'Comment text' }), text);
  await ux.click(within(form).getByRole('button', { name: 'Post Comment' }));
  await act(async () => fakes.postMoment.next().deferred.resolve(answer));
  await screen.findByText('Comment added at 0:05');
}

/** Places the reaction `meaning` at 0:05; the server answers `answer`. */
export async function reactAtMoment(ux: Ux, fakes: Fakes, meaning: string, answer: Reaction) {
  const form = await openAt(ux);
  await ux.click(within(form).getByRole('button', { name: `${meaning} at 0:05` }));
  await act(async () => fakes.reactAtMoment.next().deferred.resolve(answer));
  await screen.findByText('Reaction placed at 0:05');
}
