import { createContext, useMemo } from 'react';
import type { InspectionEvent } from 'xstate';
import type { Coverage, CoverageArtifact, CoverageDimension, CoverageRowKind } from '../../schemas/coverage.ts';
import type { CoverageRequest } from '../../schemas/coverage.ts';
import type { UiError } from '../../services/errors.ts';
import { createActorContext } from '../shared/actorReact.ts';
import { coverageMachine, type CoverageCell } from './coverageMachine.ts';

/** The map's actor; each place provides its scope as input (tests provide the logic with their own actors). */
export const CoverageActorContext = createActorContext(coverageMachine);

export type CoverageStatus = 'loading' | 'loadFailed' | 'ready';
export type CoverageCellStatus = 'none' | 'loading' | 'ready' | 'failed';

/** Where the map stands. */
export const useCoverageStatus = (): CoverageStatus =>
  CoverageActorContext.useSelector((s): CoverageStatus =>
    s.matches('ready') ? 'ready' : s.matches('loadFailed') ? 'loadFailed' : 'loading',
  );

/** The map as last loaded, what was asked, and why the last load failed. */
export function useCoverageData(): { coverage: Coverage | null; query: CoverageRequest; error: UiError | null } {
  const coverage = CoverageActorContext.useSelector((s) => s.context.coverage);
  const query = CoverageActorContext.useSelector((s) => s.context.query);
  const error = CoverageActorContext.useSelector((s) => s.context.error);
  return useMemo(() => ({ coverage, query, error }), [coverage, query, error]);
}

/** The chosen cell and its artifacts read so far. */
export function useCoverageCell(): {
  status: CoverageCellStatus;
  cell: CoverageCell | null;
  items: readonly CoverageArtifact[];
  total: number;
  error: UiError | null;
} {
  const status = CoverageActorContext.useSelector((s): CoverageCellStatus => {
    if (s.matches({ ready: 'cellLoading' })) return 'loading';
    if (s.matches({ ready: 'cell' })) return 'ready';
    if (s.matches({ ready: 'cellFailed' })) return 'failed';
    return 'none';
  });
  const cell = CoverageActorContext.useSelector((s) => s.context.cell);
  const items = CoverageActorContext.useSelector((s) => s.context.items);
  const total = CoverageActorContext.useSelector((s) => s.context.total);
  const error = CoverageActorContext.useSelector((s) => s.context.cellError);
  return useMemo(() => ({ status, cell, items, total, error }), [status, cell, items, total, error]);
}

/** What the map's view may ask. */
export function useCoverageEvents() {
  const ref = CoverageActorContext.useActorRef();
  return useMemo(
    () => ({
      changeRows: (rows: CoverageRowKind) => ref.send({ type: 'change', rows }),
      changeDimension: (dimension: CoverageDimension) => ref.send({ type: 'change', dimension }),
      select: (row: number, column: string) => ref.send({ type: 'select', row, column }),
      more: () => ref.send({ type: 'more' }),
      close: () => ref.send({ type: 'close' }),
      retry: () => ref.send({ type: 'retry' }),
    }),
    [ref],
  );
}

/** The map's logic (tests provide it with their own actors, and an inspector); the real one where none is given. */
export const CoverageLogicContext = createContext<{
  logic: typeof coverageMachine;
  inspect?: (event: InspectionEvent) => void;
} | null>(null);
