import { useId, type FormEvent } from 'react';
import styled from 'styled-components';
import { useMomentsSetup } from '../../machines/momentComment/useMomentComment.ts';
import { useCaptions, useVideoPlayerEvents, type VideoPlayerRef } from '../../machines/videoPlayer/useVideoPlayer.ts';
import { BusyButton } from '../components/BusyButton.tsx';
import { Button } from '../components/Button.tsx';
import { textFieldStyle } from '../components/cardStyles.ts';
import { LoadFailed } from '../components/LoadFailed.tsx';
import { CaptionEditor } from './CaptionEditor.tsx';
import { theme } from '../theme/theme.ts';

const Panel = styled.details`
  border: 1px solid ${theme.color.border};
  border-radius: ${theme.radius.md};
  padding: ${theme.space.sm} ${theme.space.md};
  background: ${theme.color.surface};
  summary {
    cursor: pointer;
    font-weight: ${theme.font.weight.medium};
  }
  &[open] summary {
    margin-bottom: ${theme.space.sm};
  }
`;

const Tracks = styled.ul`
  display: flex;
  flex-direction: column;
  gap: ${theme.space.xs};
  margin: 0 0 ${theme.space.md};
  padding: 0;
  list-style: none;
  li {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: ${theme.space.sm} ${theme.space.md};
  }
`;

const UploadForm = styled.form`
  display: flex;
  flex-wrap: wrap;
  align-items: end;
  gap: ${theme.space.sm} ${theme.space.md};
  label {
    display: flex;
    flex-direction: column;
    gap: ${theme.space.xxs};
    font-size: ${theme.font.size.sm};
    font-weight: ${theme.font.weight.medium};
  }
  input[type='text'] {
    ${textFieldStyle}
  }
`;

const Muted = styled.p`
  margin: 0 0 ${theme.space.sm};
  color: ${theme.color.textMuted};
`;

const Alert = styled.p`
  margin: ${theme.space.sm} 0 0;
  color: ${theme.color.danger};
`;

/**
 * A video's caption tracks: each with Download (a .vtt file) and, for who may edit, Edit (the
 * caption editor); and the upload of a WebVTT or SRT file with its label and language.
 */
export function CaptionsPanel({
  player,
  duration,
  canCaption,
  videoLabel,
}: {
  player: VideoPlayerRef;
  duration: number | null;
  canCaption: boolean;
  videoLabel: string;
}) {
  const captions = useCaptions(player);
  const events = useVideoPlayerEvents(player);
  const { captionUrl } = useMomentsSetup();
  const fileId = useId();
  const labelId = useId();
  const languageId = useId();
  const handleUpload = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const file = (form.elements.namedItem('file') as HTMLInputElement | null)?.files?.[0];
    if (!file) return;
    events.upload(file, String(data.get('language') ?? ''), String(data.get('label') ?? ''));
    form.reset();
  };
  return (
    <Panel>
      <summary>Captions of {videoLabel}</summary>
      {captions.status === 'loading' ? <Muted role="status">Loading captions…</Muted> : null}
      {captions.status === 'failed' ? (
        <LoadFailed
          what="The captions could not be loaded."
          message={captions.error?.message}
          onRetry={events.retry}
          box={Muted}
        />
      ) : null}
      {captions.status !== 'loading' && captions.status !== 'failed' ? (
        captions.tracks.length > 0 ? (
          <Tracks aria-label="Caption tracks">
            {captions.tracks.map((t) => (
              <li key={t.id}>
                <span>
                  {t.label} ({t.language}), {t.cueCount} {t.cueCount === 1 ? 'caption' : 'captions'}
                </span>
                <a href={captionUrl(t, true)} download>
                  Download {t.label} captions
                </a>
                {t.canEdit && captions.status === 'ready' ? (
                  <Button type="button" $variant="link" onClick={() => events.edit(t.id)}>
                    Edit {t.label} captions
                  </Button>
                ) : null}
              </li>
            ))}
          </Tracks>
        ) : (
          <Muted>This video has no captions yet.</Muted>
        )
      ) : null}
      {captions.editing ? (
        <CaptionEditor
          key={captions.editing.id}
          track={captions.editing}
          duration={duration}
          onSaved={events.saved}
          onClosed={events.closed}
        />
      ) : null}
      {canCaption && (captions.status === 'ready' || captions.status === 'uploading') ? (
        <>
          <UploadForm
            onSubmit={handleUpload}
            aria-label={`Upload captions for ${videoLabel}`}
            aria-busy={captions.status === 'uploading' || undefined}
          >
            <label htmlFor={fileId}>
              Caption file (.vtt or .srt)
              <input
                id={fileId}
                name="file"
                type="file"
                accept=".vtt,.srt,text/vtt"
                aria-required="true"
                disabled={captions.status === 'uploading'}
              />
            </label>
            <label htmlFor={labelId}>
              Label
              <input id={labelId} name="label" type="text" defaultValue="English" required maxLength={100} />
            </label>
            <label htmlFor={languageId}>
              Language tag
              <input id={languageId} name="language" type="text" defaultValue="en" required maxLength={35} />
            </label>
            <BusyButton
              type="submit"
              $variant="secondary"
              busy={captions.status === 'uploading'}
              busyLabel="Uploading captions…"
            >
              Upload captions
            </BusyButton>
          </UploadForm>
          {captions.uploadError ? <Alert role="alert">{captions.uploadError.message}</Alert> : null}
          {captions.uploadNotice ? <Muted role="status">{captions.uploadNotice}</Muted> : null}
        </>
      ) : null}
    </Panel>
  );
}
