import type { PromiseActorLogic } from 'xstate';
import type { Invitation } from '../../schemas/invitation.ts';
import type { Portfolio } from '../../schemas/portfolio.ts';
import type {
  MembersResponse,
  SharedPortfolio,
  SharedPortfolioBody,
  SharedPortfolioListItem,
} from '../../schemas/sharedPortfolio.ts';
import { participantRemovalMachine } from '../participantRemoval/participantRemovalMachine.ts';
import { participantsMachine, type Invitee } from '../participants/participantsMachine.ts';
import { sharedPortfolioLoadMachine } from '../sharedPortfolioLoad/sharedPortfolioLoadMachine.ts';
import { sharedPortfolioSaveMachine } from '../sharedPortfolioSave/sharedPortfolioSaveMachine.ts';
import { sharedPortfolioFormMachine } from './sharedPortfolioFormMachine.ts';
import type { Notice } from '../shared/notice.ts';

/** What the form needs from outside: messages, navigation and (tests) replacements for the service calls. */
export interface SharedPortfolioFormImplementations {
  /** Shows a message (a toast; errors as alerts). */
  notify: (notice: Notice) => void;
  /** Goes to a shared portfolio's page. */
  navigateToSharedPortfolio: (id: number) => void;
  /** Goes to the Shared Portfolios page. */
  navigateToSharedPortfolios: () => void;
  /** Lets the navigation the user asked for happen (the app's leave guard). */
  allowLeave: () => void;
  /** Drops the navigation the user asked for (the app's leave guard). */
  stayHere: () => void;
  /** Replacements for the service calls (tests); the real services otherwise. */
  actors?: {
    fetchTemplate?: PromiseActorLogic<Portfolio>;
    fetchSharedPortfolio?: PromiseActorLogic<SharedPortfolio, { id: number }>;
    createSharedPortfolio?: PromiseActorLogic<SharedPortfolio, { body: SharedPortfolioBody }>;
    updateSharedPortfolio?: PromiseActorLogic<SharedPortfolio, { id: number; body: SharedPortfolioBody }>;
    deleteSharedPortfolio?: PromiseActorLogic<SharedPortfolioListItem, { id: number }>;
    fetchMembers?: PromiseActorLogic<MembersResponse, { sharedPortfolioId: number }>;
    searchPeople?: PromiseActorLogic<MembersResponse, { sharedPortfolioId: number; search: string }>;
    invitePerson?: PromiseActorLogic<Invitation, { sharedPortfolioId: number; invitee: Invitee }>;
    cancelInvitation?: PromiseActorLogic<Invitation, { invitationId: number }>;
    removeMember?: PromiseActorLogic<SharedPortfolio, { sharedPortfolioId: number; userId: number }>;
  };
}

const pick = <T extends object>(source: T, keys: readonly (keyof T)[]): Partial<T> =>
  Object.fromEntries(keys.filter((k) => source[k] !== undefined).map((k) => [k, source[k]])) as Partial<T>;

/**
 * The Edit Participants logic with its outward effects supplied, down to its child that removes
 * someone (`participantRemoval`, which asks first and makes its own requests).
 */
export function provideParticipants({
  notify,
  actors = {},
}: Pick<SharedPortfolioFormImplementations, 'notify' | 'actors'>) {
  const told = { notify: (_: unknown, notice: Notice) => notify(notice) };
  return participantsMachine.provide({
    actions: told,
    actors: {
      ...pick(actors, ['fetchMembers', 'searchPeople', 'invitePerson']),
      participantRemoval: participantRemovalMachine.provide({
        actions: told,
        actors: pick(actors, ['cancelInvitation', 'removeMember']),
      }),
    },
  });
}

/**
 * The shared portfolio form's logic with its outward effects supplied, and the replaced service
 * calls pushed down to the children that make them: loading (`sharedPortfolioLoad`), saving
 * (`sharedPortfolioSave`) and the Edit Participants dialog.
 */
export function provideSharedPortfolioForm(implementations: SharedPortfolioFormImplementations) {
  const {
    notify,
    navigateToSharedPortfolio,
    navigateToSharedPortfolios,
    allowLeave,
    stayHere,
    actors = {},
  } = implementations;
  return sharedPortfolioFormMachine.provide({
    actions: {
      notify: (_: unknown, notice: Notice) => notify(notice),
      navigateToSharedPortfolio: (_: unknown, params: { id: number }) => navigateToSharedPortfolio(params.id),
      navigateToSharedPortfolios: () => navigateToSharedPortfolios(),
      allowLeave: () => allowLeave(),
      stayHere: () => stayHere(),
    },
    actors: {
      ...pick(actors, ['deleteSharedPortfolio']),
      sharedPortfolioLoad: sharedPortfolioLoadMachine.provide({
        actors: pick(actors, ['fetchTemplate', 'fetchSharedPortfolio']),
      }),
      sharedPortfolioSave: sharedPortfolioSaveMachine.provide({
        actors: pick(actors, ['createSharedPortfolio', 'updateSharedPortfolio']),
      }),
      participants: provideParticipants({ notify, actors }),
    },
  });
}
