import type { PgBoss } from 'pg-boss';
import type { JobKind } from './jobKind.ts';

const DELETE_COMPLETED_AFTER_SECONDS = 24 * 3600;
const KEEP_FAILED_SECONDS = 30 * 24 * 3600;

/** Whether a stored queue has the settings this code gives it. */
function sameSettings(stored: Record<string, unknown>, settings: Record<string, unknown>): boolean {
  const expected = { heartbeatSeconds: null, deadLetter: null, ...settings };
  return Object.entries(expected).every(([key, value]) => (stored[key] ?? null) === value);
}

/**
 * Creates the queues and schedules of `kinds` in the engine's schema, or brings them in line with
 * this code (a queue whose settings changed, a schedule moved or gone).
 */
export async function syncQueues(boss: PgBoss, kinds: ReadonlyMap<string, JobKind<never>>): Promise<void> {
  // One read of the queues and schedules; only what differs from this code is written (a
  // restart usually writes nothing).
  const queues = new Map((await boss.getQueues([...kinds.keys()])).map((q) => [q.name, q]));
  const schedules = new Map((await boss.getSchedules()).map((q) => [q.name, q]));
  // A schedule this code no longer has (a kind gone, `BACKUP_DIR` unset) would queue jobs nobody runs.
  for (const name of schedules.keys()) if (!kinds.get(name)?.cron) await boss.unschedule(name);
  for (const kind of kinds.values()) {
    const settings = {
      retryLimit: kind.retryLimit,
      retryDelay: kind.retryDelaySeconds,
      retryBackoff: kind.retryBackoff ?? false,
      expireInSeconds: kind.expireInSeconds ?? 900,
      deleteAfterSeconds: DELETE_COMPLETED_AFTER_SECONDS,
      retentionSeconds: KEEP_FAILED_SECONDS,
      ...(kind.heartbeatSeconds ? { heartbeatSeconds: kind.heartbeatSeconds } : {}),
      ...(kind.deadLetter ? { deadLetter: kind.deadLetter.name } : {}),
      notify: true,
    };
    const stored = queues.get(kind.name);
    // A queue's policy is set when it is created; the rest follows the code of the node that starts.
    if (!stored) await boss.createQueue(kind.name, { ...settings, policy: kind.policy ?? 'standard' });
    else if (!sameSettings(stored as unknown as Record<string, unknown>, settings))
      await boss.updateQueue(kind.name, settings);
    const schedule = schedules.get(kind.name);
    if (kind.cron && (schedule?.cron !== kind.cron || schedule.timezone !== 'UTC'))
      await boss.schedule(kind.name, kind.cron, {}, { tz: 'UTC' });
  }
}
