import { useId, type KeyboardEvent } from 'react';
import styled from 'styled-components';
import { mediaLabel } from '../../machines/artifactLifecycle/artifactSelectors.ts';
import { needsAlt } from '../../machines/mediaText/mediaTextMachine.ts';
import { useGuardedText } from '../../machines/typedTextGuard/useTypedTextGuard.ts';
import { useMediaText, useMediaTextEvents, type MediaTextRef } from '../../machines/mediaText/useMediaText.ts';
import { ALT_MAX, DESCRIPTION_MAX } from '../../schemas/moments.ts';
import type { MediaKind } from '../../schemas/media.ts';
import { BusyButton } from '../components/BusyButton.tsx';
import { Button } from '../components/Button.tsx';
import { textFieldStyle } from '../components/cardStyles.ts';
import { theme } from '../theme/theme.ts';

/** What an image without alt text says (a prompt; nothing is blocked). */
export const ALT_PROMPT = 'No alt text yet: describe this image for people who cannot see it.';

const Box = styled.div`
  display: flex;
  flex-direction: column;
  gap: ${theme.space.xs};
  font-size: ${theme.font.size.sm};
  label {
    display: flex;
    flex-direction: column;
    gap: ${theme.space.xxs};
    font-weight: ${theme.font.weight.medium};
  }
  input,
  textarea {
    width: 100%;
    ${textFieldStyle}
  }
`;

const Prompt = styled.p`
  margin: 0;
  padding: ${theme.space.xs};
  border-left: 4px solid ${theme.color.warning};
  background: ${theme.color.surfaceAlt};
`;

const Row = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: ${theme.space.xs};
`;

const Alert = styled.p`
  margin: 0;
  color: ${theme.color.danger};
`;

const Muted = styled.p`
  margin: 0;
  color: ${theme.color.textMuted};
  overflow-wrap: anywhere;
`;

/**
 * The alt text (images) and description (every file) of one file: an image without alt text is
 * prompted for it; Add/Edit opens the fields, Save keeps them (Enter in the alt text saves too),
 * Cancel drops the drafts. Lives inside the edit page's form, so it is a group, not a form.
 */
export function MediaTextEditor({
  editor,
  kind,
  disabled = false,
}: {
  editor: MediaTextRef;
  kind: MediaKind;
  disabled?: boolean;
}) {
  const { media, alt, description, editing, saving, saved, error } = useMediaText(editor);
  const { edit, change, save, cancel } = useMediaTextEvents(editor);
  useGuardedText(editing && (alt !== media.alt || description !== media.description));
  const altId = useId();
  const descriptionId = useId();
  const label = mediaLabel(media);
  const image = kind === 'images';
  const what = image ? 'alt text' : 'description';
  const has = image ? media.alt !== '' : media.description !== '';
  if (!editing) {
    return (
      <Box>
        {needsAlt(kind, media) ? <Prompt>{ALT_PROMPT}</Prompt> : null}
        {image && media.alt ? <Muted>Alt text: {media.alt}</Muted> : null}
        {saved ? <Muted role="status">Saved</Muted> : null}
        <Row>
          <Button
            type="button"
            $small
            $variant="secondary"
            disabled={disabled}
            onClick={edit}
            aria-label={`${has ? 'Edit' : 'Add'} ${what} of ${label}`}
          >
            {has ? 'Edit' : 'Add'} {what}
          </Button>
        </Row>
      </Box>
    );
  }
  const handleKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    // Inside the page's form: Enter saves this file's text, not the artifact.
    if (event.key === 'Enter') {
      event.preventDefault();
      save();
    }
  };
  return (
    <Box role="group" aria-label={`Alt text and description of ${label}`} aria-busy={saving || undefined}>
      {image ? (
        <label htmlFor={altId}>
          Alt text
          <input
            id={altId}
            type="text"
            value={alt}
            maxLength={ALT_MAX}
            readOnly={saving}
            onChange={(e) => change('alt', e.target.value)}
            onKeyDown={handleKeyDown}
          />
        </label>
      ) : null}
      <label htmlFor={descriptionId}>
        Description
        <textarea
          id={descriptionId}
          rows={2}
          value={description}
          maxLength={DESCRIPTION_MAX}
          readOnly={saving}
          onChange={(e) => change('description', e.target.value)}
        />
      </label>
      {error ? <Alert role="alert">{error.message}</Alert> : null}
      <Row>
        <BusyButton type="button" busy={saving} busyLabel="Saving…" onClick={save}>
          Save
        </BusyButton>
        <Button type="button" $small $variant="secondary" disabled={saving} onClick={cancel}>
          Cancel
        </Button>
      </Row>
    </Box>
  );
}
