import { fromPromise } from 'xstate';
import { coverageMachine } from '../machines/coverage/coverageMachine.ts';
import { COVERAGE_COLUMNS, type Coverage, type CoverageRequest } from '../schemas/coverage.ts';

/** The coverage map of a place with nothing tagged yet (no rows), for tests of the pages that hold a map. */
export const emptyCoverage = coverageMachine.provide({
  actors: {
    fetchCoverage: fromPromise<Coverage, CoverageRequest>(async ({ input }) => ({
      scope: input.scope,
      name: null,
      rowKind: input.rows,
      dimension: input.dimension,
      columns: [...COVERAGE_COLUMNS[input.dimension]],
      rows: [],
    })),
  },
});
