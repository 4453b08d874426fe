import { useId } from 'react';
import styled from 'styled-components';
import { BusyMessage } from '../components/BusyMessage.tsx';
import { panelStyle } from '../components/cardStyles.ts';
import { lazyPart } from '../components/lazyParts.tsx';
import { theme } from '../theme/theme.ts';

// The rubric chooser and editor (its machine, the NGSS template and the forms) load with the
// section: a chunk of their own, so that the shared portfolio pages load without them.
const RubricPanel = lazyPart(
  () => import('./RubricPanel.tsx'),
  'RubricPanel',
  <BusyMessage busy message="Loading the rubrics" />,
);

const Section = styled.section`
  ${panelStyle}
  min-width: 0;
  padding: ${theme.space.md};
  margin-top: ${theme.space.lg};
  h2 {
    margin: 0 0 ${theme.space.sm};
    font-size: ${theme.font.size.xl};
  }
`;

/** "Rubric" on a shared portfolio's settings page: what its members score with, and its rubrics. */
export function RubricSection({ sharedPortfolioId }: { sharedPortfolioId: number }) {
  const headingId = useId();
  return (
    <Section aria-labelledby={headingId}>
      <h2 id={headingId}>Rubric</h2>
      <RubricPanel sharedPortfolioId={sharedPortfolioId} />
    </Section>
  );
}
