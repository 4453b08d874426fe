import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { Link, useLocation } from 'wouter';
import styled from 'styled-components';
import { useCurrentUser, useSessionEvents } from '../../machines/session/useSession.ts';
import { useAppConfig } from '../appConfig.ts';
import { lazyPart } from '../components/lazyParts.tsx';
import { paths } from '../paths.ts';
import { theme } from '../theme/theme.ts';

const Bar = styled.header`
  position: relative;
  background: ${theme.color.headerBackground};
  color: ${theme.color.headerText};
`;

const Inner = styled.div`
  max-width: ${theme.layout.maxWidth};
  margin: 0 auto;
  min-height: ${theme.layout.headerHeight};
  padding: ${theme.space.xs} ${theme.space.md};
  display: flex;
  align-items: center;
  gap: ${theme.space.xs} ${theme.space.lg};
  flex-wrap: wrap;
  @media ${theme.media.phone} {
    min-height: 56px;
    gap: 0 ${theme.space.sm};
  }
`;

const Brand = styled(Link)`
  display: inline-flex;
  align-items: center;
  gap: ${theme.space.sm};
  color: ${theme.color.headerText};
  font-size: ${theme.font.size.lg};
  font-weight: ${theme.font.weight.bold};
  text-decoration: none;
  &:hover {
    color: ${theme.color.headerText};
  }
`;

const Nav = styled.nav<{ $wide: boolean; $links: number }>`
  flex: 1;
  display: flex;
  align-items: center;
  /*
   * Below this width the signed-in navigation takes a row of its own instead of stacking its links:
   * the researcher's four links need it up to a laptop's 1280 px.
   */
  @media (max-width: ${({ $links }) => ($links > 3 ? '1300px' : '1100px')}) {
    ${({ $wide }) => ($wide ? 'order: 3; flex-basis: 100%;' : '')}
  }
  @media ${theme.media.phone} {
    order: 0;
    flex-basis: auto;
    justify-content: flex-end;
  }
`;

const Links = styled.div<{ $open: boolean; $links: number }>`
  ul {
    display: flex;
    gap: ${theme.space.xs};
    list-style: none;
    margin: 0;
    padding: 0;
    flex-wrap: wrap;
  }
  /* Four or five links in one row on an upright iPad (768 px): a little smaller (five: tighter still). */
  @media (min-width: 768px) and (max-width: 1023px) {
    ${({ $links }) => ($links > 3 ? `ul a { padding: 8px 10px; font-size: ${theme.font.size.xs}; letter-spacing: 0.04em; }` : '')}
    ${({ $links }) => ($links > 4 ? 'ul a { padding: 8px 5px; letter-spacing: 0; }' : '')}
  }
  @media ${theme.media.phone} {
    /* The disclosed panel: a full-width list under the header bar. */
    display: ${({ $open }) => ($open ? 'block' : 'none')};
    position: absolute;
    left: 0;
    right: 0;
    top: 56px;
    z-index: 900;
    padding: ${theme.space.sm} ${theme.space.md} ${theme.space.md};
    background: ${theme.color.headerBackground};
    box-shadow: ${theme.shadow.popover};
    ul {
      flex-direction: column;
      gap: 0;
    }
  }
`;

const MenuButton = styled.button`
  display: none;
  align-items: center;
  gap: ${theme.space.sm};
  min-height: 44px;
  padding: 0 ${theme.space.md};
  border: 1px solid rgba(255, 255, 255, 0.6);
  border-radius: ${theme.radius.sm};
  background: none;
  color: ${theme.color.headerText};
  font-weight: ${theme.font.weight.medium};
  cursor: pointer;
  @media ${theme.media.phone} {
    display: inline-flex;
  }
`;

/** The bell and the user menu, at the end of the bar. */
const Tools = styled.div`
  margin-left: auto;
  display: flex;
  align-items: center;
  gap: ${theme.space.sm};
`;

/** Keeps the bell's place while it loads. */
const BellSpace = styled.span`
  display: inline-block;
  width: 44px;
  height: 44px;
`;

// Signed-in chrome: the bell, its feed and the user menu load after the shell, so the sign-in page
// never carries them.
const accountTools = () => import('./AccountTools.tsx');
const AccountTools = lazyPart(accountTools, 'AccountTools', <BellSpace aria-hidden="true" />);
// The account's items of the phone menu arrive with them (the menu is closed while they load).
const PhoneAccount = lazyPart(accountTools, 'PhoneAccount', null);

