import { fromPromise, type CallbackActorLogic, type EventObject, type PromiseActorLogic } from 'xstate';
import type { TransferTarget } from '../../services/resumableUploads.ts';
import type { Artifact, ArtifactUpdateBody } from '../../schemas/artifact.ts';
import type { GateCheckResponse } from '../../schemas/sharedArtifact.ts';
import type { SharedArtifact } from '../../schemas/sharedPortfolio.ts';
import { getSharedArtifact, removeFromSharedArtifact } from '../../services/sharedService.ts';
import {
  sharedArtifactSaveMachine,
  type GateCheckInput,
  type SharedUpdateInput,
} from '../sharedArtifactSave/sharedArtifactSaveMachine.ts';
import type { MergeSources, MergeSourcesInput } from '../sharedArtifactSave/mergeSources.ts';
import { posterWatcher, type PosterWatchInput } from '../upload/queueActors.ts';
import type { TransferInput } from '../upload/transferActors.ts';
import { uploadMachine, type UploadedMedia } from '../upload/uploadMachine.ts';
import { uploadQueueMachine, type RemoveFileInput } from '../upload/uploadQueueMachine.ts';
import { artifactLifecycleMachine } from './artifactLifecycleMachine.ts';
import { artifactSaveMachine } from './artifactSaveMachine.ts';
import type { ArtifactKind, EditableArtifact } from './artifactSelectors.ts';
import type { Notice } from '../shared/notice.ts';

/** Replacements for the service calls of the edit page (tests). */
export interface ArtifactEditActors {
  fetchArtifact?: PromiseActorLogic<EditableArtifact, { artifactId: number }>;
  discardArtifact?: PromiseActorLogic<Artifact, { artifactId: number }>;
  updateArtifact?: PromiseActorLogic<Artifact, { artifactId: number; body: ArtifactUpdateBody }>;
  gateCheck?: PromiseActorLogic<GateCheckResponse, GateCheckInput>;
  updateSharedArtifact?: PromiseActorLogic<SharedArtifact, SharedUpdateInput>;
  loadMergeSources?: PromiseActorLogic<MergeSources, MergeSourcesInput>;
  /** Sends a file (tus); stopping it pauses the upload. */
  transfer?: CallbackActorLogic<EventObject, TransferInput>;
  /** Says when to try again after the connection was lost. */
  watchConnection?: CallbackActorLogic<EventObject>;
  /** Cancels an upload on the server. */
  terminate?: PromiseActorLogic<void, { uploadUrl: string }>;
  removeFile?: PromiseActorLogic<UploadedMedia, RemoveFileInput>;
  watchPoster?: CallbackActorLogic<EventObject, PosterWatchInput>;
  /** Looks up the unfinished uploads this browser remembers for the artifact. */
  findRemembered?: CallbackActorLogic<EventObject, TransferTarget>;
  /** Cancels a remembered upload. */
  forgetRemembered?: PromiseActorLogic<void, { uploadUrl: string; key: string }>;
}

/** What the artifact edit page needs from outside, and (tests) replacements for the service calls. */
export interface ArtifactLifecycleImplementations {
  /** Which artifacts the page edits: the machines' own calls are the personal ones. */
  kind?: ArtifactKind;
  notify: (notice: Notice) => void;
  /** Opens the artifact view (of a personal or a shared artifact, as the page's kind). */
  navigateToArtifact: (portfolioId: number, artifactId: number) => void;
  /** Opens the portfolio (Cancel of a new artifact that was never saved). */
  navigateToPortfolio: (portfolioId: number) => void;
  /** Brings the top of the page into view. */
  scrollToTop: () => void;
  /** Lets the navigation the user asked for happen (the app's leave guard). */
  allowLeave: () => void;
  /** Drops the navigation the user asked for (the app's leave guard). */
  stayHere: () => void;
  actors?: ArtifactEditActors;
  /** Upload and queue timings are the machines' own; only the redirect can be shortened (tests). */
  redirectDelay?: number;
}

/** The shared artifact's endpoints, in place of the personal ones the machines call by default. */
const sharedServices = {
  fetchArtifact: fromPromise<EditableArtifact, { artifactId: number }>(({ input, signal }) =>
    getSharedArtifact(input.artifactId, signal),
  ),
  removeFile: fromPromise<UploadedMedia, RemoveFileInput>(({ input, signal }) =>
    removeFromSharedArtifact(input.portfolioId, input.artifactId, input.kind, input.fileId, signal),
  ),
  watchPoster: posterWatcher((artifactId, signal) => getSharedArtifact(artifactId, signal)),
};

/**
 * The edit page's logic with its outward effects supplied, down to the save (personal or shared), the uploads
 * area and each upload; for `kind: 'shared'` every call goes to the shared endpoints.
 */
export function provideArtifactLifecycle({
  kind = 'personal',
  notify,
  navigateToArtifact,
  navigateToPortfolio,
  scrollToTop,
  allowLeave,
  stayHere,
  actors = {},
  redirectDelay,
}: ArtifactLifecycleImplementations) {
  const notifyAction = (_: unknown, notice: Notice) => notify(notice);
  const services: ArtifactEditActors = kind === 'shared' ? { ...sharedServices, ...actors } : actors;
  const upload = uploadMachine.provide({
    actors: {
      ...(services.transfer ? { transfer: services.transfer } : {}),
      ...(services.watchConnection ? { watchConnection: services.watchConnection } : {}),
      ...(services.terminate ? { terminate: services.terminate } : {}),
    },
  });
  const uploadQueue = uploadQueueMachine.provide({
    actions: { notify: notifyAction },
    actors: {
      upload,
      ...(services.removeFile ? { removeFile: services.removeFile } : {}),
      ...(services.watchPoster ? { watchPoster: services.watchPoster } : {}),
      ...(services.findRemembered ? { findRemembered: services.findRemembered } : {}),
      ...(services.forgetRemembered ? { forgetRemembered: services.forgetRemembered } : {}),
    },
  });
  const sharedArtifactSave = sharedArtifactSaveMachine.provide({
    actions: { notify: notifyAction },
    actors: {
      ...(services.gateCheck ? { gateCheck: services.gateCheck } : {}),
      ...(services.updateSharedArtifact ? { updateSharedArtifact: services.updateSharedArtifact } : {}),
      ...(services.loadMergeSources ? { loadMergeSources: services.loadMergeSources } : {}),
    },
  });
  const artifactSave = artifactSaveMachine.provide({
    actions: { notify: notifyAction },
    actors: {
      sharedArtifactSave,
      ...(services.updateArtifact ? { updateArtifact: services.updateArtifact } : {}),
    },
  });
  return artifactLifecycleMachine.provide({
    actions: {
      scrollToTop: () => scrollToTop(),
      navigateToArtifact: (_, params) => navigateToArtifact(params.portfolioId, params.artifactId),
      navigateToPortfolio: (_, params) => navigateToPortfolio(params.portfolioId),
      allowLeave: () => allowLeave(),
      stayHere: () => stayHere(),
    },
    actors: {
      uploadQueue,
      artifactSave,
      ...(services.fetchArtifact ? { fetchArtifact: services.fetchArtifact } : {}),
      ...(services.discardArtifact ? { discardArtifact: services.discardArtifact } : {}),
    },
    ...(redirectDelay !== undefined ? { delays: { redirectDelay } } : {}),
  });
}
