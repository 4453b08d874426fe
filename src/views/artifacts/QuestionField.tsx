import { useId, type KeyboardEvent, type ReactNode } from 'react';
import styled from 'styled-components';
import type { DraftValue } from '../../machines/artifactLifecycle/draft.ts';
import { LONG_TEXT_MAX, numberBounds, SHORT_TEXT_MAX } from '../../schemas/responses.ts';
import type { Question } from '../../schemas/structure.ts';
import { Checkbox, Fieldset } from '../components/Checkbox.tsx';
import { FieldError, FieldWrap, Input, inputStyles, Label } from '../components/Field.tsx';
import { StandardsPanels } from './StandardsPanels.tsx';
import { theme } from '../theme/theme.ts';

const TextArea = styled.textarea<{ $invalid?: boolean }>`
  ${inputStyles}
  width: 100%;
  min-height: 120px;
  resize: vertical;
  border: 1px solid ${({ $invalid }) => ($invalid ? theme.color.danger : theme.color.borderStrong)};
`;

const Select = styled.select<{ $invalid?: boolean }>`
  ${inputStyles}
  width: 100%;
  border: 1px solid ${({ $invalid }) => ($invalid ? theme.color.danger : theme.color.borderStrong)};
`;

const NumberInput = styled(Input)`
  max-width: 12rem;
`;

const Required = styled.span`
  color: ${theme.color.danger};
  margin-left: ${theme.space.xxs};
`;

/** The mark of a core question (explained once at the top of the form). */
export function CoreMark() {
  return <Required aria-hidden="true">*</Required>;
}

export interface QuestionFieldProps {
  question: Question;
  /** The answer as the form holds it. */
  value: DraftValue | undefined;
  /** The question's problem, shown under it. */
  error?: string | undefined;
  onChange: (value: DraftValue) => void;
  disabled?: boolean;
}

const asText = (value: DraftValue | undefined): string => (typeof value === 'string' ? value : '');
const asList = (value: DraftValue | undefined): string[] => (Array.isArray(value) ? value : []);

/** Keys a number answer may take: digits, and keys that move, delete or use shortcuts. */
function keepDigits(event: KeyboardEvent<HTMLInputElement>): void {
  if (event.key.length === 1 && !/^[0-9]$/.test(event.key) && !event.ctrlKey && !event.metaKey && !event.altKey)
    event.preventDefault();
}

/** A question's problem under it; `live`: told as it appears while typing (a number out of bounds). */
function ErrorText({ id, error, live = false }: { id: string; error: string | undefined; live?: boolean }) {
  if (live)
    return (
      <FieldError id={id} aria-live="polite">
        {error ?? ''}
      </FieldError>
    );
  return error ? <FieldError id={id}>{error}</FieldError> : null;
}

function questionLabel(q: Question): ReactNode {
  return (
    <>
      {q.text || q.key}
      {q.core ? <CoreMark /> : null}
    </>
  );
}

/**
 * One question of an artifact as a form field, by type: short text, long text, a single choice
 * (select), several choices (checkboxes), a whole number (digits only, within the question's
 * bounds, checked as typed), or the NGSS standards panels. File questions are answered in the
 * uploads area and render nothing here.
 */
export function QuestionField({ question: q, value, error, onChange, disabled = false }: QuestionFieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  const invalid = Boolean(error);
  const described = { 'aria-invalid': invalid || undefined, 'aria-describedby': invalid ? errorId : undefined };
  switch (q.type) {
    case 'shortText':
      return (
        <FieldWrap>
          <Label htmlFor={id}>{questionLabel(q)}</Label>
          <Input
            id={id}
            name={q.key}
            type="text"
            maxLength={SHORT_TEXT_MAX}
            value={asText(value)}
            disabled={disabled}
            $invalid={invalid}
            {...described}
            onChange={(e) => onChange(e.target.value)}
          />
          <ErrorText id={errorId} error={error} />
        </FieldWrap>
      );
    case 'longText':
      return (
        <FieldWrap>
          <Label htmlFor={id}>{questionLabel(q)}</Label>
          <TextArea
            id={id}
            name={q.key}
            maxLength={LONG_TEXT_MAX}
            value={asText(value)}
            disabled={disabled}
            $invalid={invalid}
            {...described}
            onChange={(e) => onChange(e.target.value)}
          />
          <ErrorText id={errorId} error={error} />
        </FieldWrap>
      );
    case 'singleSelection': {
      const current = asText(value);
      const choices = q.choices ?? [];
      // An answer given before the choices changed stays visible rather than silently lost.
      const options = current && !choices.includes(current) ? [...choices, current] : choices;
      return (
        <FieldWrap>
          <Label htmlFor={id}>{questionLabel(q)}</Label>
          <Select
            id={id}
            name={q.key}
            value={current}
            disabled={disabled}
            $invalid={invalid}
            {...described}
            onChange={(e) => onChange(e.target.value)}
          >
            <option value="">Select an option</option>
            {options.map((choice) => (
              <option key={choice} value={choice}>
                {choice}
              </option>
            ))}
          </Select>
          <ErrorText id={errorId} error={error} />
        </FieldWrap>
      );
    }
    case 'number': {
      const bounds = numberBounds(q);
      return (
        <FieldWrap>
          <Label htmlFor={id}>{questionLabel(q)}</Label>
          <NumberInput
            id={id}
            name={q.key}
            type="number"
            inputMode="numeric"
            min={bounds.min}
            max={bounds.max}
            step={bounds.step}
            value={asText(value)}
            disabled={disabled}
            $invalid={invalid}
            {...described}
            onKeyDown={keepDigits}
            onChange={(e) => onChange(e.target.value)}
          />
          <ErrorText id={errorId} error={error} live />
        </FieldWrap>
      );
    }
    case 'multipleResponse': {
      const ticked = asList(value);
      const toggle = (choice: string, on: boolean) =>
        onChange(on ? [...ticked, choice] : ticked.filter((c) => c !== choice));
      return (
        <Fieldset $invalid={invalid} aria-describedby={invalid ? errorId : undefined} disabled={disabled}>
          <legend>{questionLabel(q)}</legend>
          {(q.choices ?? []).map((choice) => (
            <Checkbox
              key={choice}
              label={choice}
              name={q.key}
              value={choice}
              checked={ticked.includes(choice)}
              onChange={(e) => toggle(choice, e.target.checked)}
            />
          ))}
          <ErrorText id={errorId} error={error} />
        </Fieldset>
      );
    }
    case 'expansionPanelChoices':
      return (
        <StandardsPanels
          legend={questionLabel(q)}
          name={q.key}
          selected={asList(value)}
          onChange={onChange}
          disabled={disabled}
          error={<ErrorText id={errorId} error={error} />}
          {...(invalid ? { describedBy: errorId } : {})}
        />
      );
    case 'fileUpload':
      return null;
  }
}
