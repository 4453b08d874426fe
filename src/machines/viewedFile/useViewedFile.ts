import { useActorRef } from '@xstate/react';
import { useSelector } from '../shared/actorReact.ts';
import { createContext, useContext } from 'react';
import type { InspectionEvent } from 'xstate';
import type { ViewedFile } from '../../schemas/media.ts';
import { viewedFileMachine } from './viewedFileMachine.ts';

/** An inspector of the viewer's question to the server (tests). */
export const ViewedFileInspectContext = createContext<((event: InspectionEvent) => void) | undefined>(undefined);

/** What the viewer learned of its file: `undefined` while asking, `null` when nothing (or nothing was asked). */
export function useViewedFile(capability: string | null, name: string): ViewedFile | null | undefined {
  const inspect = useContext(ViewedFileInspectContext);
  const actor = useActorRef(viewedFileMachine, { input: { capability, name }, ...(inspect ? { inspect } : {}) });
  return useSelector(actor, (s) => (s.matches('loading') || s.matches('starting') ? undefined : s.context.file));
}

/** Where a file's artifact is in the portal. */
export function artifactHref(artifact: NonNullable<ViewedFile['artifact']>): string {
  return artifact.kind === 'shared'
    ? `/shared-portfolios/${artifact.portfolioId}/artifacts/${artifact.id}`
    : `/my-portfolios/${artifact.portfolioId}/artifacts/${artifact.id}`;
}
