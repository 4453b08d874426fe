import { INSIGHTS_MESSAGES } from '#schemas/insights';
import type { User } from '#schemas/user';
import { allow, deny, type Decision } from './decision.ts';
import { canManageShared, type SharedFacts } from './sharedPolicy.ts';
import { isPlcLead, isResearcher } from './userPolicy.ts';

type Actor = Pick<User, 'id' | 'role'>;

/**
 * The charts (decision 057) without a portfolio named: researchers (the installation), PLC leads
 * and whoever owns a shared portfolio (her portfolios); other teachers are told no.
 */
export function canSeeInsights(actor: Actor, ownsShared: boolean): Decision {
  return isResearcher(actor) || isPlcLead(actor) || ownsShared ? allow : deny(403, INSIGHTS_MESSAGES.notAllowed);
}

/** The charts of one shared portfolio: as managing it (members are told no; others do not learn it exists). */
export const canSeePortfolioInsights = (actor: Actor, sp: SharedFacts): Decision => canManageShared(actor, sp);

/** Whether the navigation offers the charts: researchers and PLC leads (the server still decides). */
export const offersInsights = (actor: Actor): boolean => isResearcher(actor) || isPlcLead(actor);