const NavLink = styled(Link)<{ $active: boolean }>`
  display: inline-block;
  padding: 8px 12px;
  color: ${theme.color.headerText};
  text-decoration: none;
  font-size: ${theme.font.size.sm};
  font-weight: ${theme.font.weight.medium};
  letter-spacing: 0.06em;
  border-bottom: 3px solid ${({ $active }) => ($active ? theme.color.headerAccent : 'transparent')};
  &:hover {
    color: ${theme.color.headerText};
    border-bottom-color: rgba(255, 255, 255, 0.6);
  }
  @media ${theme.media.phone} {
    display: block;
    padding: 12px;
    border-bottom: none;
    border-left: 4px solid ${({ $active }) => ($active ? theme.color.headerAccent : 'transparent')};
  }
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

function MenuIcon({ open }: { open: boolean }) {
  return (
    <svg width="18" height="18" viewBox="0 0 18 18" aria-hidden="true" focusable="false">
      <path
        d={open ? 'M3 3l12 12M15 3L3 15' : 'M2 4h14M2 9h14M2 14h14'}
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
      />
    </svg>
  );
}

/**
 * The page header: brand, navigation for what the visitor may do, and the user menu. On a phone the
 * navigation and the account's items fold into a Menu button (a disclosure: Escape closes it and
 * gives the focus back to the button; choosing a link or clicking elsewhere closes it).
 */
export function Header() {
  const user = useCurrentUser();
  const { logout } = useSessionEvents();
  const config = useAppConfig();
  const [location] = useLocation();
  // The menu is open on the page where it was opened: another page closes it.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === location;
  const setOpen = (next: boolean) => setOpenOn(next ? location : null);
  const panelId = useId();
  const button = useRef<HTMLButtonElement>(null);
  const nav = useRef<HTMLElement>(null);
  // What the server says the user may do decides the links (decision 029).
  const abilities = user?.abilities;
  const items = user
    ? [
        { href: paths.dashboard, label: 'PORTFOLIO DASHBOARD' },
        ...(abilities?.readTeacherPortfolios ? [{ href: paths.teacherPortfolios, label: 'TEACHER PORTFOLIOS' }] : []),
        ...(abilities?.ownPortfolios ? [{ href: paths.myPortfolios, label: 'MY PORTFOLIOS' }] : []),
        { href: paths.sharedPortfolios, label: 'SHARED PORTFOLIOS' },
        // The researchers' coverage map is the second tab of Insights (`InsightsNav`).
        ...(abilities?.insights ? [{ href: paths.insights, label: 'INSIGHTS', also: [paths.coverage] }] : []),
        ...(abilities?.researchExport ? [{ href: paths.researchExport, label: 'RESEARCH EXPORT' }] : []),
      ]
    : [
        { href: paths.home, label: 'HOME' },
        { href: paths.about, label: 'ABOUT' },
        { href: paths.login, label: 'LOGIN' },
      ];

  useEffect(() => {
    if (!open) return undefined;
    const close = (event: PointerEvent) => {
      if (!nav.current?.contains(event.target as Node)) setOpenOn(null);
    };
    document.addEventListener('pointerdown', close);
    return () => document.removeEventListener('pointerdown', close);
  }, [open]);

  const handleKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || !open) return;
    event.preventDefault();
    setOpen(false);
    button.current?.focus();
  };

  return (
    <Bar>
      <Inner>
        <Brand href={user ? paths.dashboard : paths.home}>
          <BrandMark />
          PracticeFolio
        </Brand>
        <Nav ref={nav} aria-label="Main" $wide={user !== null} $links={items.length} onKeyDown={handleKeyDown}>
          <MenuButton
            ref={button}
            type="button"
            aria-expanded={open}
            aria-controls={panelId}
            onClick={() => setOpen(!open)}
          >
            <MenuIcon open={open} />
            Menu
          </MenuButton>
          <Links id={panelId} $open={open} $links={items.length}>
            <ul>
              {items.map((item) => {
                const active = [item.href, ...('also' in item ? item.also : [])].some(
                  (href) => location === href || location.startsWith(`${href}/`),
                );
                return (
                  <li key={item.href}>
                    <NavLink
                      href={item.href}
                      $active={active}
                      aria-current={active ? 'page' : undefined}
                      onClick={() => setOpen(false)}
                    >
                      {item.label}
                    </NavLink>
                  </li>
                );
              })}
            </ul>
            {user ? (
              <PhoneAccount
                username={user.username}
                manageUsers={abilities?.manageUsers ?? false}
                rubrics={abilities?.installationRubrics ?? false}
                helpUrl={config.helpUrl}
                onLogout={logout}
                onChoose={() => setOpen(false)}
              />
            ) : null}
          </Links>
        </Nav>
        {user ? (
          <Tools>
            <AccountTools
              username={user.username}
              manageUsers={abilities?.manageUsers ?? false}
              rubrics={abilities?.installationRubrics ?? false}
              helpUrl={config.helpUrl}
              onLogout={logout}
            />
          </Tools>
        ) : null}
      </Inner>
    </Bar>
  );
}
