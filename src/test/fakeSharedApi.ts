/** The shared portfolio API in memory, as a signed-in person sees it, and the accounts of the test people. */
import { fromPromise } from 'xstate';
import { REACTIONS, type ReactionValue } from '../schemas/catalog.ts';
import type { Comment, Reaction, SharedArtifactDetail } from '../schemas/sharedArtifact.ts';
import {
  SharedArtifactBriefSchema,
  type SharedArtifact,
  type SharedPortfolio,
  type SharedPortfolioListItem,
  type SharedPortfolioSummary,
} from '../schemas/sharedPortfolio.ts';
import type { WholeArtifactData } from '../machines/artifactDetails/artifactDetailsMachine.ts';
import type { Me } from '../schemas/user.ts';
import { ApiError } from '../services/errors.ts';
import { asSeenBy, SHARED_ARTIFACT_ABILITIES, SHARED_PORTFOLIO_ABILITIES } from './abilityFixtures.ts';
import { makeAccount } from './portfolioHarness.tsx';
import { people } from './sharedFixtures.ts';
import { discussedRef, personRef } from './sharedArtifactFixtures.ts';

/** The accounts of `people` with their roles: Lee leads, Rita researches, the others teach. */
export const accounts = {
  lee: makeAccount(people.lee.id, people.lee.username, 'plcLead'),
  tess: makeAccount(people.tess.id, people.tess.username),
  theo: makeAccount(people.theo.id, people.theo.username),
  pat: makeAccount(people.pat.id, people.pat.username),
  rita: makeAccount(people.rita.id, people.rita.username, 'researcher'),
} satisfies Record<string, Me>;

/** A 404 as the API client throws it. */
export const notFound = (message = 'Not found.') =>
  new ApiError(404, 'not_found', message, JSON.stringify({ message }));

/** A 400 as the API client throws it. */
export const badRequest = (message: string) => new ApiError(400, 'bad_request', message, JSON.stringify({ message }));

/** What the fake API holds about one shared artifact besides the artifact itself. */
interface Discussion {
  comments: Comment[];
  reactions: Reaction[];
}

const NOW = '2026-04-01T12:00:00.000Z';

/**
 * The shared portfolio API as the signed-in `viewer` sees it, in memory. Counts, comment texts
 * and reaction flags of the artifacts always follow the comments and reactions held. Each call is
 * recorded in `calls`; `fail` makes the next call of a kind fail.
 */
export class FakeSharedApi {
  private nextId = 900;
  readonly calls: string[] = [];
  readonly failures = new Map<string, unknown>();
  private portfolios: SharedPortfolio[];
  private discussions = new Map<number, Discussion>();

  constructor(
    portfolios: readonly SharedPortfolio[],
    discussions: Record<number, Partial<Discussion>> = {},
    public viewer: Me = accounts.tess,
  ) {
    this.portfolios = portfolios.map((p) => ({ ...p, sharedArtifacts: [...p.sharedArtifacts] }));
    for (const p of this.portfolios)
      for (const a of p.sharedArtifacts)
        this.discussions.set(a.id, { comments: [], reactions: [], ...discussions[a.id] });
  }

  /** Makes the next call of `kind` (e.g. 'addComment') fail with `error`. */
  fail(kind: string, error: unknown): void {
    this.failures.set(kind, error);
  }

  private record(kind: string, detail: string): void {
    this.calls.push(detail ? `${kind} ${detail}` : kind);
    const failure = this.failures.get(kind);
    if (failure !== undefined) {
      this.failures.delete(kind);
      throw failure;
    }
  }

  private discussion(artifactId: number): Discussion {
    const found = this.discussions.get(artifactId);
    if (!found) throw notFound('Shared artifact not found.');
    return found;
  }

  /** The artifact as its portfolio lists it now. */
  private present(artifact: SharedArtifact): SharedArtifact {
    const { comments, reactions } = this.discussion(artifact.id);
    return {
      ...artifact,
      commentCount: comments.length,
      commentTexts: comments.map((c) => c.text),
      reactions: Object.fromEntries(REACTIONS.map((r) => [r.value, reactions.some((x) => x.value === r.value)])),
    };
  }

