/** How much of an address's local part a mask shows, and what stands for the rest. */
export interface EmailMask {
  shown: number;
  mark: string;
}

/** The two masks the product shows, each where its decision set it. */
export const EMAIL_MASKS = {
  /** Other people's addresses in a member search or a pending invitation: `ad…@school.example` (decision 017). */
  others: { shown: 2, mark: '…' },
  /** One's own address on the unsubscribe page: `t***@example.org` (decision 020). */
  own: { shown: 1, mark: '***' },
} as const satisfies Record<string, EmailMask>;

/**
 * An address with its local part masked after its first characters: enough to recognise one's
 * own address, not enough to learn someone else's. No `@`: the mark alone.
 */
export function maskEmail(email: string, mask: EmailMask = EMAIL_MASKS.others): string {
  const at = email.lastIndexOf('@');
  if (at <= 0) return mask.mark;
  return `${email.slice(0, Math.min(mask.shown, at))}${mask.mark}${email.slice(at)}`;
}
