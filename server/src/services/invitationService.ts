import { isEmail } from '#schemas/common';
import type { Invitation } from '#schemas/invitation';
import type { SharedPortfolio } from '#schemas/sharedPortfolio';
import type { User } from '#schemas/user';
import type { Queryable } from '../db/client.ts';
import { badGateway, badRequest, notFound } from '../errors.ts';
import { invitationMessage, welcomeMessage } from '../mail/messages.ts';
import { canManageShared, isMember, SHARED_MESSAGES } from '../policies/sharedPolicy.ts';
import { isResearcher } from '../policies/userPolicy.ts';
import { invitationRepository, type InvitationRecord } from '../repositories/invitationRepository.ts';
import { notificationRepository } from '../repositories/notificationRepository.ts';
import { sharedPortfolioRepository } from '../repositories/sharedPortfolioRepository.ts';
import { maskEmail } from '../security/maskEmail.ts';
import { userRepository } from '../repositories/userRepository.ts';
import type { ServiceContext } from './context.ts';
import { assertAllowed } from './decide.ts';
import type { SharedPortfolioService } from './sharedPortfolioService.ts';
import { createAccount, WELCOME_CODE_TTL_DAYS } from './userService.ts';

export const INVITATION_MESSAGES = {
  invalidEmail: 'Please enter a valid email address to invite a new user.',
  userNotFound: 'User not found.',
  /** `who`: the e-mail address the inviter typed, or the person's name when they were picked. */
  alreadyMember: (who: string) => `${who} is already a member of this shared portfolio.`,
  alreadyInvited: (who: string) => `${who} has already been invited to this shared portfolio.`,
  mailFailed: 'The invitation e-mail could not be sent, so nobody was invited. Please try again.',
} as const;

/** A username for an invited person: the e-mail's local part, made unique. */
async function freeUsername(tx: Queryable, email: string): Promise<string> {
  const base = (email.split('@')[0] ?? 'teacher').slice(0, 90) || 'teacher';
  for (let n = 1; n < 1000; n += 1) {
    const name = n === 1 ? base : `${base}${n}`;
    if (!(await userRepository.findByUsername(tx, name))) return name;
  }
  return `${base}-${Date.now()}`;
}

