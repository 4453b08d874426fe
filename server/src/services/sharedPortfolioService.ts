import type {
  MembersResponse,
  SharedPortfolio,
  SharedPortfolioBody,
  SharedPortfolioListItem,
  SharedPortfolioSummary,
} from '#schemas/sharedPortfolio';
import { TEMPLATE_PORTFOLIO_ID } from '#schemas/catalog';
import { MEMBER_SEARCH_MIN } from '#schemas/rules';
import type { User } from '#schemas/user';
import { badRequest, HttpError, notFound } from '../errors.ts';
import { abilitiesFor } from '../policies/abilities.ts';
import {
  canCreateShared,
  canManageShared,
  canReadShared,
  isMember,
  SHARED_MESSAGES,
} from '../policies/sharedPolicy.ts';
import { isResearcher } from '../policies/userPolicy.ts';
import { authEventRepository } from '../repositories/authEventRepository.ts';
import { notificationRepository } from '../repositories/notificationRepository.ts';
import { portfolioRepository } from '../repositories/portfolioRepository.ts';
import { sharedArtifactRepository } from '../repositories/sharedArtifactRepository.ts';
import {
  sharedPortfolioFields,
  sharedPortfolioRepository,
  type SharedPortfolioInput,
  type SharedPortfolioRecord,
} from '../repositories/sharedPortfolioRepository.ts';
import { userRepository } from '../repositories/userRepository.ts';
import type { ServiceContext } from './context.ts';
import { assertAllowed } from './decide.ts';
import { buildSharedStructure } from './sharedStructure.ts';

/** At most this many searches per person in the window (researchers manage accounts and are not counted). */
export const MEMBER_SEARCH_LIMIT = 60;
export const MEMBER_SEARCH_WINDOW_SECONDS = 600;

export const SHARED_PORTFOLIO_MESSAGES = {
  tooManySearches: 'Too many searches. Please wait a few minutes and try again.',
  notEmpty: 'A shared portfolio can be deleted only when it has no artifacts.',
  ownerMustAssign: 'You cannot leave this shared portfolio without assigning a new owner.',
  newOwnerMissing: (id: number) => `New owner with ID ${id} does not exist.`,
  newOwnerNotMember: (name: string) => `New owner ${name} is not a member of this shared portfolio.`,
  removeSelf: 'You cannot remove yourself. Please use the "leave" endpoint and assign a new owner.',
  removeOwner: 'The owner cannot be removed. The owner can leave by naming a new owner.',
  notAMember: 'This person is not a member of this shared portfolio.',
  templateMissing: 'Portfolio template not found.',
} as const;

const blank = (v: string | null | undefined) => (v === undefined || v === null || v.trim() === '' ? null : v.trim());

