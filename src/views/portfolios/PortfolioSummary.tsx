import { useId } from 'react';
import { Link } from 'wouter';
import styled from 'styled-components';
import { gradeLabels } from '../../machines/portfolioBrowser/selectors.ts';
import { TEMPLATE_NAME } from '../../schemas/catalog.ts';
import type { PortfolioSummary as PortfolioInBrief } from '../../schemas/portfolio.ts';
import { ButtonLink } from '../components/Button.tsx';
import { buildPath, paths } from '../paths.ts';
import { formatDate } from '../../schemas/formatting.ts';
import { theme } from '../theme/theme.ts';
import { panelStyle } from '../components/cardStyles.ts';

const Card = styled.section`
  padding: ${theme.space.md} ${theme.space.lg};
  ${panelStyle}
  margin-bottom: ${theme.space.lg};
`;

const Head = styled.div`
  display: flex;
  align-items: center;
  justify-content: space-between;
  gap: ${theme.space.md};
  margin-bottom: ${theme.space.sm};
  h2 {
    margin: 0;
    font-size: ${theme.font.size.lg};
    overflow-wrap: anywhere;
  }
`;

const Facts = styled.dl`
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax(min(140px, 40%), 1fr));
  gap: ${theme.space.sm} ${theme.space.lg};
  margin: 0;
  dt {
    font-size: ${theme.font.size.sm};
    color: ${theme.color.textMuted};
    font-weight: ${theme.font.weight.medium};
  }
  dd {
    margin: 0;
    overflow-wrap: anywhere;
  }
`;

const Muted = styled.span`
  color: ${theme.color.textMuted};
  font-style: italic;
`;

const NOT_SPECIFIED = <Muted>Not specified</Muted>;

/**
 * The chosen portfolio in brief: Grade Levels, Date Created, Subject, Total Artifacts, Portfolio
 * Topic and Template, with an Edit link for its owner.
 */
export function PortfolioSummary({
  portfolio,
  editable,
}: {
  portfolio: PortfolioInBrief;
  /** Offer the Edit link. */ editable: boolean;
}) {
  const titleId = useId();
  const grades = gradeLabels(portfolio.grades);
  return (
    <Card aria-labelledby={titleId}>
      <Head>
        <h2 id={titleId}>{portfolio.name}</h2>
        {editable ? (
          <Link href={buildPath(paths.myPortfolioEdit, { id: portfolio.id })} asChild>
            <ButtonLink $variant="secondary" $small>
              Edit
            </ButtonLink>
          </Link>
        ) : null}
      </Head>
      <Facts>
        <div>
          <dt>Grade Levels</dt>
          <dd>{grades.length > 0 ? grades.join(', ') : NOT_SPECIFIED}</dd>
        </div>
        <div>
          <dt>Date Created</dt>
          <dd>
            <time dateTime={portfolio.created_at}>{formatDate(portfolio.created_at)}</time>
          </dd>
        </div>
        <div>
          <dt>Subject</dt>
          <dd>{portfolio.subject || NOT_SPECIFIED}</dd>
        </div>
        <div>
          <dt>Total Artifacts</dt>
          <dd>{portfolio.artifacts.length}</dd>
        </div>
        <div>
          <dt>Portfolio Topic</dt>
          <dd>{portfolio.topic?.trim() || NOT_SPECIFIED}</dd>
        </div>
        <div>
          <dt>Template</dt>
          <dd>{TEMPLATE_NAME}</dd>
        </div>
      </Facts>
    </Card>
  );
}
