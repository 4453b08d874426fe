import { useEffect, useId, useRef, type FormEvent } from 'react';
import styled from 'styled-components';
import {
  useDeleting,
  useCanDeleteSharedPortfolio,
  useEditedPortfolio,
  useFormBusy,
  useFormErrors,
  useFormMode,
  useFormValues,
  useParticipantsRef,
  useQuestionRows,
  useRefusals,
  useSaveError,
  useSharedPortfolioFormDraft,
  useSharedPortfolioFormEvents,
  useSharedPortfolioFormStatus,
} from '../../../machines/sharedPortfolioForm/useSharedPortfolioForm.ts';
import {
  invalidQuestionsMessage,
  type FormErrors,
  type QuestionRow,
} from '../../../machines/sharedPortfolioForm/sharedForm.ts';
import { GRADES, SUBJECTS } from '../../../schemas/catalog.ts';
import { BusyButton } from '../../components/BusyButton.tsx';
import { Button } from '../../components/Button.tsx';
import { ConfirmDialog, LeaveConfirmDialog } from '../../components/Dialog.tsx';
import { DraftOfferBar } from '../../components/DraftOfferBar.tsx';
import { ErrorSummary, type SummaryItem } from '../../components/ErrorSummary.tsx';
import { TextField } from '../../components/Field.tsx';
import { MultiSelect } from '../../components/MultiSelect.tsx';
import { SelectField } from '../../components/SelectField.tsx';
import { TextAreaField } from '../../components/TextAreaField.tsx';
import { EditParticipantsDialog } from '../participants/EditParticipantsDialog.tsx';
import { ParticipantsSummary } from '../participants/ParticipantsSummary.tsx';
import { QuestionsTable } from './QuestionsTable.tsx';
import { formatDate } from '../../../schemas/formatting.ts';
import { theme } from '../../theme/theme.ts';
import { panelStyle } from '../../components/cardStyles.ts';

/** The note on the create form (spec §2). */
/** Why Delete Shared Portfolio is not offered (the server refuses it then). */
export const DELETE_NOT_EMPTY_NOTE =
  'A shared portfolio can be deleted only when it has no artifacts. Delete its artifacts first.';

export const SHARE_LATER_NOTE =
  'You can share this portfolio with participants after it is created: open it again with Edit and choose Edit Participants.';

const GRADE_OPTIONS = GRADES.map((g) => ({ value: g.value, label: g.label }));
const SUBJECT_OPTIONS = SUBJECTS.map((s) => ({ value: s, label: s }));

const Section = styled.section`
  padding: ${theme.space.lg};
  margin-bottom: ${theme.space.lg};
  ${panelStyle}
  h2 {
    font-size: ${theme.font.size.lg};
  }
  @media (max-width: 480px) {
    padding: ${theme.space.md};
  }
`;

const Fields = styled.div`
  display: grid;
  grid-template-columns: repeat(2, minmax(0, 1fr));
  column-gap: ${theme.space.lg};
  & > .wide {
    grid-column: 1 / -1;
  }
  @media (max-width: ${theme.layout.tabletWidth}) {
    grid-template-columns: minmax(0, 1fr);
  }
`;

const Fact = styled.div`
  display: flex;
  flex-direction: column;
  gap: ${theme.space.xs};
  margin-bottom: ${theme.space.md};
  span {
    font-weight: ${theme.font.weight.medium};
  }
  p {
    margin: 0;
  }
`;

const Note = styled.p`
  margin: 0 0 ${theme.space.lg};
  padding: ${theme.space.sm} ${theme.space.md};
  border-left: 4px solid ${theme.color.primary};
  background: ${theme.color.surfaceAlt};
`;

const OfferSpace = styled.div`
  margin-bottom: ${theme.space.lg};
`;

const Intro = styled.p`
  margin: 0 0 ${theme.space.md};
  color: ${theme.color.textMuted};
`;

const Actions = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: ${theme.space.sm};
  & > .push {
    margin-right: auto;
  }
