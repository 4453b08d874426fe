import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AnyStateMachine } from 'xstate';
import type { TestProject } from 'vitest/node';
import { trackMachine } from './coverage.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    modelCoverageDir: string;
  }
}

const MACHINES_DIR = path.resolve('src/machines');

function machineFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return machineFiles(full);
    return entry.name.endsWith('Machine.ts') ? [full] : [];
  });
}

function isMachine(value: unknown): value is AnyStateMachine {
  return (
    typeof value === 'object' &&
    value !== null &&
    'root' in value &&
    'id' in value &&
    typeof (value as { provide?: unknown }).provide === 'function'
  );
}

/**
 * The model project's run summary: every machine defined in `src/machines`, its states and
 * transitions, and how many the generated paths of all model tests covered. The run fails when a
 * machine is not at 100% (or has no model test at all).
 */
export default function setup(project: TestProject) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pf-model-coverage-'));
  project.provide('modelCoverageDir', dir);
  return async () => {
    const covered = new Map<string, { states: Map<string, number>; transitions: Map<string, number> }>();
    for (const file of readdirSync(dir)) {
      const data = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as {
        machineId: string;
        states: [string, number][];
        transitions: [string, number][];
      };
      const entry = covered.get(data.machineId) ?? { states: new Map(), transitions: new Map() };
      for (const [k, n] of data.states) entry.states.set(k, (entry.states.get(k) ?? 0) + n);
      for (const [k, n] of data.transitions) entry.transitions.set(k, (entry.transitions.get(k) ?? 0) + n);
      covered.set(data.machineId, entry);
    }
    rmSync(dir, { recursive: true, force: true });
    // A partial run (some files, a name filter) reports only what it ran.
    const partial =
      covered.size === 0 ||
      process.argv.some(
        (a) => a.endsWith('.test.tsx') || a.includes('tests/model/') || a === '-t' || a.startsWith('--testNamePattern'),
      );
    const machines = new Map<string, AnyStateMachine>();
    for (const file of machineFiles(MACHINES_DIR)) {
      const mod = (await project.vitest.import(file)) as Record<string, unknown>;
      for (const value of Object.values(mod)) if (isMachine(value)) machines.set(value.id, value);
    }
    const rows: string[] = [];
    const failures: string[] = [];
    for (const [id, machine] of [...machines].sort(([a], [b]) => a.localeCompare(b))) {
      const all = trackMachine(machine);
      const seen = covered.get(id);
      const states = [...all.states.keys()];
      const transitions = [...all.transitions.keys()];
      const s = seen ? states.filter((k) => (seen.states.get(k) ?? 0) > 0).length : 0;
      const t = seen ? transitions.filter((k) => (seen.transitions.get(k) ?? 0) > 0).length : 0;
      const full = s === states.length && t === transitions.length;
      if (!seen && partial) continue;
      if (!full) failures.push(id);
      rows.push(
        `  ${full ? '✓' : '✗'} ${id.padEnd(22)} states ${String(s).padStart(3)}/${String(states.length).padEnd(3)} transitions ${String(t).padStart(3)}/${String(transitions.length).padEnd(3)}${seen ? '' : '  (no model test)'}`,
      );
    }
    process.stdout.write(
      `\nModel-based path coverage of the machines in src/machines${partial ? ' (partial run)' : ''}:\n${rows.join('\n')}\n`,
    );
    if (failures.length > 0)
      throw new Error(`Machines below 100% state and transition coverage: ${failures.join(', ')}`);
  };
}
