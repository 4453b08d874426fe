import { useId, type FormEvent } from 'react';
import styled from 'styled-components';
import {
  useCaptionEditor,
  useCaptionEditorActor,
  useCaptionEditorEvents,
  useCaptionsChanged,
  useCaptionsDraft,
  type CaptionEditorRef,
} from '../../machines/captionEditor/useCaptionEditor.ts';
import { useGuardedText } from '../../machines/typedTextGuard/useTypedTextGuard.ts';
import { useMomentsSetup } from '../../machines/momentComment/useMomentComment.ts';
import type { CueProblem } from '../../machines/captionEditor/cues.ts';
import type { CaptionTrack, CaptionTrackSummary } from '../../schemas/moments.ts';
import { BusyButton } from '../components/BusyButton.tsx';
import { Button } from '../components/Button.tsx';
import { stackedListStyle, textFieldStyle } from '../components/cardStyles.ts';
import { ConfirmDialog } from '../components/Dialog.tsx';
import { DraftOfferBar } from '../components/DraftOfferBar.tsx';
import { LoadFailed } from '../components/LoadFailed.tsx';
import { theme } from '../theme/theme.ts';

/** The question before dropping unsaved caption edits. */
export const DISCARD_CAPTIONS_QUESTION = 'Discard your changes to these captions?';

const Form = styled.form`
  display: flex;
  flex-direction: column;
  gap: ${theme.space.md};
  margin-bottom: ${theme.space.md};
  padding: ${theme.space.md};
  border: 1px solid ${theme.color.primary};
  border-radius: ${theme.radius.md};
  h5 {
    margin: 0;
    font-size: ${theme.font.size.md};
  }
  min-width: 0;
  input,
  textarea {
    ${textFieldStyle}
    box-sizing: border-box;
    width: 100%;
    min-width: 0;
  }
  a {
    overflow-wrap: anywhere;
  }
  [aria-invalid='true'] {
    border-color: ${theme.color.danger};
  }
  label {
    display: flex;
    flex-direction: column;
    gap: ${theme.space.xxs};
    font-size: ${theme.font.size.sm};
    font-weight: ${theme.font.weight.medium};
  }
`;

const OfferSpace = styled.div`
  margin-bottom: ${theme.space.sm};
`;

const Row = styled.div`
  display: flex;
  min-width: 0;
  flex-wrap: wrap;
  align-items: end;
  gap: ${theme.space.sm} ${theme.space.md};
`;

const Cues = styled.ol`
  ${stackedListStyle}
`;

/**
 * One caption: Start, End and Remove on a line, the text under them at full width, so the editor
 * fits any column it is in (a fieldset is as wide as its content unless told otherwise).
 */
const Cue = styled.fieldset`
  display: grid;
  grid-template-columns: minmax(0, 8rem) minmax(0, 8rem) minmax(max-content, 1fr);
  align-items: end;
  gap: ${theme.space.sm};
  min-width: 0;
  min-inline-size: 0;
  margin: 0;
  padding: ${theme.space.sm};
  border: 1px solid ${theme.color.border};
  border-radius: ${theme.radius.sm};
  legend {
    font-weight: ${theme.font.weight.medium};
  }
  > label:nth-of-type(3) {
    grid-column: 1 / -1;
  }
  > button {
    grid-row: 1;
    grid-column: 3;
    justify-self: end;
  }
  @media ${theme.media.phone} {
    grid-template-columns: minmax(0, 1fr) minmax(0, 1fr);
    > button {
      grid-row: auto;
      grid-column: 1 / -1;
      justify-self: start;
    }
  }
`;

const Problems = styled.ul`
  margin: 0;
  padding: ${theme.space.sm} ${theme.space.lg};
  border-left: 4px solid ${theme.color.danger};
  color: ${theme.color.danger};
`;

const Alert = styled.p`
  margin: 0;
  color: ${theme.color.danger};
`;

/** The offer of a draft of this track left by a crash or a reload (shown once the track is loaded). */
function CaptionsDraftOffer({ editor, track }: { editor: CaptionEditorRef; track: CaptionTrackSummary }) {
  const offer = useCaptionsDraft(editor, track);
  return offer ? (
    <OfferSpace>
      <DraftOfferBar offer={offer} what="captions" />
    </OfferSpace>
  ) : null;
}

const problemOf = (problems: readonly CueProblem[], index: number | null, field: CueProblem['field']) =>
  problems.find((p) => p.index === index && p.field === field);

/**
 * The caption editor of one track: its label and language, then each caption with its start and
 * end (m:ss) and text, Remove, Add caption; Save (every problem listed until there is none),
 * Discard (asks first when something changed), and a download link of the saved file.
 */
