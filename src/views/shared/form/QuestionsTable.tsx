import { memo, useCallback, useEffect, useRef } from 'react';
import styled from 'styled-components';
import {
  choicesTextOf,
  isChoiceType,
  isLocked,
  type BonusRow,
  type QuestionErrors,
  type TemplateRow,
} from '../../../machines/sharedPortfolioForm/sharedForm.ts';
import {
  useFormErrors,
  useQuestionRows,
  useSharedPortfolioFormEvents,
} from '../../../machines/sharedPortfolioForm/useSharedPortfolioForm.ts';
import { BONUS_TYPES } from '../../../schemas/sharedPortfolio.ts';
import { STANDARDS_PANELS } from '../../../schemas/standards.ts';
import type { QuestionType } from '../../../schemas/structure.ts';
import { Button } from '../../components/Button.tsx';
import { ChipList } from '../../components/Chip.tsx';
import { FieldError, inputStyles } from '../../components/Field.tsx';
import { Switch } from '../../components/Switch.tsx';
import { phoneCards, useColumnLabels } from '../../components/phoneCards.ts';
import { TextArea } from '../../components/TextAreaField.tsx';
import { theme } from '../../theme/theme.ts';
import { panelStyle } from '../../components/cardStyles.ts';

/** How each question type is named in the table (reference §10.2). */
export const QUESTION_TYPE_LABELS: Record<QuestionType, string> = {
  singleSelection: 'Single Selection',
  multipleResponse: 'Multiple Response',
  shortText: 'Short Text',
  longText: 'Long Text',
  number: 'Number',
  fileUpload: 'File Upload',
  expansionPanelChoices: 'Multiple Response',
};

/** The responses shown for the template's file question. */
export const FILE_UPLOAD_RESPONSES = 'Photo, Video, Document';

export const CORE_DESCRIPTION = 'Core questions are always included.';

const Scroll = styled.div`
  width: 100%;
  overflow-x: auto;
  ${panelStyle}
`;

const Table = styled.table`
  width: 100%;
  min-width: 680px;
  border-collapse: collapse;
  th {
    padding: 12px ${theme.space.md};
    background: ${theme.color.surfaceAlt};
    border-bottom: 1px solid ${theme.color.border};
    font-size: ${theme.font.size.sm};
    letter-spacing: 0.04em;
    text-transform: uppercase;
    text-align: start;
  }
  td {
    padding: 10px ${theme.space.md};
    vertical-align: top;
    border-bottom: 1px solid ${theme.color.border};
    overflow-wrap: anywhere;
  }
  tbody tr:last-child > td {
    border-bottom: none;
  }
  tr[data-bonus] > td {
    background: ${theme.color.background};
  }
  /* On phones each question is a card: its type, choices and their messages in view. */
  ${phoneCards}
`;

const Core = styled.span`
  display: inline-block;
  margin-left: ${theme.space.sm};
  padding: 0 ${theme.space.xs};
  border-radius: ${theme.radius.sm};
  background: ${theme.color.surfaceAlt};
  color: ${theme.color.textMuted};
  font-size: ${theme.font.size.xs};
  font-weight: ${theme.font.weight.bold};
  text-transform: uppercase;
`;

const Select = styled.select<{ $invalid: boolean }>`
  ${inputStyles}
  width: 100%;
  border: 1px solid ${({ $invalid }) => ($invalid ? theme.color.danger : theme.color.borderStrong)};
`;

const DeleteButton = styled.button`
  display: inline-flex;
  align-items: center;
  justify-content: center;
  width: 36px;
  height: 36px;
  border: 1px solid ${theme.color.border};
  border-radius: ${theme.radius.sm};
  background: ${theme.color.surface};
  color: ${theme.color.danger};
  cursor: pointer;
  &:hover:not(:disabled) {
    border-color: ${theme.color.danger};
  }
  &:disabled {
    opacity: 0.55;
    cursor: not-allowed;
  }
`;

const AddRow = styled.div`
  margin-top: ${theme.space.md};
`;

const Muted = styled.span`
  color: ${theme.color.textMuted};
`;

function TrashIcon() {
  return (
    <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path fill="currentColor" d="M9 3h6l1 2h4v2H4V5h4l1-2zm-3 6h12l-1 12H7L6 9zm4 2v8h2v-8h-2zm4 0v8h2v-8h-2z" />
    </svg>
  );
}

/** What a template question's Responses cell shows. */
function TemplateResponses({ row }: { row: TemplateRow }) {
  const { question } = row;
  if (question.type === 'fileUpload') return <>{FILE_UPLOAD_RESPONSES}</>;
  if (question.type === 'expansionPanelChoices') {
    return <ChipList label={`Responses: ${question.text}`} items={STANDARDS_PANELS.map((p) => p.panel)} />;
  }
  if (question.choices && question.choices.length > 0)
    return <ChipList label={`Responses: ${question.text}`} items={question.choices} />;
  return null;
}

const TemplateQuestionRow = memo(function TemplateQuestionRow({
  row,
  disabled,
}: {
  row: TemplateRow;
  disabled: boolean;
}) {
  const { toggleQuestion } = useSharedPortfolioFormEvents();
  const locked = isLocked(row);
  return (
    <tr data-key={row.key}>
      <td>
        <Switch
          checked={row.included || locked}
          label={`Include: ${row.question.text}`}
          disabled={locked || disabled}
          description={locked ? CORE_DESCRIPTION : undefined}
          onChange={(included) => toggleQuestion(row.key, included)}
        />
      </td>
      <td>
        {row.question.text}
        {locked ? <Core>Core</Core> : null}
      </td>
      <td>{QUESTION_TYPE_LABELS[row.question.type]}</td>
      <td>
        <TemplateResponses row={row} />
      </td>
    </tr>
  );
});

