import { useEffect, useId, useRef } from 'react';
import { Link, useLocation } from 'wouter';
import styled from 'styled-components';
import type { NotificationFeedRef } from '../../machines/notificationFeed/notificationFeedMachine.ts';
import {
  useNotificationFeedActor,
  useNotificationFeedEvents,
  usePanelOpen,
  useUnreadCount,
} from '../../machines/notificationFeed/useNotificationFeed.ts';
import { paths } from '../paths.ts';
import { theme } from '../theme/theme.ts';
import { NotificationList } from './NotificationList.tsx';

const Wrap = styled.div`
  position: relative;
`;

const bellStyles = `
  position: relative;
  display: inline-flex;
  align-items: center;
  justify-content: center;
  width: 44px;
  height: 44px;
  border-radius: 50%;
  border: none;
  background: none;
  color: inherit;
  cursor: pointer;
`;

const BellButton = styled.button`
  ${bellStyles}
  color: ${theme.color.headerText};
  &:hover {
    background: rgba(255, 255, 255, 0.12);
  }
`;

const BellLink = styled.a`
  ${bellStyles}
  color: ${theme.color.headerText};
  &:hover {
    color: ${theme.color.headerText};
    background: rgba(255, 255, 255, 0.12);
  }
`;

const Badge = styled.span`
  position: absolute;
  top: 2px;
  right: 0;
  min-width: 20px;
  height: 20px;
  padding: 0 5px;
  border-radius: ${theme.radius.pill};
  background: ${theme.color.headerAccent};
  color: #1b2a38;
  font-size: ${theme.font.size.xs};
  font-weight: ${theme.font.weight.bold};
  line-height: 20px;
  text-align: center;
`;

const Panel = styled.div`
  position: absolute;
  right: 0;
  top: calc(100% + 6px);
  z-index: 600;
  width: min(420px, calc(100vw - 24px));
  max-height: min(70vh, 640px);
  overflow: auto;
  padding: ${theme.space.md};
  background: ${theme.color.surface};
  color: ${theme.color.text};
  border-radius: ${theme.radius.md};
  box-shadow: ${theme.shadow.popover};
  &:focus {
    outline: none;
  }
`;

function BellIcon() {
  return (
    <svg width="22" height="22" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path
        d="M12 3a6 6 0 0 0-6 6v3.6L4.3 16a1 1 0 0 0 .9 1.5h13.6a1 1 0 0 0 .9-1.5L18 12.6V9a6 6 0 0 0-6-6zm-2.5 16a2.5 2.5 0 0 0 5 0z"
        fill="currentColor"
      />
    </svg>
  );
}

/** The bell's accessible name: "Notifications, 3 unread". */
export function bellLabel(unread: number | null): string {
  return unread !== null && unread > 0 ? `Notifications, ${unread} unread` : 'Notifications';
}

const isPhone = () => typeof window.matchMedia === 'function' && window.matchMedia(theme.media.phone).matches;

function LiveBell({ feed }: { feed: NotificationFeedRef }) {
  const unread = useUnreadCount(feed);
  const open = usePanelOpen(feed);
  const { toggle, close } = useNotificationFeedEvents(feed);
  const [, navigate] = useLocation();
  const panelId = useId();
  const headingId = useId();
  const wrap = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return undefined;
    panel.current?.focus();
    const closeOutside = (event: PointerEvent) => {
      if (!wrap.current?.contains(event.target as Node)) close();
    };
    // Escape closes it wherever the focus is (a control that went away leaves it on the page).
    const closeOnEscape = (event: globalThis.KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      event.preventDefault();
      close();
      button.current?.focus();
    };
    document.addEventListener('pointerdown', closeOutside);
    document.addEventListener('keydown', closeOnEscape);
    return () => {
      document.removeEventListener('pointerdown', closeOutside);
      document.removeEventListener('keydown', closeOnEscape);
    };
  }, [open, close]);

  return (
    <Wrap ref={wrap}>
      <BellButton
        ref={button}
        type="button"
        aria-label={bellLabel(unread)}
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        // Phones show the feed as a page of its own; wider screens in a panel under the bell.
        onClick={() => (isPhone() ? navigate(paths.notifications) : toggle())}
      >
        <BellIcon />
        {unread !== null && unread > 0 ? <Badge aria-hidden="true">{unread > 99 ? '99+' : unread}</Badge> : null}
      </BellButton>
      {open ? (
        <Panel id={panelId} ref={panel} role="dialog" aria-labelledby={headingId} tabIndex={-1}>
          <NotificationList feed={feed} variant="panel" headingId={headingId} />
        </Panel>
      ) : null}
    </Wrap>
  );
}

/**
 * The header's bell with the unread count (shown, and spoken as "Notifications, 3 unread"). It opens
 * the feed in a panel (Escape or a click elsewhere closes it), or the Notifications page on a phone.
 * Until the feed's logic has loaded it is a plain link to the Notifications page.
 */
export function NotificationBell() {
  const feed = useNotificationFeedActor();
  if (!feed) {
    return (
      <Link href={paths.notifications} asChild>
        <BellLink aria-label={bellLabel(null)}>
          <BellIcon />
        </BellLink>
      </Link>
    );
  }
  return <LiveBell feed={feed} />;
}
