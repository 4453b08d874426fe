/**
 * Test kit of Edit Participants: the participants summary and its dialog on one participants
 * actor (portfolio 9, owned by Lee, with Tess as a member), with the service calls a test gives.
 */
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createActor, type InspectionEvent } from 'xstate';
import {
  provideParticipants,
  type SharedPortfolioFormImplementations,
} from '../machines/sharedPortfolioForm/provideSharedPortfolioForm.ts';
import { Toaster } from '../views/feedback/Toaster.tsx';
import { notify } from '../views/feedback/toastStore.ts';
import { EditParticipantsDialog } from '../views/shared/participants/EditParticipantsDialog.tsx';
import { ParticipantsSummary } from '../views/shared/participants/ParticipantsSummary.tsx';
import { people } from './sharedFixtures.ts';

/** The input of the participants actor the kit renders. */
export const PARTICIPANTS_INPUT = { sharedPortfolioId: 9, owner: people.lee, members: [people.lee, people.tess] };

/** Renders the summary and the dialog; messages go to the toasts, as in the app. */
export function renderParticipantsDialog(
  actors: NonNullable<SharedPortfolioFormImplementations['actors']>,
  inspect?: (event: InspectionEvent) => void,
) {
  const logic = provideParticipants({ notify: ({ message, tone }) => notify(message, tone), actors });
  const actor = createActor(logic, { input: PARTICIPANTS_INPUT, ...(inspect ? { inspect } : {}) }).start();
  render(
    <>
      <ParticipantsSummary actorRef={actor} disabled={false} />
      <EditParticipantsDialog actorRef={actor} />
      <Toaster />
    </>,
  );
  return { actor, ux: userEvent.setup({ delay: null }) };
}
