import styled from 'styled-components';
import { Link, useLocation } from 'wouter';
import { useCurrentUser } from '../../machines/session/useSession.ts';
import { paths } from '../paths.ts';
import { theme } from '../theme/theme.ts';

const Tabs = styled.nav`
  margin: 0 0 ${theme.space.lg};
  border-bottom: 1px solid ${theme.color.border};
  ul {
    display: flex;
    flex-wrap: wrap;
    gap: ${theme.space.xs};
    list-style: none;
    margin: 0;
    padding: 0;
  }
  a {
    display: inline-block;
    min-height: 44px;
    padding: 12px ${theme.space.md} 9px;
    color: ${theme.color.text};
    font-weight: ${theme.font.weight.medium};
    text-decoration: none;
    border-bottom: 3px solid transparent;
  }
  a:hover {
    border-bottom-color: ${theme.color.border};
  }
  a[aria-current='page'] {
    border-bottom-color: ${theme.color.primary};
    color: ${theme.color.primary};
  }
`;

const TABS = [
  { href: paths.insights, label: 'Charts' },
  { href: paths.coverage, label: 'Standards coverage' },
] as const;

/**
 * The researchers' two views of the installation's practice, side by side under INSIGHTS: the
 * charts and the standards coverage map. Others (the leads of shared portfolios) have the charts
 * only, and see no tabs: their coverage maps are on their shared portfolios' pages.
 */
export function InsightsNav() {
  const user = useCurrentUser();
  const [location] = useLocation();
  if (!user?.abilities.researchExport) return null;
  return (
    <Tabs aria-label="Insights">
      <ul>
        {TABS.map((tab) => (
          <li key={tab.href}>
            <Link href={tab.href} aria-current={location === tab.href ? 'page' : undefined}>
              {tab.label}
            </Link>
          </li>
        ))}
      </ul>
    </Tabs>
  );
}
