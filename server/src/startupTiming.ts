/**
 * Start-up phases for the start-up benchmark: with `STARTUP_TIMING=1`, each phase's end is
 * written to stderr as `startup-timing <phase> <epoch ms>` (nothing otherwise).
 */
const enabled = process.env['STARTUP_TIMING'] === '1';

export function markStartup(phase: string): void {
  if (enabled)
    process.stderr.write(`startup-timing ${phase} ${(performance.timeOrigin + performance.now()).toFixed(1)}\n`);
}
