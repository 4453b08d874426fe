/**
 * The client's Filter By and keyword search over a large portfolio: the time to build the table
 * rows once, then the time of each filtering pass as a query is typed one character at a time.
 */
import { performance } from 'node:perf_hooks';
import type { Artifact } from '../src/schemas/artifact.ts';
import { filterRows, NO_FILTERS, toggleFilter, toRows } from '../src/machines/portfolioBrowser/selectors.ts';

const CATEGORIES = ['Student work', 'Assessment', 'Lesson plan', 'Classroom video'];
const TIMINGS = ['Beginning of unit', 'Middle of unit', 'End of unit'];

/** `n` personal artifacts with realistic responses and a few comments each. */
function makeArtifacts(n: number): Artifact[] {
  const at = new Date(Date.UTC(2026, 0, 1)).toISOString();
  return Array.from({ length: n }, (_, i) => ({
    id: i + 1,
    portfolio: { id: 1 },
    parkingLot: i % 7 === 0,
    created_at: at,
    updated_at: at,
    structure: [],
    responses: {
      artifactName: `Artifact ${i}: ${i % 3 === 0 ? 'ramp races' : i % 3 === 1 ? 'balanced forces' : 'food webs'}`,
      unitTiming: TIMINGS[i % TIMINGS.length]!,
      unitDay: (i % 20) + 1,
      artifactCategory: [CATEGORIES[i % CATEGORIES.length]!],
      learningGoal: 'Students explain how forces change motion, using evidence from their investigation.',
      studentThinking: `Group ${i % 9} connected a bigger push to a longer roll; some still think heavier always means faster.`,
      standardFrameworkTags: i % 2 === 0 ? ['PS2.A: Forces and Motion'] : ['Planning and carrying out investigations'],
    },
    nextCaption: 'A',
    owner: { id: 2, username: 'tess', email: 'tess@example.org' },
    ownerUsername: 'tess',
    portfolioGrades: ['6'],
    commentCount: 2,
    commentTexts: ['Nice use of evidence.', `Could the class graph run ${i}?`],
    saved: true,
    images: [],
    videos: [],
    documents: [],
  }));
}

/** Types each query a character at a time (with and without a Filter By choice) and times each pass. */
export function runFilterBench(n = 10_000) {
  const artifacts = makeArtifacts(n);
  const t0 = performance.now();
  const rows = toRows(artifacts);
  const rowsMs = performance.now() - t0;
  const times: number[] = [];
  const words = ['forces', 'student thinking', 'ps2.a', 'zzz-no-match'];
  const filters = [NO_FILTERS, toggleFilter(NO_FILTERS, 'artifactCategory', 'Assessment')];
  let matched = 0;
  for (let round = 0; round < 5; round++) {
    for (const chosen of filters) {
      for (const word of words) {
        for (let i = 1; i <= word.length; i++) {
          const start = performance.now();
          matched += filterRows(rows, chosen, word.slice(0, i)).length;
          times.push(performance.now() - start);
        }
      }
    }
  }
  if (matched === 0) throw new Error('the filter matched nothing: the benchmark measures nothing');
  times.sort((a, b) => a - b);
  const pick = (q: number) => Math.round(times[Math.min(times.length - 1, Math.floor(q * times.length))]! * 100) / 100;
  return {
    artifacts: n,
    rowsMs: Math.round(rowsMs),
    keystrokes: times.length,
    p50: pick(0.5),
    p95: pick(0.95),
    max: pick(1),
  };
}
