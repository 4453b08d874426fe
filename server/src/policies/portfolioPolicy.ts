import { TEMPLATE_PORTFOLIO_ID } from '#schemas/catalog';
import type { User } from '#schemas/user';
import { allow, deny, type Decision } from './decision.ts';
import { isResearcher } from './userPolicy.ts';

export const PORTFOLIO_MESSAGES = {
  notFound: 'Portfolio not found.',
  template: 'The portfolio template cannot be changed.',
  researcherReadOnly: 'Researchers can read teacher portfolios but not change them.',
  researcherCreate: 'Researchers do not keep personal portfolios.',
  artifactNotFound: 'Artifact not found.',
} as const;

type Actor = Pick<User, 'id' | 'role'>;
type PortfolioFacts = { id: number; ownerId: number | null };

/** Who may read a personal portfolio: its owner and researchers; the template: everyone signed in. */
export function canReadPortfolio(actor: Actor, p: PortfolioFacts): Decision {
  if (p.id === TEMPLATE_PORTFOLIO_ID) return allow;
  if (p.ownerId === actor.id || isResearcher(actor)) return allow;
  return deny(404, PORTFOLIO_MESSAGES.notFound);
}

/** Who may change or delete a portfolio, or add artifacts to it: its owner only; the template: nobody. */
export function canWritePortfolio(actor: Actor, p: PortfolioFacts): Decision {
  if (p.id === TEMPLATE_PORTFOLIO_ID) return deny(403, PORTFOLIO_MESSAGES.template);
  if (p.ownerId === actor.id) return allow;
  if (isResearcher(actor)) return deny(403, PORTFOLIO_MESSAGES.researcherReadOnly);
  return deny(404, PORTFOLIO_MESSAGES.notFound);
}

/** Who may create personal portfolios: teachers and PLC leads. */
export function canCreatePortfolio(actor: Actor): Decision {
  return isResearcher(actor) ? deny(403, PORTFOLIO_MESSAGES.researcherCreate) : allow;
}

/** Who may read a personal artifact: the owner of its portfolio and researchers. */
export function canReadArtifact(actor: Actor, a: { ownerId: number | null }): Decision {
  if (a.ownerId === actor.id || isResearcher(actor)) return allow;
  return deny(404, PORTFOLIO_MESSAGES.artifactNotFound);
}

/** Who may change, delete, upload to or copy a personal artifact: the owner of its portfolio. */
export function canWriteArtifact(actor: Actor, a: { ownerId: number | null }): Decision {
  if (a.ownerId !== null && a.ownerId === actor.id) return allow;
  if (isResearcher(actor)) return deny(403, PORTFOLIO_MESSAGES.researcherReadOnly);
  return deny(404, PORTFOLIO_MESSAGES.artifactNotFound);
}