  /** The viewer's abilities on a shared portfolio, as the server's policies answer them. */
  private abilitiesOn(p: SharedPortfolio) {
    if (p.owner.id === this.viewer.id)
      return { portfolio: SHARED_PORTFOLIO_ABILITIES.owner, artifact: SHARED_ARTIFACT_ABILITIES.worker };
    if (this.viewer.abilities.readAllSharedPortfolios)
      return { portfolio: SHARED_PORTFOLIO_ABILITIES.researcher, artifact: SHARED_ARTIFACT_ABILITIES.worker };
    if (p.members.some((m) => m.id === this.viewer.id)) {
      const leave = !this.viewer.abilities.createSharedPortfolio; // teachers, not PLC leads
      return { portfolio: { ...SHARED_PORTFOLIO_ABILITIES.member, leave }, artifact: SHARED_ARTIFACT_ABILITIES.worker };
    }
    return { portfolio: SHARED_PORTFOLIO_ABILITIES.invitee, artifact: SHARED_ARTIFACT_ABILITIES.reader };
  }

  /** A shared portfolio as `GET /shared-portfolios/{id}` returns it now. */
  portfolio(id: number): SharedPortfolio {
    const found = this.portfolios.find((p) => p.id === id);
    if (!found) throw notFound('Shared portfolio not found.');
    const abilities = this.abilitiesOn(found);
    return {
      ...found,
      abilities: abilities.portfolio,
      sharedArtifacts: found.sharedArtifacts.map((a) => ({ ...this.present(a), abilities: abilities.artifact })),
    };
  }

  /** A shared artifact as `GET /shared-artifacts/{id}` returns it now. */
  detail(artifactId: number): SharedArtifactDetail {
    const artifact = this.portfolios.flatMap((p) => p.sharedArtifacts).find((a) => a.id === artifactId);
    if (!artifact) throw notFound('Shared artifact not found.');
    const { reactions: _flags, ...rest } = this.present(artifact);
    const { comments, reactions } = this.discussion(artifactId);
    const portfolio = this.portfolios.find((p) => p.sharedArtifacts.some((a) => a.id === artifactId))!;
    const abilities = this.abilitiesOn(portfolio).artifact;
    return { ...rest, abilities, comments: this.seen(artifactId, comments), reactions: [...reactions], version: 1 };
  }

  /** Comments as the server answers them to the viewer: each with what the viewer may do with it. */
  private seen(artifactId: number, comments: readonly Comment[]): Comment[] {
    const portfolio = this.portfolios.find((p) => p.sharedArtifacts.some((a) => a.id === artifactId));
    const works = portfolio !== undefined && this.abilitiesOn(portfolio).artifact.comment;
    return comments.map((c) => asSeenBy(c, this.viewer.id, works));
  }

  /** The comments held for an artifact. */
  comments(artifactId: number): readonly Comment[] {
    return this.discussion(artifactId).comments;
  }

  /** The reactions held for an artifact. */
  reactions(artifactId: number): readonly Reaction[] {
    return this.discussion(artifactId).reactions;
  }

  /** The comments of every artifact of the artifact's shared portfolio, as the server counts them. */
  private portfolioCommentCount(artifactId: number): number {
    const portfolio = this.portfolios.find((p) => p.sharedArtifacts.some((a) => a.id === artifactId));
    return (portfolio?.sharedArtifacts ?? []).reduce((n, a) => n + this.discussion(a.id).comments.length, 0);
  }

  private answer(comment: Comment, artifactId: number) {
    return {
      ...this.seen(artifactId, [comment])[0]!,
      sharedArtifactComments: this.seen(artifactId, this.discussion(artifactId).comments),
      sharedPortfolioCommentCount: this.portfolioCommentCount(artifactId),
    };
  }