/** Invitations to shared portfolios: send, read, accept, decline or cancel. */
export function createInvitationService(ctx: ServiceContext, shared: SharedPortfolioService) {
  const { db } = ctx;

  /**
   * Invitations as `actor` may see them: the invitee's address in full for the invitee, a
   * researcher and an inviter who typed it; masked for an inviter who picked the person by id,
   * as the search they picked from showed it.
   */
  async function present(actor: User, records: InvitationRecord[]): Promise<Invitation[]> {
    if (records.length === 0) return [];
    const shown = (r: InvitationRecord) =>
      r.byEmail || r.to.id === actor.id || isResearcher(actor) ? r.to : { ...r.to, email: maskEmail(r.to.email) };
    const portfolios = await sharedPortfolioRepository.list(db, {
      memberId: null,
      ids: records.map((r) => r.sharedPortfolioId),
    });
    const byId = new Map(portfolios.map((p) => [p.id, p]));
    return records
      .filter((r) => byId.has(r.sharedPortfolioId))
      .map((r) => ({
        id: r.id,
        to: shown(r),
        from: r.from,
        sharedPortfolio: byId.get(r.sharedPortfolioId)!,
        created_at: r.createdAt,
      }));
  }

  async function load(actor: User, id: number): Promise<InvitationRecord> {
    const invitation = await invitationRepository.findById(db, id);
    if (!invitation) throw notFound(SHARED_MESSAGES.invitationNotFound);
    const sp = await sharedPortfolioRepository.findById(db, invitation.sharedPortfolioId);
    const allowed = invitation.to.id === actor.id || sp?.ownerId === actor.id || isResearcher(actor);
    if (!allowed) throw notFound(SHARED_MESSAGES.invitationNotFound);
    return invitation;
  }

  return {
    /** Invitations addressed to the caller. */
    async list(actor: User): Promise<Invitation[]> {
      return present(actor, await invitationRepository.listFor(db, actor.id));
    },

    /** One invitation: for its invitee, the owner of the shared portfolio, researchers. */
    async get(actor: User, id: number): Promise<Invitation> {
      const [invitation] = await present(actor, [await load(actor, id)]);
      return invitation!;
    },

    /**
     * Invites an existing user (`to`) or anyone by e-mail; a new person gets an account without a
     * usable password and a set-password link. One pending invitation per person; members cannot
     * be invited. Nothing is kept when the e-mail cannot be sent.
     */
    async create(
      actor: User,
      body: { to?: number | undefined; email?: string | undefined; sharedPortfolio: number },
    ): Promise<Invitation> {
      const sp = await sharedPortfolioRepository.findById(db, body.sharedPortfolio);
      if (!sp) throw notFound(SHARED_MESSAGES.invalidPortfolio);
      // Someone who may not know the shared portfolio hears what a wrong id would tell them.
      assertAllowed(canManageShared(actor, sp, SHARED_MESSAGES.invalidPortfolio));
      const id = await db.transaction(async (tx) => {
        let invitee: User;
        let link: string;
        let isNew = false;
        if (body.to !== undefined) {
          const found = await userRepository.findById(tx, body.to);
          if (!found) throw badRequest(INVITATION_MESSAGES.userNotFound);
          invitee = found.user;
        } else {
          const email = (body.email ?? '').trim().toLowerCase();
          const found = await userRepository.findByEmail(tx, email);
          if (found) invitee = found.user;
          else {
            if (!isEmail(email)) throw badRequest(INVITATION_MESSAGES.invalidEmail, 'invalid_email');
            const created = await createAccount(ctx, tx, { email, username: await freeUsername(tx, email), roleId: 1 });
            invitee = created.user;
            link = created.link;
            isNew = true;
          }
        }
        // Named as the inviter named them: an address picked by id is not told.
        const byEmail = body.to === undefined;
        const who = byEmail ? invitee.email : invitee.username;
        if (isMember(invitee, sp)) throw badRequest(INVITATION_MESSAGES.alreadyMember(who), 'already_member');
        const invitationId = await invitationRepository.create(tx, {
          sharedPortfolioId: sp.id,
          fromUserId: actor.id,
          toUserId: invitee.id,
          byEmail,
        });
        if (invitationId === null) throw badRequest(INVITATION_MESSAGES.alreadyInvited(who), 'already_invited');
        await notificationRepository.recordInvitation(tx, invitationId);
        const message = isNew
          ? welcomeMessage(invitee, link!, WELCOME_CODE_TTL_DAYS, { portfolioName: sp.name, inviter: actor.username })
          : invitationMessage(invitee, sp.name, actor.username, `${ctx.config.publicUrl}/invitation/${invitationId}`);
        try {
          await ctx.mailer.send(message);
        } catch (error) {
          ctx.log.error({ err: error }, 'could not send the invitation e-mail');
          throw badGateway(INVITATION_MESSAGES.mailFailed);
        }
        return invitationId;
      });
      const [invitation] = await present(actor, [(await invitationRepository.findById(db, id))!]);
      return invitation!;
    },

    /** The invitee joins; the invitation is used up. */
    async accept(actor: User, id: number): Promise<SharedPortfolio> {
      const invitation = await invitationRepository.findById(db, id);
      if (!invitation || invitation.to.id !== actor.id) throw notFound(SHARED_MESSAGES.invitationNotFound);
      await db.transaction(async (tx) => {
        await sharedPortfolioRepository.addMember(tx, invitation.sharedPortfolioId, actor.id);
        await notificationRepository.recordInvitationAccepted(tx, id);
        await invitationRepository.delete(tx, id);
      });
      return shared.detail(await shared.load(invitation.sharedPortfolioId), actor);
    },

    /** The invitee declines, or the owner (or a researcher) cancels. */
    async remove(actor: User, id: number): Promise<Invitation> {
      const [invitation] = await present(actor, [await load(actor, id)]);
      await invitationRepository.delete(db, id);
      return invitation!;
    },
  };
}

export type InvitationService = ReturnType<typeof createInvitationService>;
