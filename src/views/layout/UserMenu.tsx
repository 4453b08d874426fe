import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'wouter';
import styled from 'styled-components';
import { paths } from '../paths.ts';
import { theme } from '../theme/theme.ts';

const Wrap = styled.div`
  position: relative;
`;

const Trigger = styled.button`
  display: inline-flex;
  align-items: center;
  gap: ${theme.space.xs};
  background: none;
  border: 1px solid rgba(255, 255, 255, 0.5);
  border-radius: ${theme.radius.sm};
  color: ${theme.color.headerText};
  padding: 6px 12px;
  cursor: pointer;
  font-weight: ${theme.font.weight.medium};
  max-width: 240px;
  span {
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
  }
`;

const Menu = styled.ul`
  position: absolute;
  right: 0;
  top: calc(100% + 6px);
  min-width: 200px;
  margin: 0;
  padding: ${theme.space.xs} 0;
  list-style: none;
  background: ${theme.color.surface};
  border-radius: ${theme.radius.md};
  box-shadow: ${theme.shadow.popover};
  z-index: 500;
  a,
  button {
    display: block;
    width: 100%;
    text-align: left;
    padding: 10px 16px;
    border: none;
    background: none;
    color: ${theme.color.text};
    text-decoration: none;
    cursor: pointer;
  }
  a:hover,
  button:hover,
  a:focus-visible,
  button:focus-visible {
    background: ${theme.color.surfaceAlt};
  }
`;

const menuItems = (menu: HTMLUListElement | null) => [
  ...(menu?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []),
];

/**
 * The user menu, titled with the username: Manage Users and Rubrics (when the user may manage accounts and the
 * installation's rubrics), Notification Settings, Help, Log Out.
 * A menu button: arrows move between items, Escape closes and returns focus.
 */
export function UserMenu({
  username,
  manageUsers,
  rubrics = false,
  helpUrl,
  onLogout,
}: {
  username: string;
  /** The user may manage accounts (the server's `manageUsers` ability): the menu offers Manage Users. */
  manageUsers: boolean;
  /** The user may manage the installation's rubrics (`installationRubrics`): the menu offers Rubrics. */
  rubrics?: boolean;
  /** An external guide; `null`: the portal's own Help page. */
  helpUrl: string | null;
  onLogout: () => void;
}) {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const trigger = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLUListElement>(null);

  useEffect(() => {
    if (!open) return;
    menuItems(menu.current)[0]?.focus();
    const close = (event: MouseEvent) => {
      if (!menu.current?.contains(event.target as Node) && !trigger.current?.contains(event.target as Node))
        setOpen(false);
    };
    document.addEventListener('mousedown', close);
    return () => document.removeEventListener('mousedown', close);
  }, [open]);

  const handleMenuKey = (event: React.KeyboardEvent) => {
    const list = menuItems(menu.current);
    const index = list.indexOf(document.activeElement as HTMLElement);
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      list[(index + 1) % list.length]?.focus();
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      list[(index - 1 + list.length) % list.length]?.focus();
    } else if (event.key === 'Home') {
      event.preventDefault();
      list[0]?.focus();
    } else if (event.key === 'End') {
      event.preventDefault();
      list[list.length - 1]?.focus();
    } else if (event.key === 'Escape' || event.key === 'Tab') {
      if (event.key === 'Escape') event.preventDefault();
      setOpen(false);
      trigger.current?.focus();
    }
  };

  return (
    <Wrap>
      <Trigger
        ref={trigger}
        type="button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen((v) => !v)}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' && !open) {
            e.preventDefault();
            setOpen(true);
          }
        }}
      >
        <span>{username}</span>
        <svg aria-hidden="true" width="12" height="12" viewBox="0 0 12 12">
          <path d="M2 4l4 4 4-4" fill="none" stroke="currentColor" strokeWidth="2" />
        </svg>
      </Trigger>
      {open ? (
        <Menu id={menuId} role="menu" aria-label={username} ref={menu} onKeyDown={handleMenuKey}>
          {manageUsers ? (
            <li role="none">
              <Link href={paths.users} role="menuitem" tabIndex={-1} onClick={() => setOpen(false)}>
                Manage Users
              </Link>
            </li>
          ) : null}
          {rubrics ? (
            <li role="none">
              <Link href={paths.rubrics} role="menuitem" tabIndex={-1} onClick={() => setOpen(false)}>
                Rubrics
              </Link>
            </li>
          ) : null}
          <li role="none">
            <Link href={paths.notificationSettings} role="menuitem" tabIndex={-1} onClick={() => setOpen(false)}>
              Notification Settings
            </Link>
          </li>
          <li role="none">
            <Link href={paths.appPassword} role="menuitem" tabIndex={-1} onClick={() => setOpen(false)}>
              Mobile App Password
            </Link>
          </li>
          <li role="none">
            {helpUrl ? (
              <a
                href={helpUrl}
                role="menuitem"
                tabIndex={-1}
                target="_blank"
                rel="noopener noreferrer"
                onClick={() => setOpen(false)}
              >
                Help <span className="visually-hidden">(opens in a new tab)</span>
              </a>
            ) : (
              <Link href={paths.help} role="menuitem" tabIndex={-1} onClick={() => setOpen(false)}>
                Help
              </Link>
            )}
          </li>
          <li role="none">
            <button type="button" role="menuitem" tabIndex={-1} onClick={onLogout}>
              Log Out
            </button>
          </li>
        </Menu>
      ) : null}
    </Wrap>
  );
}
