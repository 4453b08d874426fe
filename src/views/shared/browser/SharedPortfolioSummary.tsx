import { useId } from 'react';
import { Link } from 'wouter';
import styled from 'styled-components';
import { gradeLabels } from '../../../machines/portfolioBrowser/selectors.ts';
import { useBrowserEvents } from '../../../machines/portfolioBrowser/usePortfolioBrowser.ts';
import { useCurrentUser } from '../../../machines/session/useSession.ts';
import type { SharedPortfolioSummary as SharedPortfolioInBrief } from '../../../schemas/sharedPortfolio.ts';
import { Button, ButtonLink } from '../../components/Button.tsx';
import { buildPath, paths } from '../../paths.ts';
import { LeaveButton } from './LeaveButton.tsx';
import { formatDate } from '../../../schemas/formatting.ts';
import { theme } from '../../theme/theme.ts';
import { panelStyle } from '../../components/cardStyles.ts';

const Card = styled.section`
  padding: ${theme.space.md} ${theme.space.lg};
  ${panelStyle}
  margin-bottom: ${theme.space.lg};
`;

const Head = styled.div`
  display: flex;
  align-items: center;
  justify-content: space-between;
  flex-wrap: wrap;
  gap: ${theme.space.sm} ${theme.space.md};
  margin-bottom: ${theme.space.sm};
  h2 {
    margin: 0;
    font-size: ${theme.font.size.lg};
    overflow-wrap: anywhere;
  }
`;

const Actions = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  justify-content: flex-end;
  gap: ${theme.space.sm};
`;

/** Why Export does nothing, next to it (and its description for screen readers). */
const ExportNote = styled.p`
  flex-basis: 100%;
  margin: 0;
  max-width: 32rem;
  text-align: end;
  font-size: ${theme.font.size.sm};
  color: ${theme.color.textMuted};
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
  .goals {
    grid-column: 1 / -1;
  }
  .goals dd {
    white-space: pre-line;
  }
`;

const Muted = styled.span`
  color: ${theme.color.textMuted};
  font-style: italic;
`;

const NOT_SPECIFIED = <Muted>Not specified</Muted>;

/** Why Export is disabled: exporting one shared portfolio is not offered (spec §2); researchers export them all. */
export function exportNote(researcher: boolean): string {
  return researcher
    ? 'Exporting one shared portfolio is not available yet: Export shared portfolios summary, above, exports them all.'
    : 'Exporting one shared portfolio is not available yet.';
}

/**
 * The chosen shared portfolio in brief: Grade Levels, PLC Name, Created (its owner), Subject,
 * Date Created, Portfolio Topic, Total Artifacts and the PLC Goals, with Leave (teachers who are
 * members but not the owner), a disabled Export with the reason next to it, and Edit (the owner
 * and researchers).
 */
export function SharedPortfolioSummary({ portfolio }: { portfolio: SharedPortfolioInBrief }) {
  const titleId = useId();
  const noteId = useId();
  const user = useCurrentUser();
  const { portfolioLeft } = useBrowserEvents();
  const grades = gradeLabels(portfolio.grades);
  return (
    <Card aria-labelledby={titleId}>
      <Head>
        <h2 id={titleId}>{portfolio.name}</h2>
        <Actions>
          {portfolio.abilities?.leave ? (
            <LeaveButton sharedPortfolioId={portfolio.id} name={portfolio.name} onLeft={portfolioLeft} />
          ) : null}
          <Button type="button" $variant="secondary" $small disabled aria-describedby={noteId}>
            Export
          </Button>
          {portfolio.abilities?.edit ? (
            <Link href={buildPath(paths.sharedPortfolioEdit, { id: portfolio.id })} asChild>
              <ButtonLink $variant="secondary" $small>
                Edit
              </ButtonLink>
            </Link>
          ) : null}
          <ExportNote id={noteId}>{exportNote(user?.abilities.exportSummaries ?? false)}</ExportNote>
        </Actions>
      </Head>
      <Facts>
        <div>
          <dt>Grade Levels</dt>
          <dd>{grades.length > 0 ? grades.join(', ') : NOT_SPECIFIED}</dd>
        </div>
        <div>
          <dt>PLC Name</dt>
          <dd>{portfolio.plcName?.trim() || NOT_SPECIFIED}</dd>
        </div>
        <div>
          <dt>Created</dt>
          <dd>{portfolio.owner.username}</dd>
        </div>
        <div>
          <dt>Subject</dt>
          <dd>{portfolio.subject || NOT_SPECIFIED}</dd>
        </div>
        <div>
          <dt>Date Created</dt>
          <dd>
            <time dateTime={portfolio.created_at}>{formatDate(portfolio.created_at)}</time>
          </dd>
        </div>
        <div>
          <dt>Portfolio Topic</dt>
          <dd>{portfolio.topic?.trim() || NOT_SPECIFIED}</dd>
        </div>
        <div>
          <dt>Total Artifacts</dt>
          <dd>{portfolio.sharedArtifacts.length}</dd>
        </div>
        <div className="goals">
          <dt>PLC Goals</dt>
          <dd>{portfolio.plcGoals?.trim() || NOT_SPECIFIED}</dd>
        </div>
      </Facts>
    </Card>
  );
}
