import { useId } from 'react';
import styled from 'styled-components';
import { fieldsSentence, fieldTitle, peopleSentence } from '../../../machines/sharedArtifactSave/mergeSources.ts';
import type { SharedArtifactSaveRef } from '../../../machines/sharedArtifactSave/sharedArtifactSaveMachine.ts';
import type { FieldChoice, FieldConflict } from '../../../machines/sharedArtifactSave/threeWayMerge.ts';
import { useMergeConflict, useMergeEvents } from '../../../machines/sharedArtifactSave/useSharedArtifactSave.ts';
import type { Question, ResponseValue, Structure } from '../../../schemas/structure.ts';
import { Button } from '../../components/Button.tsx';
import { Dialog, DialogActions } from '../../components/Dialog.tsx';
import { TextArea } from '../../components/TextAreaField.tsx';
import { theme } from '../../theme/theme.ts';

const Field = styled.fieldset`
  border: 1px solid ${theme.color.border};
  border-radius: ${theme.radius.md};
  padding: ${theme.space.md};
  margin: ${theme.space.md} 0 0;
  min-width: 0;
  legend {
    font-weight: ${theme.font.weight.bold};
    padding: 0 ${theme.space.xs};
  }
`;

/** Before, theirs and mine side by side; stacked on a phone. */
const Sides = styled.div`
  display: grid;
  grid-template-columns: repeat(3, minmax(0, 1fr));
  gap: ${theme.space.sm};
  @media ${theme.media.phone} {
    grid-template-columns: 1fr;
  }
`;

const Side = styled.section`
  background: ${theme.color.surfaceAlt};
  border-radius: ${theme.radius.sm};
  padding: ${theme.space.sm};
  h3 {
    font-size: ${theme.font.size.sm};
    color: ${theme.color.textMuted};
    margin: 0 0 ${theme.space.xs};
  }
  p {
    white-space: pre-wrap;
    overflow-wrap: anywhere;
    margin: 0;
  }
`;

const Choices = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: ${theme.space.sm} ${theme.space.lg};
  margin-top: ${theme.space.sm};
  label {
    display: inline-flex;
    align-items: center;
    gap: ${theme.space.xs};
    min-height: 44px;
  }
`;

/** An answer as text: choices joined, '(no answer)' when there is none. */
export function answerText(value: ResponseValue | undefined): string {
  if (value === undefined) return '(no answer)';
  return Array.isArray(value) ? value.join(', ') : String(value);
}

/** Only text answers can be written anew; choices and numbers are kept as one side has them. */
const editable = (question: Question | undefined, conflict: FieldConflict) =>
  (question === undefined || question.type === 'shortText' || question.type === 'longText') &&
  [conflict.mine, conflict.theirs].every((v) => v === undefined || typeof v === 'string');

function ConflictField({
  conflict,
  questions,
  theirName,
  choice,
  onChoose,
}: {
  conflict: FieldConflict;
  questions: Structure;
  theirName: string;
  choice: FieldChoice | undefined;
  onChoose: (choice: FieldChoice) => void;
}) {
  const name = useId();
  const title = fieldTitle(conflict.key, questions);
  const question = questions.find((q) => q.key === conflict.key);
  const mineText = typeof conflict.mine === 'string' ? conflict.mine : '';
  const options: { pick: FieldChoice['pick']; label: string }[] = [
    { pick: 'theirs', label: 'Keep theirs' },
    { pick: 'mine', label: 'Keep mine' },
    ...(editable(question, conflict) ? [{ pick: 'edit' as const, label: 'Edit' }] : []),
  ];
  return (
    <Field>
      <legend>{title}</legend>
      <Sides>
        <Side aria-label={`${title}: before`}>
          <h3>Before</h3>
          <p>{answerText(conflict.base)}</p>
        </Side>
        <Side aria-label={`${title}: theirs`}>
          <h3>Theirs ({theirName})</h3>
          <p>{answerText(conflict.theirs)}</p>
        </Side>
        <Side aria-label={`${title}: mine`}>
          <h3>Mine</h3>
          <p>{answerText(conflict.mine)}</p>
        </Side>
      </Sides>
      <Choices role="radiogroup" aria-label={`Keep for ${title}`}>
        {options.map((option) => (
          <label key={option.pick}>
            <input
              type="radio"
              name={name}
              checked={choice?.pick === option.pick}
              onChange={() =>
                onChoose(option.pick === 'edit' ? { pick: 'edit', value: mineText } : { pick: option.pick })
              }
            />
            {option.label}
          </label>
        ))}
      </Choices>
      {choice?.pick === 'edit' ? (
        <TextArea
          aria-label={`Your text for ${title}`}
          value={choice.value}
          maxLength={question?.type === 'shortText' ? 255 : undefined}
          onChange={(e) => onChoose({ pick: 'edit', value: e.target.value })}
        />
      ) : null}
    </Field>
  );
}

/**
 * 'Edit Conflict': someone saved the shared artifact after it was opened and both changed some of
 * the same answers. Each such answer shows before, theirs and mine side by side, and the person
 * keeps theirs, mine or writes it anew; Save saves the merged answers (with every field only they
 * changed), Cancel (or Escape) goes back to the form with the edits unsaved.
 */
export function MergeConflictDialog({
  saveRef,
  questions,
}: {
  /** The running save of the shared artifact. */ saveRef: SharedArtifactSaveRef | undefined;
  questions: Structure;
}) {
  const conflict = useMergeConflict(saveRef);
  const { choose, save, cancel } = useMergeEvents(saveRef);
  if (conflict === null) return null;
  const { merge, choices, complete } = conflict;
  const them = peopleSentence(merge.people);
  const kept = merge.result.fromTheirs;
  // In question order, as the form shows them.
  const position = (key: string) => {
    const index = questions.findIndex((q) => q.key === key);
    return index < 0 ? questions.length : index;
  };
  const conflicts = [...merge.result.conflicts].sort((a, b) => position(a.key) - position(b.key));
  return (
    <Dialog title="Edit Conflict" role="alertdialog" onClose={cancel} wide fullOnPhone>
      <p>
        {them} saved this artifact after you opened it, and you both changed{' '}
        {merge.result.conflicts.length === 1 ? 'this answer' : 'these answers'}. Choose what to keep for each.
        {kept.length > 0 ? ` Their changes to ${fieldsSentence(kept, questions)} are kept as well.` : ''}
      </p>
      {conflicts.map((c) => (
        <ConflictField
          key={c.key}
          conflict={c}
          questions={questions}
          theirName={them}
          choice={choices[c.key]}
          onChoose={(choice) => choose(c.key, choice)}
        />
      ))}
      <DialogActions>
        <Button type="button" $variant="secondary" onClick={cancel}>
          Cancel
        </Button>
        <Button type="button" onClick={save} disabled={!complete}>
          Save
        </Button>
      </DialogActions>
    </Dialog>
  );
}
