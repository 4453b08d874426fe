import os from 'node:os';
import type { DatasetSize } from '../generate.ts';

/** The goals each part's figures are judged by. */
export const GOALS = {
  meShareOfBare: 30,
  portfoliosSmallRps: 630,
  shareOfPgFloor: 50,
  loginWireKb: 100,
  loginRequests: 8,
  loginFcpOverFloorMs: 100,
  restartMs: 1000,
  firstBootMs: 3000,
  stopMs: 5000,
  portfolioMs: 500,
  largestProcessMb: 150,
  allProcessesMb: 250,
  lighthouseLogin: 95,
  lighthouseSignedIn: 90,
  bundleLoginKb: 100,
  bundleLargestKb: 200,
  uploadGrowthMiB: 64,
  exportGrowthMiB: 64,
  researchGrowthMiB: 64,
  loginP99Ms: 150,
  filterP95Ms: 16,
  backupGrowthMiB: 64,
  backupP99Factor: 2,
  versionsMb: 5,
  versionsListP99Ms: 50,
  historyDiffMs: 100,
  resumableDropFactor: 1.2,
  resumableServerGrowthMiB: 64,
  resumableTabGrowthMiB: 100,
  coverageApiP99Ms: 100,
  coverageRenderMs: 300,
};

/** How a run was asked for (`npm run bench -- …`): see `bench/run.ts`. */
export interface BenchOptions {
  /** The parts to run. */
  only: Set<string>;
  sizeName: 'small' | 'large';
  size: DatasetSize;
  /** The data sets of the parts measured at both sizes: the small one, and the large one unless `--size small`. */
  sizes: [string, DatasetSize][];
  seconds: number;
  loads: number;
  boots: number;
  reps: number;
  uploadBytes: number;
  values: { chromium: string; 'lighthouse-runs': string; 'upload-mib': string; 'resumable-mib': string; out: string };
}

/**
 * The results being written: each part adds its section (`out`) and records its goals (`judge`)
 * for the summary at the top; the helpers format the figures alike in every section.
 */
export function openReport(options: BenchOptions) {
  const lines: string[] = [];
  const out = (line = '') => lines.push(line);
  const goals: { part: string; goal: string; figure: string; met: boolean; load: number }[] = [];
  /** Records a goal for the summary and returns its mark for the table it belongs to. */
  const judge = (part: string, goal: string, figure: string, met: boolean) => {
    goals.push({ part, goal, figure, met, load: os.loadavg()[0]! });
    return mark(met);
  };
  const mark = (ok: boolean) => (ok ? 'met' : '**not met**');
  const log = (message: string) => process.stdout.write(`${message}\n`);
  const kB = (bytes: number) => (bytes / 1000).toFixed(1);
  const MB = (bytes: number) => (bytes / 1e6).toFixed(1);
  const pct = (a: number, b: number) => (b > 0 ? Math.round((a / b) * 100) : 0);
  /** Whether `a` is at least `goal` percent of `b` (exactly: the rounded figure shown is not what is judged). */
  const atLeast = (a: number, b: number, goal: number) => b > 0 && (a / b) * 100 >= goal;
  return {
    ...options,
    GOALS,
    lines,
    goals,
    /** The row counts of the data set measured, from the first part that reports them. */
    counts: null as Record<string, number> | null,
    out,
    judge,
    mark,
    log,
    kB,
    MB,
    pct,
    atLeast,
  };
}

export type Report = ReturnType<typeof openReport>;