/** Shared portfolios: list, read, create, edit, delete, membership. */
export function createSharedPortfolioService(ctx: ServiceContext) {
  const { db } = ctx;

  async function load(id: number): Promise<SharedPortfolioRecord> {
    const sp = await sharedPortfolioRepository.findById(db, id);
    if (!sp) throw notFound(SHARED_MESSAGES.notFound);
    return sp;
  }

  /** The shared portfolio with its artifacts, and what `actor` may do with each. */
  async function detail(sp: SharedPortfolioRecord, actor: User): Promise<SharedPortfolio> {
    const [people, artifacts] = await Promise.all([
      sharedPortfolioRepository.peopleOf(db, [sp.id]),
      sharedArtifactRepository.load(db, { portfolioIds: [sp.id] }),
    ]);
    const artifactAbilities = abilitiesFor.sharedArtifact(actor, sp);
    return {
      ...sharedPortfolioFields(sp, people),
      sharedArtifacts: artifacts.map((a) => ({ ...a, abilities: artifactAbilities })),
      commentCount: artifacts.reduce((n, a) => n + a.commentCount, 0),
      abilities: abilitiesFor.sharedPortfolio(actor, sp),
    };
  }

  /** A listed shared portfolio with what `actor` may do with it. */
  function withAbilities(actor: User, item: SharedPortfolioListItem): SharedPortfolioListItem {
    const facts = { ownerId: item.owner.id, memberIds: item.members.map((m) => m.id) };
    return { ...item, abilities: abilitiesFor.sharedPortfolio(actor, facts) };
  }

  function input(body: SharedPortfolioBody, template: SharedPortfolioRecord['structure']): SharedPortfolioInput {
    return {
      name: body.name.trim(),
      grades: body.grades ?? [],
      subject: blank(body.subject),
      topic: blank(body.topic),
      plcName: blank(body.plcName),
      plcGoals: blank(body.plcGoals),
      structure: buildSharedStructure(body.structure, template),
    };
  }

  return {
    load,
    detail,

    /** The caller's shared portfolios (researchers: all), each with its comment count. */
    async list(actor: User): Promise<SharedPortfolioListItem[]> {
      const items = await sharedPortfolioRepository.list(db, { memberId: isResearcher(actor) ? null : actor.id });
      return items.map((item) => withAbilities(actor, item));
    },

    /** One shared portfolio with its artifacts. @throws 404 unless member, invitee or researcher. */
    async get(actor: User, id: number): Promise<SharedPortfolio> {
      const sp = await load(id);
      const invitee = !isMember(actor, sp) && (await sharedPortfolioRepository.isInvitee(db, id, actor.id));
      assertAllowed(canReadShared(actor, sp, invitee));
      return detail(sp, actor);
    },

    /**
     * One shared portfolio with its artifacts in brief (the web's pages), allowed exactly as `get`.
     * @throws 404 unless member, invitee or researcher.
     */
    async summary(actor: User, id: number): Promise<SharedPortfolioSummary> {
      const sp = await load(id);
      const invitee = !isMember(actor, sp) && (await sharedPortfolioRepository.isInvitee(db, id, actor.id));
      assertAllowed(canReadShared(actor, sp, invitee));
      const [people, artifacts] = await Promise.all([
        sharedPortfolioRepository.peopleOf(db, [sp.id]),
        sharedArtifactRepository.briefs(db, sp.id),
      ]);
      const artifactAbilities = abilitiesFor.sharedArtifact(actor, sp);
      return {
        ...sharedPortfolioFields(sp, people),
        sharedArtifacts: artifacts.map((a) => ({ ...a, abilities: artifactAbilities })),
        commentCount: artifacts.reduce((n, a) => n + a.commentCount, 0),
        abilities: abilitiesFor.sharedPortfolio(actor, sp),
      };
    },

    /** Creates a shared portfolio owned by the caller, who is its first member. @throws 403 for teachers. */
    async create(actor: User, body: SharedPortfolioBody): Promise<SharedPortfolio> {
      assertAllowed(canCreateShared(actor));
      const template = await portfolioRepository.findById(db, TEMPLATE_PORTFOLIO_ID);
      if (!template) throw notFound(SHARED_PORTFOLIO_MESSAGES.templateMissing);
      const id = await db.transaction((tx) =>
        sharedPortfolioRepository.create(tx, actor.id, input(body, template.structure), template.structure),
      );
      return detail(await load(id), actor);
    },

    /** Changes a shared portfolio (its artifacts keep their questions). @throws 404/403 per policy. */
    async update(actor: User, id: number, body: SharedPortfolioBody): Promise<SharedPortfolio> {
      const sp = await load(id);
      assertAllowed(canManageShared(actor, sp));
      if (body.id !== undefined && body.id !== id) throw badRequest('The id in the body does not match the address.');
      await sharedPortfolioRepository.update(db, id, input(body, sp.templateStructure));
      return detail(await load(id), actor);
    },

    /** Deletes an empty shared portfolio (pending invitations go with it). */
    async remove(actor: User, id: number): Promise<SharedPortfolioListItem> {
      const sp = await load(id);
      assertAllowed(canManageShared(actor, sp));
      const [listed] = await sharedPortfolioRepository.list(db, { memberId: null, ids: [id] });
      if (!(await sharedPortfolioRepository.deleteIfEmpty(db, id)))
        throw badRequest(SHARED_PORTFOLIO_MESSAGES.notEmpty, 'shared_portfolio_not_empty');
      return listed!;
    },

    /** Members, pending invitees and — for a search text — people who could be invited. */
    async members(actor: User, id: number, search: string | undefined): Promise<MembersResponse> {
      const sp = await load(id);
      assertAllowed(canManageShared(actor, sp));
      const text = search?.trim().toLowerCase() ?? '';
      const searching = [...text].length >= MEMBER_SEARCH_MIN;
      if (searching && !isResearcher(actor)) {
        // Searches are people's addresses: a few dozen at a time, never the directory page by page.
        const attempt = await db.transaction((tx) =>
          authEventRepository.attempt(
            tx,
            'member_search',
            String(actor.id),
            MEMBER_SEARCH_LIMIT,
            MEMBER_SEARCH_WINDOW_SECONDS,
          ),
        );
        if (!attempt.allowed) throw new HttpError(429, 'too_many_requests', SHARED_PORTFOLIO_MESSAGES.tooManySearches);
      }
      return sharedPortfolioRepository.membership(db, id, sp.ownerId, searching ? text : null);
    },

    /**
     * The caller leaves. The owner must name a member as the new owner.
     * @throws 404 for non-members; 400 for an owner without a valid new owner.
     */
    async leave(actor: User, id: number, newOwnerId: number | undefined): Promise<SharedPortfolio> {
      const sp = await load(id);
      if (!isMember(actor, sp)) throw notFound(SHARED_MESSAGES.notFound);
      await db.transaction(async (tx) => {
        if (sp.ownerId === actor.id) {
          if (newOwnerId === undefined) throw badRequest(SHARED_PORTFOLIO_MESSAGES.ownerMustAssign);
          const next = await userRepository.findById(tx, newOwnerId);
          if (!next) throw badRequest(SHARED_PORTFOLIO_MESSAGES.newOwnerMissing(newOwnerId));
          if (!sp.memberIds.includes(newOwnerId) || newOwnerId === actor.id) {
            throw badRequest(SHARED_PORTFOLIO_MESSAGES.newOwnerNotMember(next.user.username));
          }
          await sharedPortfolioRepository.setOwner(tx, id, newOwnerId);
        }
        await sharedPortfolioRepository.removeMember(tx, id, actor.id);
      });
      return detail(await load(id), actor);
    },

    /** The owner (or a researcher) removes a member. */
    async removeUser(actor: User, id: number, userId: number): Promise<SharedPortfolio> {
      const sp = await load(id);
      assertAllowed(canManageShared(actor, sp));
      if (userId === actor.id && sp.ownerId === actor.id) throw badRequest(SHARED_PORTFOLIO_MESSAGES.removeSelf);
      if (userId === sp.ownerId) throw badRequest(SHARED_PORTFOLIO_MESSAGES.removeOwner);
      await db.transaction(async (tx) => {
        if (!(await sharedPortfolioRepository.removeMember(tx, id, userId)))
          throw badRequest(SHARED_PORTFOLIO_MESSAGES.notAMember);
        await notificationRepository.recordRemoved(tx, id, userId, actor.id);
      });
      return detail(await load(id), actor);
    },
  };
}

export type SharedPortfolioService = ReturnType<typeof createSharedPortfolioService>;
