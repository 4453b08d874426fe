import styled, { keyframes } from 'styled-components';
import type { PortfolioSummary } from '../../machines/dashboard/selectors.ts';
import { useDashboardEvents, usePortfolioSummary, useSectionError, useSectionStatus } from '../../machines/dashboard/useDashboard.ts';
import { Problem } from '../portfolios/Notices.tsx';
import { DashboardSection } from './DashboardSection.tsx';

/** The section's texts. */
const SUMMARY = 'Teacher Portfolio Summary';
const SUMMARY_LOADING = 'Loading the summary';
const SUMMARY_FAILED = 'The summary could not be loaded';

const COUNTS: readonly { key: keyof PortfolioSummary; label: string }[] = [
  { key: 'portfolios', label: 'Portfolios' },
  { key: 'artifacts', label: 'Artifacts' },
  { key: 'comments', label: 'Comments' },
  { key: 'teachers', label: 'Teachers' },
];

const Cards = styled.dl`
  display: grid;
  grid-template-columns: repeat(auto-fit, minmax(150px, 1fr));
  gap: ${({ theme }) => theme.space.md};
  margin: 0;
`;

const Card = styled.div`
  display: flex;
  flex-direction: column;
  gap: ${({ theme }) => theme.space.xs};
  padding: ${({ theme }) => theme.space.md} ${({ theme }) => theme.space.lg};
  background: ${({ theme }) => theme.color.surface};
  border: 1px solid ${({ theme }) => theme.color.border};
  border-top: 4px solid ${({ theme }) => theme.color.primary};
  border-radius: ${({ theme }) => theme.radius.md};
  box-shadow: ${({ theme }) => theme.shadow.card};
  dt {
    color: ${({ theme }) => theme.color.textMuted};
    font-size: ${({ theme }) => theme.font.size.sm};
    font-weight: ${({ theme }) => theme.font.weight.bold};
    letter-spacing: 0.04em;
    text-transform: uppercase;
  }
  dd {
    margin: 0;
    font-size: ${({ theme }) => theme.font.size.xxl};
    font-weight: ${({ theme }) => theme.font.weight.bold};
    line-height: 1.2;
  }
`;

const pulse = keyframes`0%, 100% { opacity: 1; } 50% { opacity: 0.45; }`;

const Bar = styled.span`
  display: block;
  width: 3ch;
  height: 1em;
  margin: 0.1em 0;
  border-radius: 4px;
  background: ${({ theme }) => theme.color.surfaceAlt};
  animation: ${pulse} 1.4s ease-in-out infinite;
`;

function SummaryCards({ summary }: { summary: PortfolioSummary | null }) {
  return (
    <Cards>
      {COUNTS.map(({ key, label }) => (
        <Card key={key}>
          <dt>{label}</dt>
          <dd>{summary ? summary[key] : <Bar />}</dd>
        </Card>
      ))}
    </Cards>
  );
}

/**
 * Teacher Portfolio Summary (researchers): how many shared portfolios there are, their artifacts
 * and comments, and how many distinct teachers take part.
 */
export function PortfolioSummarySection() {
  const status = useSectionStatus('shared');
  const error = useSectionError('shared');
  const summary = usePortfolioSummary();
  const { retry } = useDashboardEvents();
  return (
    <DashboardSection title={SUMMARY}>
      {status === 'ready' ? <SummaryCards summary={summary} /> : null}
      {status === 'loading' ? (
        <div role="status" aria-label={SUMMARY_LOADING} aria-busy="true">
          <SummaryCards summary={null} />
        </div>
      ) : null}
      {status === 'failed' ? <Problem title={SUMMARY_FAILED} message={error?.message} onRetry={() => retry('shared')} /> : null}
    </DashboardSection>
  );
}
