import type { User } from '../../schemas/user.ts';

/** One choice of the Select Teacher list. */
export interface TeacherOption {
  id: number;
  /** 'Last, First': the username's last word, a comma, then the rest. */
  label: string;
}

/** A username shown as 'Last, First' (reference §12.1 #18); a one-word name stays as it is. */
export function teacherLabel(username: string): string {
  const words = username.trim().split(/\s+/).filter(Boolean);
  if (words.length < 2) return username.trim();
  const last = words.pop()!;
  return `${last}, ${words.join(' ')}`;
}

const collator = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });

/** The teachers as the select lists them: by 'Last, First' label. */
export function teacherOptions(users: readonly Pick<User, 'id' | 'username'>[]): TeacherOption[] {
  return users
    .map((user) => ({ id: user.id, label: teacherLabel(user.username) }))
    .sort((a, b) => collator.compare(a.label, b.label) || a.id - b.id);
}