  /** Fake service actors, each answering at once from the data held. */
  actors() {
    const browser = {
      listPortfolios: fromPromise<SharedPortfolioListItem[], { owner: number | null }>(async () => {
        this.record('listPortfolios', '');
        return this.portfolios.map((p) => {
          const full = this.portfolio(p.id);
          return {
            ...full,
            sharedArtifacts: full.sharedArtifacts.map(({ id, owner, created_at, updated_at }) => ({
              id,
              owner: { id: owner.id },
              created_at,
              updated_at,
            })),
          };
        });
      }),
      // As `GET /shared-portfolios/{id}/summary` answers: the artifacts in brief.
      getPortfolio: fromPromise<SharedPortfolioSummary, { portfolioId: number }>(async ({ input }) => {
        this.record('getPortfolio', String(input.portfolioId));
        const full = this.portfolio(input.portfolioId);
        return { ...full, sharedArtifacts: full.sharedArtifacts.map((a) => SharedArtifactBriefSchema.parse(a)) };
      }),
    };
    // A shared artifact of the table read whole (a side of the comparison).
    const details = {
      fetchArtifact: fromPromise<WholeArtifactData, { artifactId: number }>(async ({ input }) => {
        this.record('getSharedArtifact', String(input.artifactId));
        return this.detail(input.artifactId);
      }),
    };
    const getSharedArtifact = fromPromise<SharedArtifactDetail, { artifactId: number }>(async ({ input }) => {
      this.record('getSharedArtifact', String(input.artifactId));
      return this.detail(input.artifactId);
    });
    const discussion = { getSharedArtifact };
    const comment = {
      addComment: fromPromise(async ({ input }: { input: { artifactId: number; text: string } }) => {
        this.record('addComment', `${input.artifactId} ${input.text}`);
        this.nextId += 1;
        const c: Comment = {
          id: this.nextId,
          text: input.text,
          owner: personRef(this.viewer.id),
          username: this.viewer.username,
          sharedArtifact: discussedRef(input.artifactId),
          created_at: NOW,
          updated_at: NOW,
          updated_by: this.viewer.id,
          moment: null,
        };
        this.discussion(input.artifactId).comments.push(c);
        return this.answer(c, input.artifactId);
      }),
      editComment: fromPromise(async ({ input }: { input: { commentId: number; text: string } }) => {
        this.record('editComment', `${input.commentId} ${input.text}`);
        for (const d of this.discussions.values()) {
          const i = d.comments.findIndex((c) => c.id === input.commentId);
          if (i >= 0) {
            d.comments[i] = { ...d.comments[i]!, text: input.text, updated_at: NOW };
            return this.answer(d.comments[i]!, d.comments[i]!.sharedArtifact.id);
          }
        }
        throw notFound('Comment not found.');
      }),
      deleteComment: fromPromise(async ({ input }: { input: { commentId: number } }) => {
        this.record('deleteComment', String(input.commentId));
        for (const d of this.discussions.values()) {
          const found = d.comments.find((c) => c.id === input.commentId);
          if (found) {
            d.comments = d.comments.filter((c) => c.id !== input.commentId);
            return this.answer(found, found.sharedArtifact.id);
          }
        }
        throw notFound('Comment not found.');
      }),
    };
    const reactions = {
      addReaction: fromPromise<Reaction, { artifactId: number; value: ReactionValue }>(async ({ input }) => {
        this.record('addReaction', `${input.artifactId} ${input.value}`);
        const d = this.discussion(input.artifactId);
        const existing = d.reactions.find((r) => r.owner.id === this.viewer.id && r.value === input.value);
        if (existing) return existing;
        this.nextId += 1;
        const r: Reaction = {
          id: this.nextId,
          value: input.value,
          owner: personRef(this.viewer.id),
          sharedArtifact: discussedRef(input.artifactId),
          created_by: this.viewer.id,
          updated_by: this.viewer.id,
          created_at: NOW,
          updated_at: NOW,
          moment: null,
        };
        d.reactions.push(r);
        return r;
      }),
      removeReaction: fromPromise<Reaction, { reactionId: number }>(async ({ input }) => {
        this.record('removeReaction', String(input.reactionId));
        for (const d of this.discussions.values()) {
          const found = d.reactions.find((r) => r.id === input.reactionId);
          if (found) {
            d.reactions = d.reactions.filter((r) => r.id !== input.reactionId);
            return found;
          }
        }
        throw notFound('Reaction not found.');
      }),
    };
    const deletion = {
      deleteSharedArtifact: fromPromise<SharedArtifact, { artifactId: number }>(async ({ input }) => {
        this.record('deleteSharedArtifact', String(input.artifactId));
        const d = this.discussion(input.artifactId);
        if (d.comments.length > 0 || d.reactions.length > 0)
          throw badRequest('You cannot delete a shared artifact with comments or reactions.');
        const portfolio = this.portfolios.find((p) => p.sharedArtifacts.some((a) => a.id === input.artifactId))!;
        const artifact = portfolio.sharedArtifacts.find((a) => a.id === input.artifactId)!;
        portfolio.sharedArtifacts = portfolio.sharedArtifacts.filter((a) => a.id !== input.artifactId);
        return artifact;
      }),
    };
    const leave = {
      leaveSharedPortfolio: fromPromise<SharedPortfolio, { sharedPortfolioId: number }>(async ({ input }) => {
        this.record('leaveSharedPortfolio', String(input.sharedPortfolioId));
        const left = this.portfolio(input.sharedPortfolioId);
        this.portfolios = this.portfolios.filter((p) => p.id !== input.sharedPortfolioId);
        return left;
      }),
    };
    return { browser, details, discussion, comment, reactions, deletion, leave };
  }
}
