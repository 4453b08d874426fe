import { useContext } from 'react';
import { coverageMachine } from '../../machines/coverage/coverageMachine.ts';
import { CoverageActorContext, CoverageLogicContext } from '../../machines/coverage/useCoverage.ts';
import type { CoverageRow, CoverageRowKind } from '../../schemas/coverage.ts';
import type { CoverageRequest } from '../../schemas/coverage.ts';
import { CoverageMap } from './CoverageMap.tsx';

/**
 * A coverage map with its own actor for `input` (its scope, first rows and columns): a new map
 * whenever the scope changes.
 */
export function CoveragePanel({
  input,
  rowLabels,
  rowHref,
}: {
  input: CoverageRequest;
  rowLabels: Record<CoverageRowKind, string> | null;
  rowHref?: (row: CoverageRow) => string | null;
}) {
  const given = useContext(CoverageLogicContext);
  return (
    <CoverageActorContext.Provider
      key={`${input.scope}:${input.id ?? ''}`}
      logic={given?.logic ?? coverageMachine}
      options={{ input, ...(given?.inspect ? { inspect: given.inspect } : {}) }}
    >
      <CoverageMap rowLabels={rowLabels} {...(rowHref ? { rowHref } : {})} />
    </CoverageActorContext.Provider>
  );
}
