import { useEffect, useRef } from 'react';
import styled from 'styled-components';
import {
  usePortfolioCreate,
  usePortfolioCreateEvents,
  type PortfolioCreateRef,
} from '../../machines/portfolioCreate/usePortfolioCreate.ts';
import { useGuardedText } from '../../machines/typedTextGuard/useTypedTextGuard.ts';
import { GRADES, SUBJECTS } from '../../schemas/catalog.ts';
import { PORTFOLIO_NAME_MAX, TOPIC_MAX } from '../../schemas/portfolio.ts';
import { BusyButton } from '../components/BusyButton.tsx';
import { Button } from '../components/Button.tsx';
import { TextField } from '../components/Field.tsx';
import { MultiSelect } from '../components/MultiSelect.tsx';
import { SelectField } from '../components/SelectField.tsx';
import { theme } from '../theme/theme.ts';

const GRADE_OPTIONS = GRADES.map((g) => ({ value: g.value, label: g.label }));
const SUBJECT_OPTIONS = SUBJECTS.map((s) => ({ value: s, label: s }));

/** The text of the subject select's first, empty choice (what is saved when it stays chosen). */
const NO_SUBJECT = 'No subject';

const Cell = styled.td`
  && {
    padding: ${theme.space.md};
    background: ${theme.color.background};
  }
`;

const Form = styled.form`
  display: flex;
  flex-wrap: wrap;
  align-items: flex-start;
  gap: ${theme.space.sm} ${theme.space.md};
  & > div > div {
    margin-bottom: 0;
  }
`;

const Field = styled.div<{ $grow: number; $basis: string }>`
  flex: ${({ $grow, $basis }) => `${$grow} 1 ${$basis}`};
  min-width: 0;
`;

const Actions = styled.div`
  display: flex;
  gap: ${theme.space.sm};
  /* Line the buttons up with the inputs, below their labels. */
  padding-top: calc(1.5em + ${theme.space.xs});
`;

function focusName(form: HTMLFormElement | null): void {
  const name = form?.elements.namedItem('name');
  if (name instanceof HTMLInputElement) name.focus();
}

/**
 * The inline Add Portfolio row of My Portfolios: name (required), grade levels, subject (an
 * explicit empty choice first) and topic, with Save and Cancel. It spans the whole table.
 */
export function AddPortfolioRow({ actor, colSpan }: { actor: PortfolioCreateRef; colSpan: number }) {
  const { open, saving, values, errors, refusals } = usePortfolioCreate(actor);
  const { change, changeGrades, submit, cancel } = usePortfolioCreateEvents(actor);
  useGuardedText(open && (values.name.trim() !== '' || values.topic.trim() !== ''));
  const form = useRef<HTMLFormElement>(null);
  const wasSaving = useRef(false);

  // The row opens ready for typing; a refused Save, or a failed one, brings the user back to the name.
  const focusedFor = useRef(-1);
  useEffect(() => {
    if (focusedFor.current === refusals) return;
    focusedFor.current = refusals;
    focusName(form.current);
  }, [refusals]);
  useEffect(() => {
    if (wasSaving.current && !saving) focusName(form.current);
    wasSaving.current = saving;
  }, [saving]);

  return (
    <tr>
      <Cell colSpan={colSpan}>
        <Form
          ref={form}
          noValidate
          aria-label="Add Portfolio"
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
          onKeyDown={(event) => {
            if (event.key === 'Escape' && !event.defaultPrevented && !saving) cancel();
          }}
        >
          <Field $grow={2} $basis="200px">
            <TextField
              label="Portfolio Name"
              name="name"
              value={values.name}
              required
              maxLength={PORTFOLIO_NAME_MAX}
              autoComplete="off"
              disabled={saving}
              error={errors.name}
              onChange={(event) => change('name', event.target.value)}
            />
          </Field>
          <Field $grow={2} $basis="200px">
            <MultiSelect
              label="Grade Levels"
              options={GRADE_OPTIONS}
              value={values.grades}
              onChange={changeGrades}
              disabled={saving}
              error={errors.grades}
            />
          </Field>
          <Field $grow={1} $basis="150px">
            <SelectField
              label="Subject"
              name="subject"
              placeholder={NO_SUBJECT}
              options={SUBJECT_OPTIONS}
              value={values.subject}
              disabled={saving}
              error={errors.subject}
              onChange={(event) => change('subject', event.target.value)}
            />
          </Field>
          <Field $grow={2} $basis="200px">
            <TextField
              label="Portfolio Topic"
              name="topic"
              value={values.topic}
              maxLength={TOPIC_MAX}
              autoComplete="off"
              disabled={saving}
              error={errors.topic}
              onChange={(event) => change('topic', event.target.value)}
            />
          </Field>
          <Actions>
            <BusyButton type="submit" busy={saving} busyLabel="Saving the portfolio…">
              Save
            </BusyButton>
            <Button type="button" $variant="secondary" onClick={cancel} disabled={saving}>
              Cancel
            </Button>
          </Actions>
        </Form>
      </Cell>
    </tr>
  );
}
