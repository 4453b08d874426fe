import { Link } from 'wouter';
import {
  useCanRetryUnsubscribe,
  useUnsubscribeError,
  useUnsubscribeEvents,
  useUnsubscribeResult,
  useUnsubscribeStatus,
} from '../../machines/unsubscribe/useUnsubscribe.ts';
import type { UnsubscribeResponse } from '../../schemas/notifications.ts';
import { PageHeading } from '../components/PageHeading.tsx';
import { KIND_TEXT } from '../notifications/notificationKinds.ts';
import { paths } from '../paths.ts';
import { Hint, Problem } from '../portfolios/Notices.tsx';

export const UNSUBSCRIBE_TITLE = 'Unsubscribe';
export const UNSUBSCRIBE_FAILED = 'This unsubscribe link does not work';

/** "You will no longer receive e-mail about comments at t***@example.org." */
export function unsubscribedText(result: UnsubscribeResponse): string {
  const what = result.kind === 'all' ? 'any notification' : KIND_TEXT[result.kind].label.toLowerCase();
  return `You will no longer receive e-mail about ${what} at ${result.email}.`;
}

/**
 * The page of an e-mail's unsubscribe link (no session needed): it sends the link's signed token at
 * once and says what was turned off, or why the link did not work (tampered, expired: nothing changed;
 * offline: try again). Needs `UnsubscribeActorContext` above it.
 */
export function UnsubscribePage() {
  const status = useUnsubscribeStatus();
  const result = useUnsubscribeResult();
  const error = useUnsubscribeError();
  const canRetry = useCanRetryUnsubscribe();
  const { retry } = useUnsubscribeEvents();
  return (
    <>
      <PageHeading title={UNSUBSCRIBE_TITLE} />
      {status === 'working' ? <p role="status">Unsubscribing…</p> : null}
      {status === 'done' && result ? (
        <Hint>
          <h2>You are unsubscribed</h2>
          <p role="status">{unsubscribedText(result)}</p>
          <p>
            The bell in PracticeFolio still shows every notification. You can change what is e-mailed at any time in{' '}
            <Link href={paths.notificationSettings}>Notification Settings</Link>.
          </p>
        </Hint>
      ) : null}
      {status === 'failed' ? (
        <>
          {/* A refused link changed nothing; after a network failure the page cannot know, and trying again is safe. */}
          <Problem
            title={UNSUBSCRIBE_FAILED}
            message={canRetry ? error?.message : `${error?.message ?? ''} Nothing was changed.`.trim()}
            {...(canRetry ? { onRetry: retry } : {})}
          />
          <p>
            Sign in and choose what is e-mailed to you in{' '}
            <Link href={paths.notificationSettings}>Notification Settings</Link>.
          </p>
        </>
      ) : null}
    </>
  );
}
