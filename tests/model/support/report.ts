import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, expect, inject } from 'vitest';
import type { AnyStateMachine } from 'xstate';
import { describeCoverage, missing, trackMachine, type MachineCoverage } from './coverage.ts';

/**
 * After the file's paths ran: prints the machine's states and transitions with what the
 * paths covered, and fails unless every one was covered. A machine whose paths are spread over
 * several files (`part`) is checked by the run's summary instead, over all of them together
 * (`globalSetup.ts`, which fails a run below 100%).
 */
export function reportCoverageAfterAll(coverage: MachineCoverage, options: { part?: boolean } = {}): void {
  afterAll(() => {
    process.stdout.write(`\n${describeCoverage(coverage)}\n`);
    // Kept for the run's summary of every machine (tests/model/support/globalSetup.ts).
    const dir = inject('modelCoverageDir');
    if (dir) {
      mkdirSync(dir, { recursive: true });
      writeFileSync(
        path.join(
          dir,
          `${coverage.machineId}-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}.json`,
        ),
        JSON.stringify({
          machineId: coverage.machineId,
          states: [...coverage.states],
          transitions: [...coverage.transitions],
        }),
      );
    }
    if (!options.part)
      expect(missing(coverage), `uncovered parts of ${coverage.machineId}`).toEqual({ states: [], transitions: [] });
  });
}

/**
 * The start of every model test file: registers the machine's states and transitions, and after
 * the file's paths ran reports what they covered and fails unless they covered all of it.
 */
export function trackCoverage(machine: AnyStateMachine): MachineCoverage {
  const coverage = trackMachine(machine);
  reportCoverageAfterAll(coverage);
  return coverage;
}