export function CaptionEditor({
  track,
  duration,
  onSaved,
  onClosed,
}: {
  track: CaptionTrackSummary;
  duration: number | null;
  onSaved: (track: CaptionTrack) => void;
  onClosed: () => void;
}) {
  const editor = useCaptionEditorActor({ track, duration }, onSaved, onClosed);
  const { label, language, cues, problems, saving, confirming, load, error } = useCaptionEditor(editor);
  const events = useCaptionEditorEvents(editor);
  useGuardedText(useCaptionsChanged(editor));
  const { captionUrl } = useMomentsSetup();
  const headingId = useId();
  const problemsId = useId();
  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    events.save();
  };
  const field = (index: number | null, name: CueProblem['field']) => {
    const problem = problemOf(problems, index, name);
    return problem ? { 'aria-invalid': true as const, 'aria-describedby': problemsId } : {};
  };
  if (load !== 'loaded') {
    return (
      <Form as="section" aria-labelledby={headingId} aria-busy={load === 'loading' || undefined}>
        <h5 id={headingId}>Edit captions: {track.label}</h5>
        {load === 'loading' ? (
          <p role="status">Loading the captions…</p>
        ) : (
          <LoadFailed
            what="The captions could not be loaded."
            message={error?.message}
            onRetry={events.retry}
            box={Alert}
          />
        )}
        {load === 'failed' ? (
          <Row>
            <Button type="button" $variant="secondary" onClick={events.discard}>
              Close
            </Button>
          </Row>
        ) : null}
      </Form>
    );
  }
  return (
    <>
      <CaptionsDraftOffer editor={editor} track={track} />
      <Form onSubmit={handleSubmit} aria-labelledby={headingId} aria-busy={saving || undefined} noValidate>
        <h5 id={headingId}>Edit captions: {track.label}</h5>
        <Row>
          <label>
            Track label
            <input
              type="text"
              value={label}
              readOnly={saving}
              onChange={(e) => events.changeTrack('label', e.target.value)}
              {...field(null, 'label')}
            />
          </label>
          <label>
            Language tag
            <input
              type="text"
              value={language}
              readOnly={saving}
              onChange={(e) => events.changeTrack('language', e.target.value)}
              {...field(null, 'language')}
            />
          </label>
          <a href={captionUrl(track, true)} download>
            Download the saved captions (.vtt)
          </a>
        </Row>
        <Cues aria-label="Captions">
          {cues.map((cue, index) => (
            <li key={cue.key}>
              <Cue>
                <legend>Caption {index + 1}</legend>
                <label>
                  Start (m:ss)
                  <input
                    type="text"
                    inputMode="decimal"
                    value={cue.start}
                    readOnly={saving}
                    onChange={(e) => events.changeCue(index, 'start', e.target.value)}
                    {...field(index, 'start')}
                  />
                </label>
                <label>
                  End (m:ss)
                  <input
                    type="text"
                    inputMode="decimal"
                    value={cue.end}
                    readOnly={saving}
                    onChange={(e) => events.changeCue(index, 'end', e.target.value)}
                    {...field(index, 'end')}
                  />
                </label>
                <label>
                  Text
                  <textarea
                    rows={2}
                    value={cue.text}
                    readOnly={saving}
                    onChange={(e) => events.changeCue(index, 'text', e.target.value)}
                    {...field(index, 'text')}
                  />
                </label>
                <Button
                  type="button"
                  $variant="secondary"
                  $small
                  disabled={saving}
                  onClick={() => events.removeCue(index)}
                  aria-label={`Remove caption ${index + 1}`}
                >
                  Remove
                </Button>
              </Cue>
            </li>
          ))}
        </Cues>
        {cues.length === 0 ? <p>No captions. Add one to begin.</p> : null}
        <Row>
          <Button type="button" $variant="secondary" $small disabled={saving} onClick={events.addCue}>
            Add caption
          </Button>
        </Row>
        {problems.length > 0 ? (
          <Problems id={problemsId} role="alert" aria-label="Problems to fix before saving">
            {problems.map((p) => (
              <li key={`${p.index ?? 'track'}-${p.field}`}>{p.message}</li>
            ))}
          </Problems>
        ) : null}
        {error ? <Alert role="alert">{error.message}</Alert> : null}
        <Row>
          <BusyButton type="submit" busy={saving} busyLabel="Saving captions…">
            Save captions
          </BusyButton>
          <Button type="button" $variant="secondary" disabled={saving} onClick={events.discard}>
            Discard
          </Button>
        </Row>
        {confirming ? (
          <ConfirmDialog
            title="Discard Changes"
            message={DISCARD_CAPTIONS_QUESTION}
            onConfirm={events.confirmDiscard}
            onCancel={events.cancelDiscard}
          />
        ) : null}
      </Form>
    </>
  );
}
