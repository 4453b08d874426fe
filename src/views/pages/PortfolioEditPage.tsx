import { useEffect, useId, useRef } from 'react';
import { Link } from 'wouter';
import styled from 'styled-components';
import {
  useCanDeletePortfolio,
  useEditedPortfolio,
  usePortfolioEditBusy,
  usePortfolioEditError,
  usePortfolioEditEvents,
  usePortfolioEditStatus,
  usePortfolioFormErrors,
  usePortfolioFormValues,
  useSaveAttempts,
} from '../../machines/portfolioEdit/usePortfolioEdit.ts';
import { GRADES, SUBJECTS } from '../../schemas/catalog.ts';
import { TOPIC_MAX } from '../../schemas/portfolio.ts';
import { focusField } from '../components/AuthCard.tsx';
import { BusyButton } from '../components/BusyButton.tsx';
import { Button } from '../components/Button.tsx';
import { ConfirmDialog, LeaveConfirmDialog } from '../components/Dialog.tsx';
import { FieldWrap, inputStyles, Label, TextField } from '../components/Field.tsx';
import { MultiSelect } from '../components/MultiSelect.tsx';
import { PageHeading } from '../components/PageHeading.tsx';
import { PageSkeleton } from '../components/PageSkeleton.tsx';
import { SelectField } from '../components/SelectField.tsx';
import { paths } from '../paths.ts';
import { Problem } from '../portfolios/Notices.tsx';
import { PORTFOLIO_NOT_FOUND } from '../portfolios/PortfolioBrowser.tsx';
import { theme } from '../theme/theme.ts';
import { panelStyle } from '../components/cardStyles.ts';

const Form = styled.form`
  max-width: 640px;
  padding: ${theme.space.lg};
  ${panelStyle}
`;

const TextArea = styled.textarea`
  ${inputStyles}
  width: 100%;
  min-height: 96px;
  resize: vertical;
  border: 1px solid ${theme.color.borderStrong};
`;

const Actions = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: ${theme.space.sm};
  margin-top: ${theme.space.lg};
`;

const DeleteArea = styled.div`
  margin-left: auto;
`;

const Note = styled.p`
  margin: ${theme.space.md} 0 0;
  color: ${theme.color.textMuted};
  font-size: ${theme.font.size.sm};
`;

const GRADE_OPTIONS = GRADES.map((g) => ({ value: g.value, label: g.label }));
const SUBJECT_OPTIONS = SUBJECTS.map((s) => ({ value: s, label: s }));

function EditForm() {
  const topicId = useId();
  const portfolio = useEditedPortfolio();
  const values = usePortfolioFormValues();
  const errors = usePortfolioFormErrors();
  const attempts = useSaveAttempts();
  const status = usePortfolioEditStatus();
  const busy = usePortfolioEditBusy();
  const canDelete = useCanDeletePortfolio();
  const { change, changeGrades, submit, cancel, requestDelete, cancelDelete, confirmDelete, stay, leave } =
    usePortfolioEditEvents();
  const form = useRef<HTMLFormElement>(null);

  useEffect(() => {
    if (attempts > 0 && errors.name && form.current) focusField(form.current, 'name');
    // Only a new attempt moves the focus, not typing.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [attempts]);

  return (
    <>
      <Form
        ref={form}
        noValidate
        aria-label="Edit portfolio"
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <TextField
          label="Portfolio Name"
          name="name"
          value={values.name}
          required
          maxLength={200}
          error={errors.name}
          onChange={(event) => change('name', event.target.value)}
        />
        <MultiSelect
          label="Grade Levels"
          options={GRADE_OPTIONS}
          value={values.grades}
          onChange={changeGrades}
          error={errors.grades}
        />
        <SelectField
          label="Subject"
          placeholder="No subject"
          options={SUBJECT_OPTIONS}
          value={values.subject}
          error={errors.subject}
          onChange={(event) => change('subject', event.target.value)}
        />
        <FieldWrap>
          <Label htmlFor={topicId}>Portfolio Topic</Label>
          <TextArea
            id={topicId}
            name="topic"
            value={values.topic}
            maxLength={TOPIC_MAX}
            onChange={(event) => change('topic', event.target.value)}
          />
        </FieldWrap>
        <Actions>
          <BusyButton type="submit" busy={status === 'saving'} busyLabel="Saving the portfolio…" disabled={busy}>
            Save
          </BusyButton>
          <Button type="button" $variant="secondary" onClick={cancel} disabled={busy}>
            Cancel
          </Button>
          {canDelete ? (
            <DeleteArea>
              <Button type="button" $variant="danger" onClick={requestDelete} disabled={busy}>
                Delete Portfolio
              </Button>
            </DeleteArea>
          ) : null}
        </Actions>
        {!canDelete ? <Note>A portfolio can be deleted only when it has no artifacts.</Note> : null}
      </Form>
      {status === 'confirmingDelete' || status === 'deleting' ? (
        <ConfirmDialog
          title="Delete Portfolio"
          message={`Do you want to delete ${portfolio?.name ?? 'this portfolio'}?`}
          onConfirm={confirmDelete}
          onCancel={cancelDelete}
          busy={status === 'deleting'}
        />
      ) : null}
      {status === 'confirmingLeave' ? <LeaveConfirmDialog onStay={stay} onLeave={leave} /> : null}
    </>
  );
}

/**
 * Edit portfolio: name (required, trimmed), grade levels, subject and topic, with Save and
 * Cancel; 'Delete Portfolio' only while the portfolio has no artifacts, after a confirmation.
 */
export function PortfolioEditPage() {
  const status = usePortfolioEditStatus();
  const error = usePortfolioEditError();
  const { retry } = usePortfolioEditEvents();
  return (
    <>
      <PageHeading title="Edit Portfolio" />
      {status === 'loading' || status === 'done' ? <PageSkeleton label="Loading portfolio" /> : null}
      {status === 'notFound' ? (
        <>
          <Problem title={PORTFOLIO_NOT_FOUND} />
          <Link href={paths.myPortfolios}>Back to My Portfolios</Link>
        </>
      ) : null}
      {status === 'loadFailed' ? (
        <Problem title="The portfolio could not be loaded" message={error?.message} onRetry={retry} />
      ) : null}
      {status === 'editing' ||
      status === 'saving' ||
      status === 'confirmingDelete' ||
      status === 'deleting' ||
      status === 'confirmingLeave' ||
      status === 'leaving' ? (
        <EditForm />
      ) : null}
    </>
  );
}
