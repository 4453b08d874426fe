import type { User } from '../../schemas/user.ts';

const collator = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });

/** Table order: by name (case- and accent-insensitive), then by id so equal names keep a stable order. */
export function compareByName(a: Pick<User, 'id' | 'username'>, b: Pick<User, 'id' | 'username'>): number {
  return collator.compare(a.username, b.username) || a.id - b.id;
}

/** The users sorted by name (a new list). */
export function sortByName<T extends Pick<User, 'id' | 'username'>>(users: readonly T[]): T[] {
  return [...users].sort(compareByName);
}

/** Where `user` belongs in a list already sorted by name. */
export function insertionIndex<T>(
  list: readonly T[],
  user: Pick<User, 'id' | 'username'>,
  keyOf: (item: T) => Pick<User, 'id' | 'username'>,
): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (compareByName(keyOf(list[mid]!), user) <= 0) low = mid + 1;
    else high = mid;
  }
  return low;
}