const BonusQuestionRow = memo(function BonusQuestionRow({
  row,
  number,
  errors,
  disabled,
  onRemoved,
}: {
  row: BonusRow;
  number: number;
  errors: QuestionErrors | undefined;
  disabled: boolean;
  onRemoved: () => void;
}) {
  const { changeQuestion, removeQuestion } = useSharedPortfolioFormEvents();
  const name = `team question ${number}`;
  const ids = { text: `${row.key}-text`, type: `${row.key}-type`, choices: `${row.key}-choices` };
  const errorId = (field: keyof QuestionErrors) => (errors?.[field] ? `${ids[field]}-error` : undefined);
  return (
    <tr data-key={row.key} data-bonus="">
      <td>
        <DeleteButton
          type="button"
          aria-label={`Delete ${name}`}
          title={`Delete ${name}`}
          disabled={disabled}
          onClick={() => {
            removeQuestion(row.key);
            onRemoved();
          }}
        >
          <TrashIcon />
        </DeleteButton>
      </td>
      <td>
        <label htmlFor={ids.text} className="visually-hidden">
          {`Text of ${name}`}
        </label>
        <TextArea
          id={ids.text}
          data-question-text=""
          rows={2}
          value={row.text}
          disabled={disabled}
          $invalid={Boolean(errors?.text)}
          aria-invalid={errors?.text ? true : undefined}
          aria-describedby={errorId('text')}
          onChange={(e) => changeQuestion(row.key, 'text', e.target.value)}
        />
        {errors?.text ? <FieldError id={errorId('text')}>{errors.text}</FieldError> : null}
      </td>
      <td>
        <label htmlFor={ids.type} className="visually-hidden">
          {`Type of ${name}`}
        </label>
        <Select
          id={ids.type}
          value={row.type}
          disabled={disabled}
          $invalid={Boolean(errors?.type)}
          aria-invalid={errors?.type ? true : undefined}
          aria-describedby={errorId('type')}
          onChange={(e) => changeQuestion(row.key, 'type', e.target.value)}
        >
          <option value="" disabled>
            Question Type
          </option>
          {BONUS_TYPES.map((type) => (
            <option key={type} value={type}>
              {QUESTION_TYPE_LABELS[type]}
            </option>
          ))}
        </Select>
        {errors?.type ? <FieldError id={errorId('type')}>{errors.type}</FieldError> : null}
      </td>
      <td>
        {isChoiceType(row.type) ? (
          <>
            <label htmlFor={ids.choices} className="visually-hidden">
              {`Choices of ${name} (separated by commas)`}
            </label>
            <TextArea
              id={ids.choices}
              rows={2}
              placeholder="Choices, separated by commas"
              value={choicesTextOf(row)}
              disabled={disabled}
              $invalid={Boolean(errors?.choices)}
              aria-invalid={errors?.choices ? true : undefined}
              aria-describedby={errorId('choices')}
              onChange={(e) => changeQuestion(row.key, 'choices', e.target.value)}
            />
            {errors?.choices ? <FieldError id={errorId('choices')}>{errors.choices}</FieldError> : null}
          </>
        ) : (
          <Muted>{row.type === '' ? 'Choose a type' : 'No choices needed'}</Muted>
        )}
      </td>
    </tr>
  );
});

/**
 * The Questions table: every template question with a switch (core ones locked on), then the
 * team's questions with their text, type and (for choice types) comma-separated choices, and an
 * Add Question button.
 */
export const QuestionsTable = memo(function QuestionsTable({
  disabled,
}: {
  /** While saving or deleting. */ disabled: boolean;
}) {
  const rows = useQuestionRows();
  const errors = useFormErrors();
  const { addQuestion } = useSharedPortfolioFormEvents();
  const table = useRef<HTMLTableElement>(null);
  useColumnLabels(table);
  const addButton = useRef<HTMLButtonElement>(null);
  const bonusCount = rows.filter((row) => row.kind === 'bonus').length;
  const previousCount = useRef(bonusCount);
  const focusAddButton = useCallback(() => addButton.current?.focus(), []);

  // A question just added gets the focus, so the user can type its text at once.
  useEffect(() => {
    if (bonusCount > previousCount.current) {
      const fields = table.current?.querySelectorAll<HTMLTextAreaElement>('textarea[data-question-text]');
      fields?.[fields.length - 1]?.focus();
    }
    previousCount.current = bonusCount;
  }, [bonusCount]);

  const numbers = new Map(rows.filter((row) => row.kind === 'bonus').map((row, index) => [row.key, index + 1]));
  return (
    <>
      <Scroll role="region" aria-label="Questions" tabIndex={0}>
        <Table ref={table}>
          <caption className="visually-hidden">Questions</caption>
          <colgroup>
            <col style={{ width: '96px' }} />
            <col />
            <col style={{ width: '22%' }} />
            <col style={{ width: '30%' }} />
          </colgroup>
          <thead>
            <tr>
              <th scope="col">Include</th>
              <th scope="col">Question</th>
              <th scope="col">Type</th>
              <th scope="col">Responses</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => {
              if (row.kind === 'template') return <TemplateQuestionRow key={row.key} row={row} disabled={disabled} />;
              return (
                <BonusQuestionRow
                  key={row.key}
                  row={row}
                  number={numbers.get(row.key)!}
                  errors={errors.questions[row.key]}
                  disabled={disabled}
                  onRemoved={focusAddButton}
                />
              );
            })}
          </tbody>
        </Table>
      </Scroll>
      <AddRow>
        <Button ref={addButton} type="button" $variant="secondary" onClick={addQuestion} disabled={disabled}>
          Add Question
        </Button>
      </AddRow>
    </>
  );
});
