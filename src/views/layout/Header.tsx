import { Link, useLocation } from 'wouter';
import styled from 'styled-components';
import { useCurrentUser, useSessionEvents } from '../../machines/session/useSession.ts';
import { useAppConfig } from '../appConfig.ts';
import { paths } from '../paths.ts';
import { UserMenu } from './UserMenu.tsx';

const Bar = styled.header`
  background: ${({ theme }) => theme.color.headerBackground};
  color: ${({ theme }) => theme.color.headerText};
`;

const Inner = styled.div`
  max-width: ${({ theme }) => theme.layout.maxWidth};
  margin: 0 auto;
  min-height: ${({ theme }) => theme.layout.headerHeight};
  padding: ${({ theme }) => theme.space.xs} ${({ theme }) => theme.space.md};
  display: flex;
  align-items: center;
  gap: ${({ theme }) => theme.space.xs} ${({ theme }) => theme.space.lg};
  flex-wrap: wrap;
`;

const Brand = styled(Link)`
  display: inline-flex;
  align-items: center;
  gap: ${({ theme }) => theme.space.sm};
  color: ${({ theme }) => theme.color.headerText};
  font-size: ${({ theme }) => theme.font.size.lg};
  font-weight: ${({ theme }) => theme.font.weight.bold};
  text-decoration: none;
  &:hover { color: ${({ theme }) => theme.color.headerText}; }
`;

const Nav = styled.nav<{ $wide: boolean }>`
  flex: 1;
  ul { display: flex; gap: ${({ theme }) => theme.space.xs}; list-style: none; margin: 0; padding: 0; flex-wrap: wrap; }
  /* On tablets the signed-in navigation takes a row of its own instead of stacking its links. */
  @media (max-width: 1100px) {
    ${({ $wide }) => ($wide ? 'order: 3; flex-basis: 100%;' : '')}
  }
`;

const Account = styled.div`
  margin-left: auto;
`;

const NavLink = styled(Link)<{ $active: boolean }>`
  display: inline-block;
  padding: 8px 12px;
  color: ${({ theme }) => theme.color.headerText};
  text-decoration: none;
  font-size: ${({ theme }) => theme.font.size.sm};
  font-weight: ${({ theme }) => theme.font.weight.medium};
  letter-spacing: 0.06em;
  border-bottom: 3px solid ${({ $active, theme }) => ($active ? theme.color.headerAccent : 'transparent')};
  &:hover { color: ${({ theme }) => theme.color.headerText}; border-bottom-color: rgba(255, 255, 255, 0.6); }
`;

/** The brand mark: an open folder with a leaf. */
export function BrandMark({ size = 28 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <rect x="2" y="7" width="28" height="20" rx="3" fill="#f0a500" />
      <path d="M2 10a3 3 0 0 1 3-3h7l3 3h12a3 3 0 0 1 3 3v1H2z" fill="#ffd27a" />
      <path d="M11 22c4-9 10-9 12-9-1 6-5 10-12 9z" fill="#2f7d5b" />
    </svg>
  );
}

/** The page header: brand, navigation for the visitor's role, and the user menu. */
export function Header() {
  const user = useCurrentUser();
  const { logout } = useSessionEvents();
  const config = useAppConfig();
  const [location] = useLocation();
  const isResearcher = user?.role.type === 'researcher';
  const items = user
    ? [
        { href: paths.dashboard, label: 'PORTFOLIO DASHBOARD' },
        isResearcher
          ? { href: paths.teacherPortfolios, label: 'TEACHER PORTFOLIOS' }
          : { href: paths.myPortfolios, label: 'MY PORTFOLIOS' },
        { href: paths.sharedPortfolios, label: 'SHARED PORTFOLIOS' },
      ]
    : [
        { href: paths.home, label: 'HOME' },
        { href: paths.about, label: 'ABOUT' },
        { href: paths.login, label: 'LOGIN' },
      ];
  return (
    <Bar>
      <Inner>
        <Brand href={user ? paths.dashboard : paths.home}>
          <BrandMark />
          PracticeFolio
        </Brand>
        <Nav aria-label="Main" $wide={user !== null}>
          <ul>
            {items.map((item) => {
              const active = location === item.href || location.startsWith(`${item.href}/`);
              return (
                <li key={item.href}>
                  <NavLink href={item.href} $active={active} aria-current={active ? 'page' : undefined}>
                    {item.label}
                  </NavLink>
                </li>
              );
            })}
          </ul>
        </Nav>
        {user ? (
          <Account>
            <UserMenu username={user.username} isResearcher={isResearcher} helpUrl={config.helpUrl} onLogout={logout} />
          </Account>
        ) : null}
      </Inner>
    </Bar>
  );
}
