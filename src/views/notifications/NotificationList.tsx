import type { MouseEvent } from 'react';
import { Link } from 'wouter';
import styled from 'styled-components';
import {
  useCanLoadMore,
  useCanReadAll,
  useFeedError,
  useFeedItems,
  useFeedStatus,
  useNotificationFeedEvents,
} from '../../machines/notificationFeed/useNotificationFeed.ts';
import type { NotificationFeedRef } from '../../machines/notificationFeed/notificationFeedMachine.ts';
import type { Notification } from '../../schemas/notifications.ts';
import { BusyButton } from '../components/BusyButton.tsx';
import { Button } from '../components/Button.tsx';
import { paths } from '../paths.ts';
import { formatRelative } from '../../schemas/formatting.ts';
import { theme } from '../theme/theme.ts';

/** What an empty feed says. */
export const NO_NOTIFICATIONS = 'You have no notifications yet.';
export const FEED_LOAD_FAILED = 'Your notifications could not be loaded.';

const Toolbar = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: ${theme.space.sm} ${theme.space.md};
  margin-bottom: ${theme.space.sm};
  h2 {
    margin: 0 auto 0 0;
    font-size: ${theme.font.size.lg};
  }
  a {
    font-size: ${theme.font.size.sm};
  }
  button[aria-disabled='true'] {
    color: ${theme.color.textMuted};
    text-decoration: none;
    cursor: default;
  }
`;

const List = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0;
  border-top: 1px solid ${theme.color.border};
`;

const ItemLink = styled.a<{ $unread: boolean }>`
  display: grid;
  grid-template-columns: 36px minmax(0, 1fr) 10px;
  gap: ${theme.space.sm};
  align-items: start;
  padding: ${theme.space.sm} ${theme.space.sm};
  border-bottom: 1px solid ${theme.color.border};
  color: ${theme.color.text};
  text-decoration: none;
  background: ${({ $unread }) => ($unread ? '#e8f1f8' : 'transparent')};
  &:hover {
    background: ${theme.color.surfaceAlt};
    color: ${theme.color.text};
  }
  .summary {
    display: block;
    font-weight: ${({ $unread }) => ($unread ? theme.font.weight.bold : theme.font.weight.regular)};
    overflow-wrap: anywhere;
  }
`;

const Avatar = styled.span`
  display: inline-flex;
  align-items: center;
  justify-content: center;
  width: 36px;
  height: 36px;
  border-radius: 50%;
  background: ${theme.color.primary};
  color: ${theme.color.primaryText};
  font-size: ${theme.font.size.sm};
  font-weight: ${theme.font.weight.bold};
`;

const Meta = styled.span`
  display: block;
  margin-top: ${theme.space.xxs};
  color: ${theme.color.textMuted};
  font-size: ${theme.font.size.sm};
`;

const Dot = styled.span<{ $unread: boolean }>`
  width: 10px;
  height: 10px;
  margin-top: 6px;
  border-radius: 50%;
  background: ${({ $unread }) => ($unread ? theme.color.primary : 'transparent')};
`;

const Note = styled.p`
  margin: ${theme.space.md} 0;
  color: ${theme.color.textMuted};
`;

const Failure = styled.div`
  margin: ${theme.space.md} 0;
  p {
    margin: 0 0 ${theme.space.sm};
  }
`;

const Foot = styled.div`
  display: flex;
  flex-wrap: wrap;
  justify-content: space-between;
  align-items: center;
  gap: ${theme.space.sm};
  margin-top: ${theme.space.md};
`;

/** Up to two initials of a name ('Theo Teacher' → 'TT'). */
export function initialsOf(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => word[0]!.toUpperCase())
    .join('');
}

function Item({ item, onOpen }: { item: Notification; onOpen: (id: number) => void }) {
  const handleClick = (event: MouseEvent<HTMLAnchorElement>) => {
    // A new tab or window opens the place as any link does; a plain click goes through the feed.
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey || event.button !== 0) return;
    event.preventDefault();
    onOpen(item.id);
  };
  const unread = !item.read;
  return (
    <li>
      <ItemLink href={item.link} $unread={unread} onClick={handleClick} data-unread={unread || undefined}>
        <Avatar aria-hidden="true">{item.actor ? initialsOf(item.actor.username) : '•'}</Avatar>
        <span>
          <span className="summary">
            {unread ? <span className="visually-hidden">Unread: </span> : null}
            {item.summary}
          </span>
          <Meta>
            <time dateTime={item.created_at}>{formatRelative(item.updated_at)}</time>
            {item.sharedPortfolio ? ` · ${item.sharedPortfolio.name}` : ''}
          </Meta>
        </span>
        <Dot aria-hidden="true" $unread={unread} />
      </ItemLink>
    </li>
  );
}

/**
 * The feed: "Mark all as read", the items (newest first, unread ones bold with a dot; each opens
 * its place and is marked read), older pages on demand, and the way to the e-mail settings.
 */
export function NotificationList({
  feed,
  variant,
  headingId,
}: {
  feed: NotificationFeedRef;
  /** In the bell's panel (with its own heading and a link to the page) or on the Notifications page. */
  variant: 'panel' | 'page';
  /** The id of the panel's heading (it names the panel). */
  headingId?: string;
}) {
  const status = useFeedStatus(feed);
  const items = useFeedItems(feed);
  const error = useFeedError(feed);
  const canMore = useCanLoadMore(feed);
  const canReadAll = useCanReadAll(feed);
  const { open, more, retry, readAll, close } = useNotificationFeedEvents(feed);
  const showItems = items.length > 0 && status !== 'loadFailed';
  return (
    <div aria-busy={status === 'loading' || status === 'loadingMore' || undefined}>
      <Toolbar>
        {variant === 'panel' ? <h2 id={headingId}>Notifications</h2> : null}
        {/* Not disabled when there is nothing to mark: the focus stays on it after it was used. */}
        <Button type="button" $variant="link" onClick={canReadAll ? readAll : undefined} aria-disabled={!canReadAll}>
          Mark all as read
        </Button>
        <Link href={paths.notificationSettings} onClick={variant === 'panel' ? close : undefined}>
          E-mail settings
        </Link>
      </Toolbar>
      {(status === 'idle' || status === 'loading') && items.length === 0 ? (
        <Note role="status">Loading notifications…</Note>
      ) : null}
      {status === 'loadFailed' ? (
        <Failure role="alert">
          <p>
            {FEED_LOAD_FAILED} {error?.message}
          </p>
          <Button type="button" $variant="secondary" $small onClick={retry}>
            Try again
          </Button>
        </Failure>
      ) : null}
      {status !== 'loadFailed' && status !== 'loading' && status !== 'idle' && items.length === 0 ? (
        <Note>{NO_NOTIFICATIONS}</Note>
      ) : null}
      {showItems ? (
        <List aria-label="Notifications">
          {items.map((item) => (
            <Item key={item.id} item={item} onOpen={open} />
          ))}
        </List>
      ) : null}
      {showItems && (canMore || status === 'loadingMore') ? (
        <Foot>
          <BusyButton
            type="button"
            $variant="secondary"
            busy={status === 'loadingMore'}
            busyLabel="Loading older notifications…"
            onClick={more}
          >
            Show older notifications
          </BusyButton>
        </Foot>
      ) : null}
      {variant === 'panel' ? (
        <Foot>
          {/* The page takes the feed over from the panel, which closes as the page opens. */}
          <Link href={paths.notifications}>See all notifications</Link>
        </Foot>
      ) : null}
    </div>
  );
}
