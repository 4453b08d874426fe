import type { ReactNode } from 'react';
import styled from 'styled-components';
import { useOwnsPortfolios } from '../../machines/dashboard/useDashboard.ts';
import { useCurrentUser } from '../../machines/session/useSession.ts';
import { PageHeading } from '../components/PageHeading.tsx';
import { InvitationsSection } from '../dashboard/InvitationsSection.tsx';
import { MyPortfoliosSection } from '../dashboard/MyPortfoliosSection.tsx';
import { PortfolioSummarySection } from '../dashboard/PortfolioSummarySection.tsx';
import { SharedPortfoliosSection } from '../dashboard/SharedPortfoliosSection.tsx';
import { theme } from '../theme/theme.ts';
import { lazyPart } from '../components/lazyParts.tsx';

// The coverage map loads when its section first shows (decision 056).
const CoverageSection = lazyPart(() => import('../coverage/CoverageSection.tsx'), 'CoverageSection', null);

const Greeting = styled.p`
  font-size: ${theme.font.size.lg};
  margin: 0 0 ${theme.space.lg};
`;

/**
 * 'PORTFOLIO DASHBOARD' (spec §2): a user with personal portfolios sees My Portfolios with its
 * inline add row, one without (researchers) the Teacher Portfolio Summary; then Shared Portfolios and Invitations when there are any.
 */
export function DashboardPage({
  archive,
}: {
  /** Teachers' "Download my archive" section, shown last (the app supplies it with its actor). */ archive?: ReactNode;
} = {}) {
  const user = useCurrentUser();
  const ownsPortfolios = useOwnsPortfolios();
  return (
    <>
      <PageHeading title="PORTFOLIO DASHBOARD" />
      {user ? <Greeting>Welcome, {user.username}</Greeting> : null}
      {ownsPortfolios ? <MyPortfoliosSection /> : <PortfolioSummarySection />}
      <SharedPortfoliosSection />
      <InvitationsSection />
      {ownsPortfolios && user ? <CoverageSection place="dashboard" id={user.id} /> : null}
      {ownsPortfolios ? archive : null}
    </>
  );
}
