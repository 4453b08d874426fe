import { useId, type ReactNode } from 'react';
import styled from 'styled-components';
import { artifactTitle, layoutQuestions } from '../../machines/artifactLifecycle/artifactSelectors.ts';
import { GRADES } from '../../schemas/catalog.ts';
import type { Media } from '../../schemas/media.ts';
import type { Question, Responses, ResponseValue, Structure } from '../../schemas/structure.ts';
import { ChipList } from '../components/Chip.tsx';
import { MediaList } from './MediaList.tsx';
import { formatDate, formatDateTime } from '../../schemas/formatting.ts';
import { theme } from '../theme/theme.ts';

/** The heading of the team (bonus) questions of a shared portfolio's artifact. */
export const TEAM_QUESTIONS_HEADING = 'Team questions for shared portfolio';

/** What `ArtifactDetails` shows: a personal or shared artifact (only these fields are read). */
export interface ArtifactDetailsData {
  structure: Structure;
  responses: Responses;
  created_at: string;
  updated_at: string;
  images: readonly Media[];
  videos: readonly Media[];
  documents: readonly Media[];
  /** Marks an artifact still in the parking lot. */
  parkingLot?: boolean;
  /** Grade codes of the portfolio (shown with `showGradeLevels`). */
  portfolioGrades?: readonly string[];
}

export interface ArtifactDetailsProps {
  /** The artifact to show. */
  artifact: ArtifactDetailsData;
  /** Show a 'Grade Levels' line from `artifact.portfolioGrades` (shared artifacts). */
  showGradeLevels?: boolean;
  /** Level of the title heading; sections use the next level (default 2). */
  headingLevel?: 2 | 3;
  /** Buttons or links shown beside the title (e.g. EDIT, COPY TO). */
  actions?: ReactNode;
}

const Article = styled.article`
  display: flex;
  flex-direction: column;
  gap: ${theme.space.lg};
  min-width: 0;
`;

const Header = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: ${theme.space.sm} ${theme.space.md};
  h2,
  h3 {
    margin: 0;
    overflow-wrap: anywhere;
  }
`;

const Badge = styled.span`
  padding: 2px ${theme.space.sm};
  border-radius: ${theme.radius.pill};
  background: #fff4d6;
  color: ${theme.color.warning};
  border: 1px solid ${theme.color.warning};
  font-size: ${theme.font.size.sm};
  font-weight: ${theme.font.weight.medium};
`;

const Actions = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: ${theme.space.sm};
  margin-left: auto;
`;

const Facts = styled.dl`
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax(180px, 1fr));
  gap: ${theme.space.sm} ${theme.space.lg};
  margin: 0;
  dt {
    font-size: ${theme.font.size.sm};
    color: ${theme.color.textMuted};
    font-weight: ${theme.font.weight.medium};
  }
  dd {
    margin: 0;
  }
`;

const Section = styled.section`
  h3,
  h4 {
    font-size: ${theme.font.size.lg};
    margin-bottom: ${theme.space.sm};
  }
`;

const Answers = styled.dl`
  margin: 0;
  dt {
    font-weight: ${theme.font.weight.bold};
    overflow-wrap: anywhere;
  }
  dd {
    margin: ${theme.space.xs} 0 ${theme.space.md};
    white-space: pre-wrap;
    overflow-wrap: anywhere;
  }
`;

const Muted = styled.span`
  color: ${theme.color.textMuted};
  font-style: italic;
`;

const NOT_ANSWERED = 'No response';
const NOT_SPECIFIED = 'Not specified';

function isBlank(value: ResponseValue | undefined): value is undefined {
  return (
    value === undefined ||
    (typeof value === 'string' && value.trim() === '') ||
    (Array.isArray(value) && value.length === 0)
  );
}

/** One answer: lists as chips, anything else as text. */
function AnswerValue({ value, label, empty }: { value: ResponseValue | undefined; label: string; empty: string }) {
  if (isBlank(value)) return <Muted>{empty}</Muted>;
  if (Array.isArray(value)) return <ChipList items={value} label={label} />;
  return <>{String(value)}</>;
}

function QuestionList({ questions, responses }: { questions: readonly Question[]; responses: Responses }) {
  return (
    <Answers>
      {questions.map((q) => (
        <div key={q.key}>
          <dt>{q.text || q.key}</dt>
          <dd>
            <AnswerValue value={responses[q.key]} label={q.text || q.key} empty={NOT_ANSWERED} />
          </dd>
        </div>
      ))}
    </Answers>
  );
}

const gradeLabel = (code: string): string => GRADES.find((g) => g.value === code)?.label ?? code;

/**
 * A read-only artifact: title, Last Edited and Date Created, (Grade Levels), Unit Timing and
 * Unit Day, its files, then every other question with its answer; a shared portfolio's team
 * questions come last under their own heading.
 */
export function ArtifactDetails({
  artifact,
  showGradeLevels = false,
  headingLevel = 2,
  actions,
}: ArtifactDetailsProps) {
  const titleId = useId();
  const mediaHeadingId = useId();
  const teamHeadingId = useId();
  const layout = layoutQuestions(artifact.structure);
  const { responses } = artifact;
  const Title = headingLevel === 2 ? 'h2' : 'h3';
  const Sub = headingLevel === 2 ? 'h3' : 'h4';
  const grades = artifact.portfolioGrades ?? [];
  return (
    <Article aria-labelledby={titleId}>
      <Header>
        <Title id={titleId}>{artifactTitle(responses)}</Title>
        {artifact.parkingLot ? <Badge>Parking Lot</Badge> : null}
        {actions ? <Actions>{actions}</Actions> : null}
      </Header>
      <Facts>
        <div>
          <dt>Last Edited</dt>
          <dd>
            <time dateTime={artifact.updated_at}>{formatDateTime(artifact.updated_at)}</time>
          </dd>
        </div>
        <div>
          <dt>Date Created</dt>
          <dd>
            <time dateTime={artifact.created_at}>{formatDate(artifact.created_at)}</time>
          </dd>
        </div>
        {showGradeLevels ? (
          <div>
            <dt>Grade Levels</dt>
            <dd>{grades.length > 0 ? grades.map(gradeLabel).join(', ') : <Muted>{NOT_SPECIFIED}</Muted>}</dd>
          </div>
        ) : null}
        <div>
          <dt>Unit Timing</dt>
          <dd>
            <AnswerValue
              value={responses[layout.unitTiming?.key ?? 'unitTiming']}
              label="Unit Timing"
              empty={NOT_SPECIFIED}
            />
          </dd>
        </div>
        <div>
          <dt>Unit Day</dt>
          <dd>
            <AnswerValue value={responses[layout.unitDay?.key ?? 'unitDay']} label="Unit Day" empty={NOT_SPECIFIED} />
          </dd>
        </div>
      </Facts>
      <Section aria-labelledby={mediaHeadingId}>
        <Sub id={mediaHeadingId}>{layout.files?.text || 'Files'}</Sub>
        <MediaList media={artifact} artifactTitle={artifactTitle(responses)} />
      </Section>
      {layout.main.length > 0 ? <QuestionList questions={layout.main} responses={responses} /> : null}
      {layout.bonus.length > 0 ? (
        <Section aria-labelledby={teamHeadingId}>
          <Sub id={teamHeadingId}>{TEAM_QUESTIONS_HEADING}</Sub>
          <QuestionList questions={layout.bonus} responses={responses} />
        </Section>
      ) : null}
    </Article>
  );
}
