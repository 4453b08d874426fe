import { useId } from 'react';
import styled from 'styled-components';
import {
  useScoreDraft,
  useScoringData,
  useScoringEvents,
  useScoringStatus,
} from '../../machines/scoring/useScoring.ts';
import type { ScoringRef } from '../../machines/scoring/scoringMachine.ts';
import { formatMoment } from '../../schemas/formatting.ts';
import type { Media } from '../../schemas/media.ts';
import type { Score } from '../../schemas/rubrics.ts';
import { Button } from '../components/Button.tsx';
import { theme } from '../theme/theme.ts';
import { ScorePicker } from './ScorePicker.tsx';

const Section = styled.section`
  display: flex;
  flex-direction: column;
  gap: ${theme.space.sm};
  h4 {
    margin: 0;
    font-size: ${theme.font.size.lg};
  }
`;

const List = styled.ol`
  display: flex;
  flex-direction: column;
  gap: ${theme.space.sm};
  margin: 0;
  padding: 0;
  list-style: none;
`;

const Item = styled.li`
  display: flex;
  flex-wrap: wrap;
  align-items: baseline;
  gap: ${theme.space.xs} ${theme.space.md};
  padding: ${theme.space.sm} ${theme.space.md};
  border-left: 4px solid ${theme.color.warning};
  border-radius: ${theme.radius.sm};
  background: ${theme.color.surfaceAlt};
  &:target {
    outline: 2px solid ${theme.color.focus};
  }
  p {
    flex-basis: 100%;
    margin: 0;
    overflow-wrap: anywhere;
  }
`;

const Muted = styled.span`
  color: ${theme.color.textMuted};
  font-size: ${theme.font.size.sm};
`;

const Problem = styled.p`
  margin: 0;
  color: ${theme.color.danger};
`;

/** Where a score was given, in words: 'at 0:12 of Video 1', or 'the whole artifact'. */
export function scorePlace(score: Score, videos: readonly Media[]): string {
  if (!score.moment) return 'the whole artifact';
  const video = videos.length > 1 ? ` of video ${videos.findIndex((v) => v.id === score.moment!.media) + 1}` : '';
  return `at ${formatMoment(score.moment)}${video}`;
}

export interface ScoreListProps {
  /** The scoring of the artifact. */
  scoring: ScoringRef;
  /** The artifact's videos (to name where a score was given). */
  videos: readonly Media[];
}

/**
 * The rubric scores of a shared artifact the viewer may see (each `#score-<id>`, with Delete on
 * her own), then "Score the whole artifact". Nothing when the portfolio has no rubric and there
 * are no scores.
 */
export function ScoreList({ scoring, videos }: ScoreListProps) {
  const status = useScoringStatus(scoring);
  const { rubric, scores } = useScoringData(scoring);
  const draft = useScoreDraft(scoring);
  const events = useScoringEvents(scoring);
  const headingId = useId();
  if (status === 'loading') return null;
  if (status === 'loadFailed')
    return (
      <Section aria-labelledby={headingId}>
        <h4 id={headingId}>Rubric scores</h4>
        <Problem role="alert">The rubric scores could not be loaded. {draft.error?.message}</Problem>
        <div>
          <Button type="button" $small $variant="secondary" onClick={events.retry}>
            Try again
          </Button>
        </div>
      </Section>
    );
  if (!rubric && scores.length === 0) return null;
  return (
    <Section aria-labelledby={headingId}>
      <h4 id={headingId}>Rubric scores</h4>
      {scores.length === 0 ? (
        <Muted>No scores yet.</Muted>
      ) : (
        <List>
          {scores.map((s) => (
            <Item key={s.id} id={`score-${s.id}`}>
              <strong>
                {s.criterion.code ? `${s.criterion.code} ` : ''}
                {s.criterion.label}: {s.level.label} ({s.level.score})
              </strong>
              <Muted>
                {scorePlace(s, videos)} · by {s.scorer.username} · {s.rubric.name}, version {s.rubric.version}
              </Muted>
              {s.note ? <p>{s.note}</p> : null}
              {s.abilities.delete ? (
                <Button
                  type="button"
                  $small
                  $variant="link"
                  disabled={status !== 'idle'}
                  aria-label={`Delete the score ${s.criterion.label}: ${s.level.label}, ${scorePlace(s, videos)}`}
                  onClick={() => events.remove(s.id)}
                >
                  {draft.deleting === s.id ? 'Deleting…' : 'Delete'}
                </Button>
              ) : null}
            </Item>
          ))}
        </List>
      )}
      {status === 'idle' && draft.error ? <Problem role="alert">{draft.error.message}</Problem> : null}
      <ScorePicker scoring={scoring} place={{ kind: 'whole' }} />
    </Section>
  );
}
