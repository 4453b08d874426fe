import styled from 'styled-components';
import { Link } from 'wouter';
import { useArtifactEditEvents, useLoadError } from '../../../machines/artifactLifecycle/useArtifactLifecycle.ts';
import { Button } from '../../components/Button.tsx';
import { PageHeading } from '../../components/PageHeading.tsx';
import { theme } from '../../theme/theme.ts';

const Problem = styled.div`
  padding: ${theme.space.lg};
  background: ${theme.color.surface};
  border: 1px solid ${theme.color.border};
  border-left: 6px solid ${theme.color.danger};
  border-radius: ${theme.radius.md};
  p {
    margin: 0 0 ${theme.space.md};
  }
`;

/** Why an edit page shows no form (not found, not allowed), with a way back. */
export function EditPageProblem({
  pageTitle,
  message,
  backPath,
  backLabel,
}: {
  pageTitle: string;
  message: string;
  backPath: string;
  backLabel: string;
}) {
  return (
    <>
      <PageHeading title={pageTitle} />
      <Problem>
        <p>{message}</p>
        <Link href={backPath}>{backLabel}</Link>
      </Problem>
    </>
  );
}

/** The artifact could not be loaded: the reason, and Try again. */
export function EditPageLoadFailed({ pageTitle }: { pageTitle: string }) {
  const error = useLoadError();
  const { retry } = useArtifactEditEvents();
  return (
    <>
      <PageHeading title={pageTitle} />
      <Problem role="alert">
        <p>{error?.message ?? 'Something went wrong. Please try again.'}</p>
        <Button type="button" onClick={retry}>
          Try again
        </Button>
      </Problem>
    </>
  );
}
