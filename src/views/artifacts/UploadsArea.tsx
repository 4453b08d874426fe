import { useId, useState, type DragEvent } from 'react';
import styled from 'styled-components';
import { mediaLabel } from '../../machines/artifactLifecycle/artifactSelectors.ts';
import type { UploadQueueRef } from '../../machines/upload/uploadQueueMachine.ts';
import { useMediaText, useMediaTextActor } from '../../machines/mediaText/useMediaText.ts';
import type { Media, MediaKind } from '../../schemas/media.ts';
import {
  useQueuedArtifact,
  useQueuedMedia,
  useRememberedUploads,
  useRemoval,
  useUploadQueueEvents,
  useUploadRows,
} from '../../machines/upload/useUploads.ts';
import { Button } from '../components/Button.tsx';
import { ConfirmDialog } from '../components/Dialog.tsx';
import { MediaLink, MediaTileContent, orderedMedia, Tile, Tiles } from './MediaList.tsx';
import { MediaTextEditor } from './MediaTextEditor.tsx';
import { RememberedRows, Rows, UploadRowView } from './UploadRows.tsx';
import { theme } from '../theme/theme.ts';

/** The question asked before a file is removed (reference §6.3). */
export const REMOVE_FILE_QUESTION = 'Are you sure you want to delete this file?';

const Zone = styled.div<{ $active: boolean }>`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  justify-content: center;
  gap: ${theme.space.sm} ${theme.space.md};
  padding: ${theme.space.lg};
  margin-bottom: ${theme.space.md};
  border: 2px dashed ${({ $active }) => ($active ? theme.color.primary : theme.color.borderStrong)};
  border-radius: ${theme.radius.md};
  background: ${({ $active }) => ($active ? '#e8f1f8' : theme.color.surface)};
  text-align: center;
  &:focus-within {
    outline: 3px solid ${theme.color.focus};
    outline-offset: 2px;
  }
`;

const ChooseLabel = styled.label`
  display: inline-flex;
  align-items: center;
  min-height: 40px;
  padding: 0 ${theme.space.md};
  border-radius: ${theme.radius.sm};
  background: ${theme.color.primary};
  color: ${theme.color.primaryText};
  font-weight: ${theme.font.weight.medium};
  cursor: pointer;
  &:hover {
    background: ${theme.color.primaryHover};
  }
`;

const Hint = styled.span`
  color: ${theme.color.textMuted};
`;

const MediaActions = styled.div`
  display: flex;
  justify-content: flex-start;
`;

/** One file of the artifact: its tile (its alt text as saved), Delete, and its alt text and description. */
function FileTile({
  kind,
  media,
  holder,
  artifactTitle,
  disabled,
  onRemove,
}: {
  kind: MediaKind;
  media: Media;
  holder: { kind: 'artifact' | 'sharedArtifact'; artifactId: number };
  artifactTitle: string;
  disabled: boolean;
  onRemove: () => void;
}) {
  const editor = useMediaTextActor({ holder, kind, media });
  const { media: saved } = useMediaText(editor);
  // The texts as the editor last saved them; the picture as the list has it (a video's poster
  // arrives after its upload).
  const current = { ...saved, formats: media.formats, width: media.width, height: media.height };
  return (
    <Tile>
      <MediaLink kind={kind} media={current} artifactTitle={artifactTitle}>
        <MediaTileContent kind={kind} media={current} />
      </MediaLink>
      <MediaActions>
        <Button
          type="button"
          $small
          $variant="secondary"
          disabled={disabled}
          onClick={onRemove}
          aria-label={`Delete ${mediaLabel(current)}`}
        >
          Delete
        </Button>
      </MediaActions>
      <MediaTextEditor editor={editor} kind={kind} disabled={disabled} />
    </Tile>
  );
}

/**
 * The uploads area of the edit page: choose files (or drop them here); each becomes a row with
 * its progress, its failure (and Retry), until dismissed. The artifact's files are listed with
 * their captions and a Delete button that asks first.
 */
export function UploadsArea({
  queue,
  artifactTitle,
  disabled = false,
}: {
  queue: UploadQueueRef;
  /** The artifact's title (the viewers link back to it). */
  artifactTitle: string;
  /** While the form is locked. */
  disabled?: boolean;
}) {
  const inputId = useId();
  const hintId = useId();
  const media = useQueuedMedia(queue);
  const holder = useQueuedArtifact(queue);
  const rows = useUploadRows(queue);
  const removal = useRemoval(queue);
  const remembered = useRememberedUploads(queue);
  const { addFiles, remove, confirmRemove, cancelRemove, forgetRemembered } = useUploadQueueEvents(queue);
  const [dragging, setDragging] = useState(false);
  const files = orderedMedia(media);

  const handleDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    if (!disabled && event.dataTransfer.files.length > 0) addFiles([...event.dataTransfer.files]);
  };
  const handleDragOver = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    if (!dragging) setDragging(true);
  };

  return (
    <div>
      <Zone $active={dragging} onDragOver={handleDragOver} onDragLeave={() => setDragging(false)} onDrop={handleDrop}>
        <input
          id={inputId}
          className="visually-hidden"
          type="file"
          multiple
          disabled={disabled}
          aria-describedby={hintId}
          onChange={(event) => {
            const chosen = [...(event.target.files ?? [])];
            // Clear the input so choosing the same file again (after a failure) is noticed.
            event.target.value = '';
            if (chosen.length > 0) addFiles(chosen);
          }}
        />
        <ChooseLabel htmlFor={inputId}>Choose files</ChooseLabel>
        <Hint id={hintId}>
          or drop photos, videos or documents here. Files are uploaded one at a time; an upload that stops goes on from
          where it was.
        </Hint>
      </Zone>
      <RememberedRows uploads={remembered} onDiscard={forgetRemembered} />
      {rows.length > 0 ? (
        <Rows aria-label="Uploads">
          {rows.map((row) => (
            <UploadRowView key={row.id} upload={row.ref} />
          ))}
        </Rows>
      ) : null}
      {files.length === 0 ? (
        <p>No files have been uploaded.</p>
      ) : (
        <Tiles aria-label="Uploaded files">
          {files.map(({ kind, media: m }) => (
            <FileTile
              key={`${kind}-${m.id}`}
              kind={kind}
              media={m}
              holder={holder}
              artifactTitle={artifactTitle}
              disabled={disabled || removal.busy}
              onRemove={() => remove(kind, m.id)}
            />
          ))}
        </Tiles>
      )}
      {removal.target ? (
        <ConfirmDialog
          title="Delete File"
          message={
            <>
              <p>{REMOVE_FILE_QUESTION}</p>
              <p>{mediaLabel(removal.target.media)}</p>
            </>
          }
          onConfirm={confirmRemove}
          onCancel={cancelRemove}
          busy={removal.busy}
        />
      ) : null}
    </div>
  );
}
