import type { NotificationKind } from '#schemas/notifications';
import type { MailMessage } from './mailer.ts';
import { escapeHtml } from './messages.ts';

const BRAND = 'PracticeFolio';

/** What one line of a notification e-mail says and where it leads (absolute addresses). */
export interface MailItem {
  summary: string;
  href: string;
}

/** The unsubscribe addresses of a mail: this kind only (when it is about one kind), and everything. */
export interface UnsubscribeLinks {
  kind: { href: string; label: string } | null;
  all: string;
}

function footer(links: UnsubscribeLinks): { text: string; html: string } {
  const kindText = links.kind ? `${links.kind.label}: ${links.kind.href}\n` : '';
  const kindHtml = links.kind
    ? `<a href="${escapeHtml(links.kind.href)}" style="color:#4a5d6e">${escapeHtml(links.kind.label)}</a> · `
    : '';
  return {
    text: `\n--\nYou receive this e-mail because of your notification settings on ${BRAND}.\n${kindText}Stop all notification e-mails: ${links.all}\n`,
    html: `<hr style="border:none;border-top:1px solid #d5dde5;margin-top:24px"><p style="font-size:13px;color:#4a5d6e">You receive this e-mail because of your notification settings on ${BRAND}.<br>${kindHtml}<a href="${escapeHtml(links.all)}" style="color:#4a5d6e">Stop all notification e-mails</a></p>`,
  };
}

function page(inner: string, end: string): string {
  return `<!doctype html><html><body style="font-family:Arial,sans-serif;line-height:1.5;color:#1b2a38">\n${inner}\n<p>— ${BRAND}</p>\n${end}</body></html>`;
}

/** The unsubscribe labels per kind. */
export const UNSUBSCRIBE_LABELS: Record<NotificationKind, string> = {
  invitation_received: 'Stop e-mails about invitations',
  invitation_accepted: 'Stop e-mails about accepted invitations',
  comment: 'Stop e-mails about comments on your artifacts',
  reply: 'Stop e-mails about replies',
  mention: 'Stop e-mails about mentions',
  reaction: 'Stop e-mails about reactions',
  snapshot_edited: 'Stop e-mails about edits of your artifacts',
  removed: 'Stop e-mails about removals from shared portfolios',
  score: 'Stop e-mails about rubric scores',
};

/** One event, sent as it happens. */
export function notificationMessage(
  to: { email: string; username: string },
  item: MailItem,
  links: UnsubscribeLinks,
): MailMessage {
  const end = footer(links);
  return {
    to: to.email,
    subject: `${item.summary}`.slice(0, 180),
    text: `Hello ${to.username},\n\n${item.summary}.\n\nOpen it on ${BRAND}:\n${item.href}\n${end.text}`,
    html: page(
      `<p>Hello ${escapeHtml(to.username)},</p>\n<p>${escapeHtml(item.summary)}.</p>\n<p><a href="${escapeHtml(item.href)}" style="display:inline-block;padding:10px 16px;background:#1f5f8b;color:#ffffff;text-decoration:none;border-radius:4px">Open it</a></p>`,
      end.html,
    ),
    links: [item.href, ...(links.kind ? [links.kind.href] : []), links.all],
  };
}

/** Several events in one e-mail: a subject, a sentence before the list, one line per event. */
function listMessage(
  to: { email: string; username: string },
  subject: string,
  intro: string,
  items: MailItem[],
  links: UnsubscribeLinks,
): MailMessage {
  const end = footer(links);
  return {
    to: to.email,
    subject: subject.slice(0, 180),
    text: `Hello ${to.username},\n\n${intro}\n\n${items.map((i) => `- ${i.summary}\n  ${i.href}`).join('\n')}\n${end.text}`,
    html: page(
      `<p>Hello ${escapeHtml(to.username)},</p>\n<p>${escapeHtml(intro)}</p>\n<ul>${items
        .map((i) => `<li><a href="${escapeHtml(i.href)}">${escapeHtml(i.summary)}</a></li>`)
        .join('')}</ul>`,
      end.html,
    ),
    links: [...items.map((i) => i.href), ...(links.kind ? [links.kind.href] : []), links.all],
  };
}

/** The day's other events in one e-mail. */
export function digestMessage(
  to: { email: string; username: string },
  items: MailItem[],
  links: UnsubscribeLinks,
): MailMessage {
  const count = items.length === 1 ? 'one update' : `${items.length} updates`;
  return listMessage(
    to,
    `Your ${BRAND} digest: ${count}`,
    `Here is what happened on ${BRAND} since your last digest:`,
    items,
    links,
  );
}

/**
 * The events of one thread (a shared artifact) that arrived while its last e-mail was recent
 * (`title`: "3 new comments on “Group work” in Grade 5 PLC"), in one e-mail.
 */
export function threadMessage(
  to: { email: string; username: string },
  title: string,
  items: MailItem[],
  links: UnsubscribeLinks,
): MailMessage {
  return listMessage(to, title, `${title} since our last e-mail about it:`, items, links);
}
