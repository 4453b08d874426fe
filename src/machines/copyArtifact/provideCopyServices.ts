import type { PromiseActorLogic } from 'xstate';
import type { Artifact } from '../../schemas/artifact.ts';
import type { SharedArtifactDetail } from '../../schemas/sharedArtifact.ts';
import type { SharedArtifact, SharedPortfolioListItem } from '../../schemas/sharedPortfolio.ts';
import type { CopyArtifactMachine, CopyRequest } from './copyArtifactMachine.ts';
import { provideDown } from '../shared/given.ts';

/** Replacements for the copy page's service calls (tests' fakes). */
export interface CopyServices {
  fetchArtifact?: PromiseActorLogic<Artifact, { artifactId: number }> | undefined;
  fetchSharedArtifact?: PromiseActorLogic<SharedArtifactDetail, { artifactId: number }> | undefined;
  listSharedPortfolios?: PromiseActorLogic<SharedPortfolioListItem[]> | undefined;
  copyArtifact?: PromiseActorLogic<SharedArtifact, CopyRequest> | undefined;
}

/**
 * The copy page's logic with other service calls, down to the child that makes them: the artifact
 * and the shared portfolios are loaded by `copySource`, the copy is the page's own. What `logic`
 * already gave its child is kept.
 */
export function provideCopyServices(
  logic: CopyArtifactMachine,
  { fetchArtifact, fetchSharedArtifact, listSharedPortfolios, copyArtifact }: CopyServices,
): CopyArtifactMachine {
  return provideDown(
    logic,
    'copySource',
    { copyArtifact },
    { fetchArtifact, fetchSharedArtifact, listSharedPortfolios },
  );
}
