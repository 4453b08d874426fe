import styled from 'styled-components';
import {
  useFormLoadError,
  useFormMode,
  useEditedPortfolio,
  useFormProblem,
  useSharedPortfolioFormEvents,
  useSharedPortfolioFormStatus,
} from '../../machines/sharedPortfolioForm/useSharedPortfolioForm.ts';
import { Button } from '../components/Button.tsx';
import { PageHeading } from '../components/PageHeading.tsx';
import { PageSkeleton } from '../components/PageSkeleton.tsx';
import { RubricSection } from '../rubrics/RubricSection.tsx';
import { SharedPortfolioForm } from '../shared/form/SharedPortfolioForm.tsx';
import { theme } from '../theme/theme.ts';

const Problem = styled.div`
  padding: ${theme.space.lg};
  background: ${theme.color.surface};
  border: 1px solid ${theme.color.border};
  border-left: 6px solid ${theme.color.danger};
  border-radius: ${theme.radius.md};
  h2 {
    font-size: ${theme.font.size.lg};
  }
  p {
    margin: 0 0 ${theme.space.md};
  }
`;

const Unavailable = styled.p`
  font-size: ${theme.font.size.lg};
`;

function LoadFailed() {
  const error = useFormLoadError();
  const { retry } = useSharedPortfolioFormEvents();
  return (
    <Problem role="alert">
      <h2>The page could not be loaded</h2>
      <p>{error?.message ?? 'Something went wrong. Please try again.'}</p>
      <Button type="button" onClick={retry}>
        Try again
      </Button>
    </Problem>
  );
}

/**
 * `/shared-portfolios/new` and `/shared-portfolios/{id}/edit`: the shared portfolio form, or why
 * it cannot be shown (no permission, not found, no template).
 */
export function SharedPortfolioFormPage() {
  const status = useSharedPortfolioFormStatus();
  const mode = useFormMode();
  const problem = useFormProblem();
  const edited = useEditedPortfolio();
  const title = mode === 'create' ? 'Create Shared Portfolio' : 'Edit Shared Portfolio';
  return (
    <>
      <PageHeading title={title} />
      {status === 'loading' ? <PageSkeleton label="Loading shared portfolio" /> : null}
      {status === 'loadFailed' ? <LoadFailed /> : null}
      {status === 'unavailable' ? <Unavailable>{problem}</Unavailable> : null}
      {status === 'editing' || status === 'confirmingDelete' || status === 'confirmingLeave' || status === 'done' ? (
        <SharedPortfolioForm />
      ) : null}
      {mode === 'edit' && status === 'editing' && edited ? <RubricSection sharedPortfolioId={edited.id} /> : null}
    </>
  );
}
