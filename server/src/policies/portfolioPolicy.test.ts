import { describe, expect, it } from 'vitest';
import type { User } from '#schemas/user';
import { allow, deny } from './decision.ts';
import {
  canCreatePortfolio,
  canReadArtifact,
  canReadPortfolio,
  canWriteArtifact,
  canWritePortfolio,
  PORTFOLIO_MESSAGES,
} from './portfolioPolicy.ts';
import { canManageUsers, canOwnPortfolios, canSetBlocked, isResearcher } from './userPolicy.ts';

const actor = (id: number, type: User['role']['type']): Pick<User, 'id' | 'role'> => ({
  id,
  role: { id: type === 'researcher' ? 4 : type === 'plc_lead' ? 3 : 1, name: type, description: '', type },
});
const teacher = actor(10, 'authenticated');
const lead = actor(11, 'plc_lead');
const researcher = actor(12, 'researcher');

const own = { id: 5, ownerId: teacher.id };
const template = { id: 1, ownerId: null };

describe('portfolio policy', () => {
  it('lets the owner and researchers read a portfolio, everyone the template; others hear "not found"', () => {
    expect(canReadPortfolio(teacher, own)).toEqual(allow);
    expect(canReadPortfolio(researcher, own)).toEqual(allow);
    expect(canReadPortfolio(lead, own)).toEqual(deny(404, PORTFOLIO_MESSAGES.notFound));
    for (const who of [teacher, lead, researcher]) expect(canReadPortfolio(who, template)).toEqual(allow);
  });

  it('lets only the owner change a portfolio; researchers are told no; nobody changes the template', () => {
    expect(canWritePortfolio(teacher, own)).toEqual(allow);
    expect(canWritePortfolio(researcher, own)).toEqual(deny(403, PORTFOLIO_MESSAGES.researcherReadOnly));
    expect(canWritePortfolio(lead, own)).toEqual(deny(404, PORTFOLIO_MESSAGES.notFound));
    for (const who of [teacher, lead, researcher])
      expect(canWritePortfolio(who, template)).toEqual(deny(403, PORTFOLIO_MESSAGES.template));
    // A template given an owner by mistake stays closed.
    expect(canWritePortfolio(teacher, { id: 1, ownerId: teacher.id })).toEqual(deny(403, PORTFOLIO_MESSAGES.template));
  });

  it('lets teachers and PLC leads create portfolios, not researchers', () => {
    expect(canCreatePortfolio(teacher)).toEqual(allow);
    expect(canCreatePortfolio(lead)).toEqual(allow);
    expect(canCreatePortfolio(researcher)).toEqual(deny(403, PORTFOLIO_MESSAGES.researcherCreate));
  });

  it('treats artifacts like their portfolio, and an artifact without an owner as nobody’s', () => {
    const artifact = { ownerId: teacher.id };
    expect(canReadArtifact(teacher, artifact)).toEqual(allow);
    expect(canReadArtifact(researcher, artifact)).toEqual(allow);
    expect(canReadArtifact(lead, artifact)).toEqual(deny(404, PORTFOLIO_MESSAGES.artifactNotFound));
    expect(canWriteArtifact(teacher, artifact)).toEqual(allow);
    expect(canWriteArtifact(researcher, artifact)).toEqual(deny(403, PORTFOLIO_MESSAGES.researcherReadOnly));
    expect(canWriteArtifact(lead, artifact)).toEqual(deny(404, PORTFOLIO_MESSAGES.artifactNotFound));
    expect(canWriteArtifact(teacher, { ownerId: null })).toEqual(deny(404, PORTFOLIO_MESSAGES.artifactNotFound));
  });
});

describe('user policy', () => {
  it('knows researchers, who manage accounts but not their own blocking and keep no portfolios', () => {
    expect([teacher, lead, researcher].map(isResearcher)).toEqual([false, false, true]);
    expect([teacher, lead, researcher].map(canManageUsers)).toEqual([false, false, true]);
    expect([teacher, lead, researcher].map(canOwnPortfolios)).toEqual([true, true, false]);
    expect(canSetBlocked(researcher, teacher.id)).toBe(true);
    expect(canSetBlocked(researcher, researcher.id)).toBe(false);
    expect(canSetBlocked(lead, teacher.id)).toBe(false);
  });
});
