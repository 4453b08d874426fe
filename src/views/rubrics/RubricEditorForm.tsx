import { useEffect, useId, useRef, type FormEvent } from 'react';
import styled from 'styled-components';
import type { DraftErrors, RubricDraft } from '../../machines/rubricEditor/rubricDraft.ts';
import type { RubricEditorRef } from '../../machines/rubricEditor/rubricEditorMachine.ts';
import {
  useRubricEditorEvents,
  useRubricEditorStatus,
  useRubricEditorValue,
} from '../../machines/rubricEditor/useRubricEditor.ts';
import { RUBRIC_CRITERIA_MAX, RUBRIC_DESCRIPTION_MAX, RUBRIC_NAME_MAX } from '../../schemas/rubrics.ts';
import { BusyButton } from '../components/BusyButton.tsx';
import { Button } from '../components/Button.tsx';
import { ErrorSummary, type SummaryItem } from '../components/ErrorSummary.tsx';
import { FieldError, TextField } from '../components/Field.tsx';
import { TextAreaField } from '../components/TextAreaField.tsx';
import { theme } from '../theme/theme.ts';
import { CriterionFields, fieldId } from './CriterionFields.tsx';

const Form = styled.form`
  min-width: 0;
  h3 {
    margin: 0 0 ${theme.space.sm};
    font-size: ${theme.font.size.lg};
  }
  h4 {
    margin: ${theme.space.sm} 0;
    font-size: ${theme.font.size.md};
  }
`;

const Actions = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: ${theme.space.sm};
  margin-top: ${theme.space.md};
`;

const Note = styled.p`
  padding: ${theme.space.sm} ${theme.space.md};
  border-left: 4px solid ${theme.color.primary};
  background: ${theme.color.surface};
`;

/** Where a message of the server's checks belongs, in words: "Criterion 2, level 1". */
function placeOf(path: string): string {
  const [, c, , l] = path.split('.');
  if (c === undefined) return '';
  const criterion = `Criterion ${Number(c) + 1}`;
  return l === undefined ? `${criterion}: ` : `${criterion}, level ${Number(l) + 1}: `;
}

/** The summary's lines: one per message, linked to its field where the field has an id. */
function summaryItems(prefix: string, errors: DraftErrors): SummaryItem[] {
  return Object.entries(errors).map(([path, message]) => {
    const linked = path === 'name' || /\.(code|label|score|levels)$/.test(path);
    return { message: `${placeOf(path)}${message}`, ...(linked ? { target: fieldId(prefix, path) } : {}) };
  });
}

/**
 * The rubric being created or edited: its name and description, its criteria, and Save. Editing a
 * rubric that scores use makes its next version (the scores keep the version they were given with).
 */
export function RubricEditorForm({ editor, draft }: { editor: RubricEditorRef; draft: RubricDraft }) {
  const on = useRubricEditorEvents(editor);
  const status = useRubricEditorStatus(editor);
  const editing = useRubricEditorValue(editor, 'editing');
  const errors = useRubricEditorValue(editor, 'errors');
  const error = useRubricEditorValue(editor, 'error');
  const prefix = useId().replace(/:/g, '');
  const summary = useRef<HTMLDivElement>(null);
  const saving = status === 'saving';
  const items = summaryItems(prefix, errors);
  const refused = items.length > 0 || error !== null;
  useEffect(() => {
    if (refused) summary.current?.querySelector<HTMLElement>('[data-error-summary]')?.focus();
  }, [refused]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    on.save();
  };
  return (
    <Form aria-labelledby={`${prefix}-title`} aria-busy={saving} onSubmit={submit} noValidate>
      <h3 id={`${prefix}-title`}>{editing ? `Edit “${editing.name}”` : 'New rubric'}</h3>
      {editing?.used ? (
        <Note>
          Scores were given with this rubric. Saving makes version {editing.version + 1}; the scores given so far keep
          version {editing.version}.
        </Note>
      ) : null}
      <div ref={summary}>
        {items.length > 0 ? (
          <ErrorSummary lead="The rubric was not saved. Please fix:" items={items} />
        ) : error ? (
          <ErrorSummary lead={error.message} items={[]} />
        ) : null}
      </div>
      <TextField
        id={fieldId(prefix, 'name')}
        label="Name"
        value={draft.name}
        maxLength={RUBRIC_NAME_MAX}
        error={errors.name}
        onChange={(e) => on.change({ field: 'name' }, e.target.value)}
      />
      <TextAreaField
        label="Description (optional)"
        value={draft.description}
        maxLength={RUBRIC_DESCRIPTION_MAX}
        rows={2}
        error={errors.description}
        onChange={(e) => on.change({ field: 'description' }, e.target.value)}
      />
      {draft.criteria.map((criterion, index) => (
        <CriterionFields
          key={criterion.key}
          editor={editor}
          prefix={prefix}
          index={index}
          count={draft.criteria.length}
          criterion={criterion}
          errors={errors}
        />
      ))}
      {errors.criteria ? <FieldError>{errors.criteria}</FieldError> : null}
      <Actions>
        <Button
          type="button"
          $variant="secondary"
          disabled={draft.criteria.length >= RUBRIC_CRITERIA_MAX}
          onClick={on.addCriterion}
        >
          Add a criterion
        </Button>
      </Actions>
      <Actions>
        <BusyButton type="submit" busy={saving} busyLabel="Saving the rubric…">
          Save rubric
        </BusyButton>
        <Button type="button" $variant="secondary" disabled={saving} onClick={on.cancel}>
          Cancel
        </Button>
      </Actions>
    </Form>
  );
}
