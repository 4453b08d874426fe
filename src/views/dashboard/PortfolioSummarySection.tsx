import type { MouseEvent } from 'react';
import styled, { keyframes } from 'styled-components';
import { Link } from 'wouter';
import type { PortfolioSummary } from '../../machines/dashboard/selectors.ts';
import {
  useDashboardEvents,
  usePortfolioSummary,
  useSectionError,
  useSectionStatus,
} from '../../machines/dashboard/useDashboard.ts';
import { paths } from '../paths.ts';
import { Problem } from '../portfolios/Notices.tsx';
import { DashboardSection } from './DashboardSection.tsx';
import { theme } from '../theme/theme.ts';

/** The section's texts. */
const SUMMARY = 'Teacher Portfolio Summary';
const SUMMARY_LOADING = 'Loading the summary';
const SUMMARY_FAILED = 'The summary could not be loaded';

/** The id of the dashboard's Shared Portfolios table, which lists what three of the cards count. */
export const SHARED_TABLE_ANCHOR = 'shared-portfolios';

/** Each count and the list it counts: the shared portfolios (with their artifacts and comments) on this page; the people in Manage Users. */
const COUNTS: readonly {
  key: keyof PortfolioSummary;
  label: string;
  list: { anchor: string } | { path: string };
  what: string;
}[] = [
  { key: 'portfolios', label: 'Portfolios', list: { anchor: SHARED_TABLE_ANCHOR }, what: 'the shared portfolios' },
  {
    key: 'artifacts',
    label: 'Artifacts',
    list: { anchor: SHARED_TABLE_ANCHOR },
    what: 'the artifacts of each shared portfolio',
  },
  {
    key: 'comments',
    label: 'Comments',
    list: { anchor: SHARED_TABLE_ANCHOR },
    what: 'the comments of each shared portfolio',
  },
  { key: 'teachers', label: 'Teachers', list: { path: paths.users }, what: 'the people in Manage Users' },
];

const Cards = styled.dl`
  display: grid;
  grid-template-columns: repeat(auto-fit, minmax(150px, 1fr));
  gap: ${theme.space.md};
  margin: 0;
`;

const Card = styled.div`
  position: relative;
  display: flex;
  flex-direction: column;
  gap: ${theme.space.xs};
  padding: ${theme.space.md} ${theme.space.lg};
  background: ${theme.color.surface};
  border: 1px solid ${theme.color.border};
  border-top: 4px solid ${theme.color.primary};
  border-radius: ${theme.radius.md};
  box-shadow: ${theme.shadow.card};
  dt {
    color: ${theme.color.textMuted};
    font-size: ${theme.font.size.sm};
    font-weight: ${theme.font.weight.bold};
    letter-spacing: 0.04em;
    text-transform: uppercase;
  }
  dd {
    margin: 0;
    font-size: ${theme.font.size.xxl};
    font-weight: ${theme.font.weight.bold};
    line-height: 1.2;
  }
  /* The whole card is the link. */
  a {
    color: inherit;
    text-decoration: underline;
    text-decoration-thickness: 1px;
    text-underline-offset: 3px;
  }
  a::after {
    content: '';
    position: absolute;
    inset: 0;
    border-radius: inherit;
  }
  a:focus-visible {
    outline: none;
  }
  &:focus-within:has(a:focus-visible) {
    outline: 3px solid ${theme.color.focus};
    outline-offset: 2px;
  }
  &:has(a):hover {
    border-color: ${theme.color.primary};
  }
  &:has(a):hover dt {
    color: ${theme.color.primary};
  }
`;

const pulse = keyframes`0%, 100% { opacity: 1; } 50% { opacity: 0.45; }`;

const Bar = styled.span`
  display: block;
  width: 3ch;
  height: 1em;
  margin: 0.1em 0;
  border-radius: 4px;
  background: ${theme.color.surfaceAlt};
  animation: ${pulse} 1.4s ease-in-out infinite;
`;

/** Brings the section with this id into view and gives it the focus (an in-page link, without changing the address). */
function goToSection(event: MouseEvent<HTMLAnchorElement>, anchor: string): void {
  const target = document.getElementById(anchor);
  if (!target) return;
  event.preventDefault();
  // Focusing it scrolls it into view.
  target.focus();
}

/** A card's label as its link; named with its count and the list it leads to. */
function CardLabel({
  label,
  count,
  list,
  what,
}: Pick<(typeof COUNTS)[number], 'label' | 'list' | 'what'> & { count: number }) {
  const name = `${label}: ${count}. See ${what}`;
  if ('path' in list) {
    return (
      <Link href={list.path} aria-label={name}>
        {label}
      </Link>
    );
  }
  return (
    <a href={`#${list.anchor}`} aria-label={name} onClick={(event) => goToSection(event, list.anchor)}>
      {label}
    </a>
  );
}

function SummaryCards({ summary }: { summary: PortfolioSummary | null }) {
  return (
    <Cards>
      {COUNTS.map(({ key, label, list, what }) => (
        <Card key={key}>
          {/* Linked once loaded, and only to a list that is there (no table without shared portfolios). */}
          <dt>
            {summary && ('path' in list || summary.portfolios > 0) ? (
              <CardLabel label={label} count={summary[key]} list={list} what={what} />
            ) : (
              label
            )}
          </dt>
          <dd>{summary ? summary[key] : <Bar />}</dd>
        </Card>
      ))}
    </Cards>
  );
}

/**
 * Teacher Portfolio Summary (researchers): how many shared portfolios there are, their artifacts
 * and comments, and how many distinct teachers take part; each card links to the list it counts.
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
      {status === 'failed' ? (
        <Problem title={SUMMARY_FAILED} message={error?.message} onRetry={() => retry('shared')} />
      ) : null}
    </DashboardSection>
  );
}
