import styled from 'styled-components';
import { Link, useLocation } from 'wouter';
import { rememberOrigin, useCurrentUser } from '../../machines/session/useSession.ts';
import { PageHeading } from '../components/PageHeading.tsx';
import { paths } from '../paths.ts';
import { theme } from '../theme/theme.ts';

const Problem = styled.div`
  padding: ${theme.space.lg};
  background: ${theme.color.surface};
  border: 1px solid ${theme.color.border};
  border-left: 6px solid ${theme.color.warning};
  border-radius: ${theme.radius.md};
  p {
    margin: 0 0 ${theme.space.sm};
  }
  p:last-child {
    margin-bottom: 0;
  }
`;

/** Says why a file could not be shown: a visitor must log in; a member may lack access or the file is gone. */
export function MediaUnavailable({
  kind,
  title,
}: {
  kind: 'image' | 'video';
  /** What the page is called (never the stored file's name). */ title: string;
}) {
  const user = useCurrentUser();
  const [location] = useLocation();
  return (
    <>
      <PageHeading title={title} />
      <Problem role="alert">
        <p>This {kind} could not be shown.</p>
        {user ? (
          <p>It may have been removed, or it belongs to an artifact you cannot see.</p>
        ) : (
          <p>
            Files are shown only to signed-in users who may see them.{' '}
            <Link href={paths.login} onClick={() => rememberOrigin(location)}>
              Log in
            </Link>{' '}
            to see it.
          </p>
        )}
      </Problem>
    </>
  );
}