`;

function DateCreated({ createdAt }: { createdAt: string }) {
  const captionId = useId();
  return (
    <Fact role="group" aria-labelledby={captionId}>
      <span id={captionId}>Date Created</span>
      <p>
        <time dateTime={createdAt}>{formatDate(createdAt)}</time>
      </p>
    </Fact>
  );
}

/** The id of the name field (the error summary links to it). */
const NAME_FIELD_ID = 'shared-portfolio-name';

/** The summary's lines: one link per field to fix, in the form's order. */
function summaryItems(errors: FormErrors, rows: readonly QuestionRow[]): SummaryItem[] {
  const items: SummaryItem[] = [];
  if (errors.name) items.push({ message: `Shared Portfolio Name: ${errors.name}`, target: NAME_FIELD_ID });
  let number = 0;
  for (const row of rows) {
    if (row.kind !== 'bonus') continue;
    number += 1;
    const found = errors.questions[row.key];
    if (!found) continue;
    for (const field of ['text', 'type', 'choices'] as const) {
      const message = found[field];
      if (message) items.push({ message: `Team question ${number}: ${message}`, target: `${row.key}-${field}` });
    }
  }
  return items;
}

/** The error summary at the top of the form, after a refused save (nothing otherwise). */
function FormErrorSummary() {
  const errors = useFormErrors();
  const rows = useQuestionRows();
  const saveError = useSaveError();
  const items = summaryItems(errors, rows);
  if (!saveError && items.length === 0) return null;
  const invalid = Object.keys(errors.questions).length;
  const lead =
    saveError ?? (invalid > 0 ? invalidQuestionsMessage(invalid) : 'Please fix the following and save again.');
  return <ErrorSummary lead={lead} items={items} />;
}

/**
 * The shared portfolio form: Summary (name, on edit who it is shared with and when it was
 * created, grades, subject, topic, PLC name and goals), the Questions table, and CANCEL / SAVE
 * (plus Delete Shared Portfolio on edit, after a confirmation).
 */
export function SharedPortfolioForm() {
  const mode = useFormMode();
  const status = useSharedPortfolioFormStatus();
  const values = useFormValues();
  const errors = useFormErrors();
  const busy = useFormBusy();
  const deleting = useDeleting();
  const portfolio = useEditedPortfolio();
  const participants = useParticipantsRef();
  const events = useSharedPortfolioFormEvents();
  const refusals = useRefusals();
  const canDelete = useCanDeleteSharedPortfolio();
  const offer = useSharedPortfolioFormDraft();
  const form = useRef<HTMLFormElement>(null);
  const summaryId = useId();
  const questionsId = useId();
  const locked = busy || status === 'done';

  // After a refused save, take the user to the first thing to fix (once per save, not while typing);
  // when the server refused it for no field of the form, to the summary that says why.
  useEffect(() => {
    if (refusals > 0)
      (
        form.current?.querySelector<HTMLElement>('[aria-invalid="true"]') ??
        form.current?.querySelector<HTMLElement>('[data-error-summary]')
      )?.focus();
  }, [refusals]);

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!locked) events.submit();
  };

  return (
    <>
      <form ref={form} noValidate onSubmit={handleSubmit} aria-busy={busy || undefined}>
        <FormErrorSummary />
        {offer ? (
          <OfferSpace>
            <DraftOfferBar offer={offer} what="shared portfolio" />
          </OfferSpace>
        ) : null}
        <Section aria-labelledby={summaryId}>
          <h2 id={summaryId}>Summary</h2>
          <Fields>
            <div className="wide">
              <TextField
                label="Shared Portfolio Name"
                id={NAME_FIELD_ID}
                name="name"
                required
                autoComplete="off"
                value={values.name}
                error={errors.name}
                disabled={locked}
                onChange={(e) => events.changeField('name', e.target.value)}
              />
            </div>
            {mode === 'edit' && participants ? <ParticipantsSummary actorRef={participants} disabled={locked} /> : null}
            {mode === 'edit' && portfolio ? <DateCreated createdAt={portfolio.created_at} /> : null}
            <MultiSelect
              label="Grade Levels"
              options={GRADE_OPTIONS}
              value={values.grades}
              placeholder="Select grade levels"
              disabled={locked}
              onChange={(grades) => events.changeGrades(grades)}
            />
            <SelectField
              label="Subject"
              options={SUBJECT_OPTIONS}
              placeholder="Select a subject"
              value={values.subject}
              disabled={locked}
              onChange={(e) => events.changeField('subject', e.target.value)}
            />
            <TextField
              label="Portfolio Topic"
              name="topic"
              autoComplete="off"
              value={values.topic}
              disabled={locked}
              onChange={(e) => events.changeField('topic', e.target.value)}
            />
            <TextField
              label="PLC Name"
              name="plcName"
              autoComplete="off"
              value={values.plcName}
              disabled={locked}
              onChange={(e) => events.changeField('plcName', e.target.value)}
            />
            <div className="wide">
              <TextAreaField
                label="PLC Goals for Shared Portfolio"
                name="plcGoals"
                rows={4}
                value={values.plcGoals}
                disabled={locked}
                onChange={(e) => events.changeField('plcGoals', e.target.value)}
              />
            </div>
          </Fields>
        </Section>
        {mode === 'create' ? <Note>{SHARE_LATER_NOTE}</Note> : null}
        <Section aria-labelledby={questionsId}>
          <h2 id={questionsId}>Questions</h2>
          <Intro>
            Switch on the template questions this team will answer (core questions are always included), and add
            questions of your own.
          </Intro>
          <QuestionsTable disabled={locked} />
        </Section>
        <Actions>
          {mode === 'edit' && canDelete ? (
            <Button type="button" className="push" $variant="danger" onClick={events.askDelete} disabled={locked}>
              Delete Shared Portfolio
            </Button>
          ) : (
            <span className="push" />
          )}
          <Button type="button" $variant="secondary" onClick={events.cancel} disabled={locked}>
            CANCEL
          </Button>
          <BusyButton type="submit" busy={busy && !deleting} busyLabel="Saving shared portfolio" disabled={locked}>
            SAVE
          </BusyButton>
        </Actions>
        {mode === 'edit' && !canDelete ? <Note>{DELETE_NOT_EMPTY_NOTE}</Note> : null}
      </form>
      {participants ? <EditParticipantsDialog actorRef={participants} /> : null}
      {status === 'confirmingLeave' ? <LeaveConfirmDialog onStay={events.stay} onLeave={events.leave} /> : null}
      {status === 'confirmingDelete' ? (
        <ConfirmDialog
          title="Delete Shared Portfolio"
          message={`Do you want to delete ${portfolio?.name ?? 'this shared portfolio'}?`}
          busy={deleting}
          onConfirm={events.confirmDelete}
          onCancel={events.cancelDelete}
        />
      ) : null}
    </>
  );
}
