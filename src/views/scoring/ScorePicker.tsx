import { useContext, useId } from 'react';
import type { PlayerHandle } from '../video/VideoMoments.tsx';
import styled from 'styled-components';
import {
  ScoringRefContext,
  useScoreDraft,
  useScoringData,
  useScoringEvents,
  useScoringStatus,
} from '../../machines/scoring/useScoring.ts';
import type { ScoringRef } from '../../machines/scoring/scoringMachine.ts';
import { SCORE_NOTE_MAX } from '../../schemas/rubrics.ts';
import { formatClock } from '../../schemas/formatting.ts';
import { Button } from '../components/Button.tsx';
import { theme } from '../theme/theme.ts';

const Box = styled.fieldset`
  display: flex;
  flex-direction: column;
  gap: ${theme.space.sm};
  margin: 0;
  padding: ${theme.space.sm} ${theme.space.md} ${theme.space.md};
  border: 1px solid ${theme.color.border};
  border-radius: ${theme.radius.md};
  background: ${theme.color.surface};
  legend {
    padding: 0 ${theme.space.xs};
    font-weight: ${theme.font.weight.medium};
  }
`;

const Choices = styled.ul`
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax(200px, 1fr));
  gap: ${theme.space.xs};
  margin: 0;
  padding: 0;
  list-style: none;
`;

const Choice = styled.button<{ $chosen?: boolean }>`
  width: 100%;
  min-height: 44px;
  padding: ${theme.space.xs} ${theme.space.sm};
  border: 1px solid ${({ $chosen }) => ($chosen ? theme.color.primary : theme.color.borderStrong)};
  border-radius: ${theme.radius.sm};
  background: ${({ $chosen }) => ($chosen ? theme.color.primary : theme.color.surface)};
  color: ${({ $chosen }) => ($chosen ? theme.color.primaryText : theme.color.text)};
  font: inherit;
  font-size: ${theme.font.size.sm};
  text-align: left;
  cursor: pointer;
  &:hover:not(:disabled) {
    border-color: ${theme.color.primaryHover};
  }
  &:disabled {
    cursor: not-allowed;
    opacity: 0.6;
  }
  small {
    display: block;
    color: inherit;
    font-size: ${theme.font.size.xs};
  }
`;

const Note = styled.textarea`
  width: 100%;
  min-height: 3.5em;
  padding: ${theme.space.xs} ${theme.space.sm};
  border: 1px solid ${theme.color.borderStrong};
  border-radius: ${theme.radius.sm};
  font: inherit;
`;

const Problem = styled.p`
  margin: 0;
  color: ${theme.color.danger};
  font-size: ${theme.font.size.sm};
`;

const Hint = styled.p`
  margin: 0;
  color: ${theme.color.textMuted};
  font-size: ${theme.font.size.sm};
`;

/** Where a picker scores: a moment of a video (the player's time and pause), or the whole artifact. */
export type ScorePlace =
  { kind: 'video'; mediaId: number; time: number; now: () => number; capture: () => void } | { kind: 'whole' };

export interface ScorePickerProps {
  /** The scoring of the artifact. */
  scoring: ScoringRef;
  /** Where this picker scores. */
  place: ScorePlace;
}

/**
 * Scores against the portfolio's rubric in two or three clicks: a criterion (a video's current
 * time becomes the moment, and the video pauses), an optional note, then a level (which saves).
 * Shows nothing to those who may not score, or where the portfolio has no rubric.
 */
export function ScorePicker({ scoring, place }: ScorePickerProps) {
  const status = useScoringStatus(scoring);
  const { rubric, canScore } = useScoringData(scoring);
  const draft = useScoreDraft(scoring);
  const events = useScoringEvents(scoring);
  const noteId = useId();
  if (!rubric || !canScore || status === 'loading' || status === 'loadFailed') return null;
  const media = place.kind === 'video' ? place.mediaId : null;
  const here = draft.anchor !== null && draft.anchor.media === media;
  const elsewhere = draft.anchor !== null && !here;
  const busy = status === 'saving';
  const at = here ? draft.anchor!.start : place.kind === 'video' ? place.time : 0;
  const legend = place.kind === 'video' ? `Score at ${formatClock(at)}` : 'Score the whole artifact';
  const criterion = here ? rubric.criteria.find((c) => c.id === draft.criterion) : undefined;

  const pickCriterion = (id: number) => {
    if (here) return events.pickCriterion(id, draft.anchor!);
    if (place.kind === 'video') {
      const start = place.now();
      place.capture();
      events.pickCriterion(id, { media: place.mediaId, start });
    } else events.pickCriterion(id, { media: null, start: 0 });
  };

  return (
    <Box aria-busy={busy}>
      <legend>
        {legend} · {rubric.name}
      </legend>
      {!here ? <Hint>Pick a criterion, then a level.</Hint> : null}
      <Choices aria-label="Criteria">
        {rubric.criteria.map((c) => (
          <li key={c.id}>
            <Choice
              type="button"
              $chosen={here && draft.criterion === c.id}
              aria-pressed={here && draft.criterion === c.id}
              disabled={elsewhere || busy}
              onClick={() => pickCriterion(c.id)}
            >
              {c.code ? `${c.code} ` : ''}
              {c.label}
            </Choice>
          </li>
        ))}
      </Choices>
      {here && criterion ? (
        <>
          <label htmlFor={noteId}>Note (optional)</label>
          <Note
            id={noteId}
            value={draft.note}
            maxLength={SCORE_NOTE_MAX}
            disabled={busy}
            onChange={(e) => events.changeNote(e.target.value)}
          />
          <Choices aria-label={`Levels of ${criterion.label}`}>
            {criterion.levels.map((l) => (
              <li key={l.id}>
                <Choice type="button" disabled={busy} onClick={() => events.pickLevel(l.id)}>
                  {l.label} ({l.score}){l.description ? <small>{l.description}</small> : null}
                </Choice>
              </li>
            ))}
          </Choices>
          {draft.error ? <Problem role="alert">{draft.error.message}</Problem> : null}
          <div>
            <Button type="button" $small $variant="secondary" disabled={busy} onClick={events.cancel}>
              Cancel
            </Button>
          </div>
        </>
      ) : null}
      <span className="visually-hidden" aria-live="polite">
        {busy ? 'Saving the score' : ''}
      </span>
    </Box>
  );
}

/** The picker under a video player, scoring with the artifact's scoring above it (none: nothing). */
export function VideoScoreTools(player: PlayerHandle) {
  const scoring = useContext(ScoringRefContext);
  return scoring ? <ScorePicker scoring={scoring} place={{ kind: 'video', ...player }} /> : null;
}
