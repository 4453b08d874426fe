import type { MailMessage } from './mailer.ts';

const BRAND = 'PracticeFolio';

/** Escapes text for HTML. */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

function layout(paragraphs: string[], link: { href: string; label: string } | null): string {
  const body = paragraphs.map((p) => `<p>${p}</p>`).join('\n');
  const button = link
    ? `<p><a href="${escapeHtml(link.href)}" style="display:inline-block;padding:10px 16px;background:#1f5f8b;color:#ffffff;text-decoration:none;border-radius:4px">${escapeHtml(link.label)}</a></p>\n<p>Or paste this address into your browser:<br>${escapeHtml(link.href)}</p>`
    : '';
  return `<!doctype html><html><body style="font-family:Arial,sans-serif;line-height:1.5;color:#1b2a38">\n${body}\n${button}\n<p>— ${BRAND}</p></body></html>`;
}

/** "Reset your password" with a link that works once, for one hour. */
export function resetPasswordMessage(to: { email: string; username: string }, link: string): MailMessage {
  return {
    to: to.email,
    subject: `Reset your ${BRAND} password`,
    text: `Hello ${to.username},\n\nSomeone asked to reset the password of your ${BRAND} account. To choose a new password, open this link within one hour:\n\n${link}\n\nIf you did not ask for this, you can ignore this e-mail; your password stays as it is.\n\n— ${BRAND}\n`,
    html: layout(
      [
        `Hello ${escapeHtml(to.username)},`,
        `Someone asked to reset the password of your ${BRAND} account. To choose a new password, open this link within one hour.`,
        'If you did not ask for this, you can ignore this e-mail; your password stays as it is.',
      ],
      { href: link, label: 'Choose a new password' },
    ),
    links: [link],
  };
}

/** "Your account is ready: set your password", for accounts made by a researcher or an invitation. */
export function welcomeMessage(
  to: { email: string; username: string },
  link: string,
  validDays: number,
  invitedTo?: { portfolioName: string; inviter: string },
): MailMessage {
  const invitation = invitedTo
    ? ` ${invitedTo.inviter} has invited you to join the shared portfolio "${invitedTo.portfolioName}". After you log in, accept the invitation on your dashboard.`
    : '';
  const invitationHtml = invitedTo
    ? ` ${escapeHtml(invitedTo.inviter)} has invited you to join the shared portfolio &ldquo;${escapeHtml(invitedTo.portfolioName)}&rdquo;. After you log in, accept the invitation on your dashboard.`
    : '';
  return {
    to: to.email,
    subject: invitedTo ? `You are invited to ${BRAND}` : `Your ${BRAND} account`,
    text: `Hello ${to.username},\n\nAn account on ${BRAND} has been created for you with the user name "${to.username}".${invitation}\n\nTo start, choose your password with this link (valid for ${validDays} days, usable once):\n\n${link}\n\n— ${BRAND}\n`,
    html: layout(
      [
        `Hello ${escapeHtml(to.username)},`,
        `An account on ${BRAND} has been created for you with the user name &ldquo;${escapeHtml(to.username)}&rdquo;.${invitationHtml}`,
        `To start, choose your password with this link (valid for ${validDays} days, usable once).`,
      ],
      { href: link, label: 'Choose your password' },
    ),
    links: [link],
  };
}

/** An existing user is invited to a shared portfolio. */
export function invitationMessage(
  to: { email: string; username: string },
  portfolioName: string,
  inviter: string,
  link: string,
): MailMessage {
  return {
    to: to.email,
    subject: 'Invitation to join a shared portfolio',
    text: `Hello ${to.username},\n\n${inviter} has invited you to join the shared portfolio "${portfolioName}" on ${BRAND}. Log in and accept the invitation:\n\n${link}\n\n— ${BRAND}\n`,
    html: layout(
      [
        `Hello ${escapeHtml(to.username)},`,
        `${escapeHtml(inviter)} has invited you to join the shared portfolio &ldquo;${escapeHtml(portfolioName)}&rdquo; on ${BRAND}. Log in and accept the invitation.`,
      ],
      { href: link, label: 'See the invitation' },
    ),
    links: [link],
  };
}

/** A teacher's archive is ready: a link that downloads it (signed in) and the dashboard, where it is listed. */
export function archiveReadyMessage(
  to: { email: string; username: string },
  links: { download: string; dashboard: string },
  expiresAt: string,
): MailMessage {
  const until = new Date(expiresAt).toUTCString().replace(/:\d\d GMT$/, ' UTC');
  return {
    to: to.email,
    subject: `Your ${BRAND} archive is ready`,
    text: `Hello ${to.username},\n\nThe archive of your work you asked for is ready. Download it (while you are logged in to ${BRAND}) with this link:\n\n${links.download}\n\nIt is also listed under "Download my archive" on your dashboard:\n\n${links.dashboard}\n\nThe archive can be downloaded until ${until}; after that it is deleted and you can ask for a new one.\n\n— ${BRAND}\n`,
    html: layout(
      [
        `Hello ${escapeHtml(to.username)},`,
        `The archive of your work you asked for is ready. Download it while you are logged in to ${BRAND}; it is also listed under &ldquo;Download my archive&rdquo; on <a href="${escapeHtml(links.dashboard)}">your dashboard</a>.`,
        `The archive can be downloaded until ${escapeHtml(until)}; after that it is deleted and you can ask for a new one.`,
      ],
      { href: links.download, label: 'Download my archive' },
    ),
    links: [links.download, links.dashboard],
  };
}

/** A scheduled backup failed: to each researcher (they manage the accounts and the installation). */
export function backupFailedMessage(
  to: { email: string; username: string },
  failure: { at: Date; error: string; lastGood: { at: Date; file: string } | null },
): MailMessage {
  const when = (d: Date) => d.toUTCString().replace(/:\d\d GMT$/, ' UTC');
  const last = failure.lastGood
    ? `The last backup that was written is ${failure.lastGood.file}, of ${when(failure.lastGood.at)}.`
    : 'No scheduled backup has been written yet.';
  const advice =
    'Check the free space and the permissions of the backup folder (BACKUP_DIR) and the server log; `npm run admin -- backups` lists the latest runs, and `npm run admin -- backup <file>` takes one by hand.';
  return {
    to: to.email,
    subject: `${BRAND}: the scheduled backup failed`,
    text: `Hello ${to.username},\n\nThe scheduled backup of ${when(failure.at)} failed: ${failure.error}\n\n${last}\n\n${advice}\n\n— ${BRAND}\n`,
    html: layout(
      [
        `Hello ${escapeHtml(to.username)},`,
        `The scheduled backup of ${escapeHtml(when(failure.at))} failed: ${escapeHtml(failure.error)}`,
        escapeHtml(last),
        escapeHtml(advice),
      ],
      null,
    ),
    links: [],
  };
}
