/** The client keyword filter over many artifacts: time per keystroke. */
import { performance } from 'node:perf_hooks';

export interface FilterBenchApi<A> {
  makeArtifacts: (n: number) => A[];
  buildIndex: (artifacts: A[]) => unknown;
  search: (index: unknown, artifacts: A[], query: string) => unknown[];
}

/** Types a query one character at a time and times each filtering pass. */
export function runFilterBench<A>(apiImpl: FilterBenchApi<A>, n = 10_000) {
  const artifacts = apiImpl.makeArtifacts(n);
  const t0 = performance.now();
  const index = apiImpl.buildIndex(artifacts);
  const indexMs = performance.now() - t0;
  const times: number[] = [];
  const words = ['forces', 'student thinking', 'ps2.a', 'zzz-no-match'];
  for (let round = 0; round < 5; round++) {
    for (const word of words) {
      for (let i = 1; i <= word.length; i++) {
        const start = performance.now();
        apiImpl.search(index, artifacts, word.slice(0, i));
        times.push(performance.now() - start);
      }
    }
  }
  times.sort((a, b) => a - b);
  const pick = (q: number) => Math.round(times[Math.min(times.length - 1, Math.floor(q * times.length))]! * 100) / 100;
  return { artifacts: n, indexMs: Math.round(indexMs), keystrokes: times.length, p50: pick(0.5), p95: pick(0.95), max: pick(1) };
}
