/**
 * Keyset paging, the one way the reporting read model reads a whole table: each statement asks
 * for the rows after the last key read, so memory stays flat and no page is read twice whatever
 * the size of the data.
 */

/** How to page through one keyset-ordered statement. */
export interface KeysetOptions<R, K> {
  /** The key before the first row (`0`, or a tuple of zeros). */
  start: K;
  /** Rows per statement; a shorter page is the last one. */
  size: number;
  /** The key of a page's last row, from which the next page starts. */
  keyOf: (last: R) => K;
  /**
   * Ask for the next page as soon as a full page arrives, so that the database reads it while the
   * caller handles this one (two pages at most in memory).
   */
  readAhead?: boolean;
  /** Stops reading: no statement is sent after it fired (the client went away). */
  signal?: AbortSignal | undefined;
}

/** The pages of a keyset-ordered statement: `read(after)` returns up to `size` rows after `after`. */
export async function* keysetBatches<R, K>(
  read: (after: K) => Promise<R[]>,
  options: KeysetOptions<R, K>,
): AsyncGenerator<R[]> {
  const { size, keyOf, readAhead = false, signal } = options;
  const ask = (after: K) => {
    signal?.throwIfAborted();
    const page = read(after);
    // A page read ahead that the caller no longer waits for (it stopped) must not fail unhandled.
    if (readAhead) page.catch(() => undefined);
    return page;
  };
  let next = ask(options.start);
  for (;;) {
    const rows = await next;
    const full = rows.length === size;
    if (full && readAhead) next = ask(keyOf(rows.at(-1)!));
    yield rows;
    if (!full) return;
    if (!readAhead) next = ask(keyOf(rows.at(-1)!));
  }
}

/** The rows of a keyset-ordered statement, one at a time (see `keysetBatches`). */
export async function* keysetRows<R, K>(
  read: (after: K) => Promise<R[]>,
  options: KeysetOptions<R, K>,
): AsyncGenerator<R> {
  for await (const rows of keysetBatches(read, options)) yield* rows;
}

/** Keyset options for a statement ordered by an integer `id`. */
export function byId<R extends { id: number }>(size: number, signal?: AbortSignal): KeysetOptions<R, number> {
  return { start: 0, size, keyOf: (last) => last.id, signal };
}
