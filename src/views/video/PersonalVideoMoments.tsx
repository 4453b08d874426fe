import { useCallback, useId, useMemo } from 'react';
import styled from 'styled-components';
import { byCaption, videoLabel } from '../../machines/artifactLifecycle/artifactSelectors.ts';
import {
  useArtifactNotes,
  useArtifactNotesActor,
  useArtifactNotesEvents,
} from '../../machines/artifactNotes/useArtifactNotes.ts';
import { useMomentCommentActor } from '../../machines/momentComment/useMomentComment.ts';
import { type MomentMark } from '../../machines/videoPlayer/markers.ts';
import type { Media } from '../../schemas/media.ts';
import type { Note } from '../../schemas/moments.ts';
import { Button } from '../components/Button.tsx';
import { cardStyle, MutedText, stackedListStyle } from '../components/cardStyles.ts';
import { LoadFailed } from '../components/LoadFailed.tsx';
import { MomentThreadProvider, useIsHighlighted, useMomentThread } from './MomentThread.tsx';
import { VideoMoments } from './VideoMoments.tsx';
import { formatMoment } from '../../schemas/formatting.ts';
import { theme } from '../theme/theme.ts';

/** What the owner reads above her notes. */
export const NOTES_PRIVACY =
  'Only you see these notes. When you copy this artifact to a shared portfolio you may include them as your comments.';

const Section = styled.section`
  display: flex;
  flex-direction: column;
  gap: ${theme.space.md};
  margin-top: ${theme.space.lg};
  h3,
  h4 {
    margin: 0;
    font-size: ${theme.font.size.lg};
  }
`;

const List = styled.ol`
  ${stackedListStyle}
`;

const Item = styled.li`
  display: flex;
  flex-wrap: wrap;
  align-items: baseline;
  gap: ${theme.space.sm} ${theme.space.md};
  ${cardStyle}
  p {
    flex: 1 1 16rem;
    margin: 0;
    white-space: pre-wrap;
    overflow-wrap: anywhere;
  }
  &[aria-current='true'] {
    border-color: ${theme.color.primary};
    box-shadow: inset 4px 0 0 ${theme.color.primary};
  }
`;

const Alert = styled.p`
  margin: 0;
  color: ${theme.color.danger};
`;

/** The marks of one video: the owner's notes at its moments. */
export const noteMarks = (media: number, notes: readonly Note[]): MomentMark[] =>
  notes
    .filter((n) => n.media === media)
    .map((n) => ({ kind: 'note', id: n.id, start: n.start, end: n.end, who: 'You' }));

/** One note: its time (plays the video from there), its text, and Delete. */
function NoteItem({
  note,
  videos,
  busy,
  onDelete,
}: {
  note: Note;
  videos: readonly Media[];
  busy: boolean;
  onDelete: () => void;
}) {
  const moments = useMomentThread();
  const highlighted = useIsHighlighted(note.id);
  const video = videos.find((v) => v.id === note.media);
  const where = video && videos.length > 1 ? ` in ${videoLabel(video, videos)}` : '';
  const at = formatMoment(note);
  return (
    <Item aria-current={highlighted || undefined} aria-label={`Note at ${at}${where}`}>
      <Button
        type="button"
        $variant="link"
        aria-label={`Play from ${at}${where}`}
        onClick={() => {
          moments?.seekTo(note.media, note.start);
          moments?.composer.send({ type: 'thread.highlight', commentId: note.id });
        }}
      >
        <span aria-hidden="true">▶ </span>
        {at}
        {where}
      </Button>
      <p>{note.text}</p>
      <Button
        type="button"
        $variant="secondary"
        $small
        disabled={busy}
        onClick={onDelete}
        aria-label={`Delete note at ${at}${where}`}
      >
        Delete
      </Button>
    </Item>
  );
}

/**
 * The videos of the owner's own artifact with her private notes at their moments: each video's
 * timeline shows the notes, "Note at 1:05" pauses it and opens the note box, and the notes are
 * listed by video and time (a note's time plays the video from there; Delete removes it).
 */
export function PersonalVideoMoments({
  artifactId,
  videos,
  headingLevel = 3,
}: {
  artifactId: number;
  videos: readonly Media[];
  headingLevel?: 3 | 4;
}) {
  const notesRef = useArtifactNotesActor(artifactId);
  const { status, notes, deletingId, error } = useArtifactNotes(notesRef);
  const { refresh, remove, retry } = useArtifactNotesEvents(notesRef);
  const onPosted = useCallback(() => refresh(), [refresh]);
  const composer = useMomentCommentActor({ artifactId, target: 'note', highlight: null }, onPosted);
  const sorted = useMemo(() => [...videos].sort(byCaption), [videos]);
  const headingId = useId();
  const Heading = headingLevel === 3 ? 'h3' : 'h4';
  return (
    <MomentThreadProvider composer={composer} videos={sorted}>
      <Section aria-labelledby={headingId} aria-busy={status === 'deleting' || undefined}>
        <Heading id={headingId}>My private notes on {sorted.length === 1 ? 'the video' : 'the videos'}</Heading>
        <MutedText>{NOTES_PRIVACY}</MutedText>
        {sorted.map((video) => (
          <VideoMoments
            key={video.id}
            media={video}
            holder={{ kind: 'artifact', artifactId }}
            marks={noteMarks(video.id, notes)}
            startAt={null}
            canComment
            canCaption
            noun="Note"
          />
        ))}
        {status === 'loading' && notes.length === 0 ? <MutedText role="status">Loading notes…</MutedText> : null}
        {status === 'failed' ? (
          <LoadFailed what="The notes could not be loaded." message={error?.message} onRetry={retry} box={Alert} />
        ) : null}
        {status !== 'failed' && error ? <Alert role="alert">{error.message}</Alert> : null}
        {status !== 'failed' && notes.length > 0 ? (
          <List aria-label="My notes">
            {notes.map((note) => (
              <NoteItem
                key={note.id}
                note={note}
                videos={sorted}
                busy={status !== 'ready' || deletingId !== null}
                onDelete={() => remove(note.id)}
              />
            ))}
          </List>
        ) : null}
        {status === 'ready' && notes.length === 0 ? (
          <MutedText>No notes yet. Play a video and choose “Note at” to write one.</MutedText>
        ) : null}
      </Section>
    </MomentThreadProvider>
  );
}
