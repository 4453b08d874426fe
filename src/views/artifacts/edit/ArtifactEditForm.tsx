import { useId, type FormEvent, type ReactNode } from 'react';
import styled from 'styled-components';
import {
  artifactTitle,
  layoutQuestions,
  portfolioIdOf,
  type EditableArtifact,
} from '../../../machines/artifactLifecycle/artifactSelectors.ts';
import {
  useArtifactEditEvents,
  useAskingToLeave,
  useDraftValue,
  useFieldIssue,
  useFormBusy,
  useHasIssues,
  useUploadQueueRef,
} from '../../../machines/artifactLifecycle/useArtifactLifecycle.ts';
import { useArtifactFormDraft } from '../../../machines/artifactLifecycle/useArtifactFormDraft.ts';
import { FORM_ERROR_MESSAGE } from '../../../schemas/responses.ts';
import type { Question } from '../../../schemas/structure.ts';
import { Button } from '../../components/Button.tsx';
import { DraftOfferBar } from '../../components/DraftOfferBar.tsx';
import { LeaveConfirmDialog } from '../../components/Dialog.tsx';
import { PageHeading } from '../../components/PageHeading.tsx';
import { TEAM_QUESTIONS_HEADING } from '../ArtifactDetails.tsx';
import { DeleteArtifactButton } from '../DeleteArtifactButton.tsx';
import { QuestionField } from '../QuestionField.tsx';
import { UploadsArea } from '../UploadsArea.tsx';
import { formatDate, formatDateTime } from '../../../schemas/formatting.ts';
import { theme } from '../../theme/theme.ts';
import { panelStyle } from '../../components/cardStyles.ts';

const Card = styled.div`
  ${panelStyle}
  padding: ${theme.space.lg};
  @media (max-width: 480px) {
    padding: ${theme.space.md};
  }
`;

const Summary = styled.div`
  &:not(:empty) {
    margin-bottom: ${theme.space.md};
    padding: ${theme.space.md};
    border: 1px solid ${theme.color.danger};
    border-left-width: 6px;
    border-radius: ${theme.radius.sm};
    background: #fdf0ef;
    color: ${theme.color.danger};
    font-weight: ${theme.font.weight.medium};
  }
`;

const OfferSpace = styled.div`
  margin-bottom: ${theme.space.md};
`;

const Dates = styled.dl`
  display: flex;
  flex-wrap: wrap;
  gap: ${theme.space.sm} ${theme.space.xl};
  margin: 0 0 ${theme.space.lg};
  dt {
    font-size: ${theme.font.size.sm};
    color: ${theme.color.textMuted};
    font-weight: ${theme.font.weight.medium};
  }
  dd {
    margin: 0;
  }
`;

const Section = styled.section`
  margin-bottom: ${theme.space.lg};
  h2 {
    font-size: ${theme.font.size.lg};
    margin-bottom: ${theme.space.sm};
  }
`;

const Pair = styled.div`
  display: grid;
  grid-template-columns: repeat(auto-fit, minmax(220px, 1fr));
  gap: 0 ${theme.space.lg};
`;

export const FormNote = styled.p`
  margin: 0 0 ${theme.space.md};
  color: ${theme.color.textMuted};
  font-size: ${theme.font.size.sm};
`;

const Bar = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: ${theme.space.sm};
  margin-top: ${theme.space.lg};
  padding-top: ${theme.space.md};
  border-top: 1px solid ${theme.color.border};
`;

const Spacer = styled.span`
  flex: 1;
`;

function Field({ question, disabled }: { question: Question | null; disabled: boolean }) {
  if (!question) return null;
  return <QuestionRow question={question} disabled={disabled} />;
}

function QuestionRow({ question, disabled }: { question: Question; disabled: boolean }) {
  const value = useDraftValue(question.key);
  const error = useFieldIssue(question.key);
  const { change } = useArtifactEditEvents();
  return (
    <QuestionField
      question={question}
      value={value}
      error={error}
      disabled={disabled}
      onChange={(next) => change(question.key, next)}
    />
  );
}

/**
 * The artifact form both edit pages share (spec §2): the error summary, the title, the created
 * and last-edited dates, the uploads area, unit timing and day, the remaining questions, a
 * shared portfolio's team questions under their own heading, then Cancel, the page's save
 * buttons and Delete Artifact.
 */
export function ArtifactEditForm({
  artifact,
  pageTitle,
  note,
  buttons,
  onSubmit,
  deletable,
  children,
}: {
  artifact: EditableArtifact;
  /** The page's heading (and document title). */
  pageTitle: string;
  /** What the form says about required questions (shown when there are any). */
  note: ReactNode;
  /** The save buttons; Enter in a field calls `onSubmit`. */
  buttons: ReactNode;
  onSubmit: () => void;
  /** Whether Delete Artifact is offered. */
  deletable: boolean;
  /** Dialogs of the page. */
  children?: ReactNode;
}) {
  const headingId = useId();
  const uploadsHeadingId = useId();
  const teamHeadingId = useId();
  const hasIssues = useHasIssues();
  const busy = useFormBusy();
  const queue = useUploadQueueRef();
  const { deleted, cancel, stay, leave } = useArtifactEditEvents();
  const askingToLeave = useAskingToLeave();
  const layout = layoutQuestions(artifact.structure);
  const hasCore = artifact.structure.some((q) => q.core);
  const title = artifactTitle(artifact.responses);
  const offer = useArtifactFormDraft(artifact);

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };

  return (
    <>
      <PageHeading title={pageTitle} />
      <Summary role="alert">{hasIssues ? FORM_ERROR_MESSAGE : ''}</Summary>
      {offer ? (
        <OfferSpace>
          <DraftOfferBar offer={offer} what="answers" />
        </OfferSpace>
      ) : null}
      <Card>
        <form onSubmit={handleSubmit} noValidate aria-labelledby={headingId}>
          <h2 id={headingId} className="visually-hidden">
            {title}
          </h2>
          {hasCore ? note : null}
          <Field question={layout.title} disabled={busy} />
          <Dates>
            <div>
              <dt>Date Created</dt>
              <dd>
                <time dateTime={artifact.created_at}>{formatDate(artifact.created_at)}</time>
              </dd>
            </div>
            <div>
              <dt>Last Edited</dt>
              <dd>
                <time dateTime={artifact.updated_at}>{formatDateTime(artifact.updated_at)}</time>
              </dd>
            </div>
          </Dates>
          {layout.files && queue ? (
            <Section aria-labelledby={uploadsHeadingId}>
              <h2 id={uploadsHeadingId}>{layout.files.text || 'Files'}</h2>
              <UploadsArea queue={queue} artifactTitle={title} disabled={busy} />
            </Section>
          ) : null}
          <Pair>
            <Field question={layout.unitTiming} disabled={busy} />
            <Field question={layout.unitDay} disabled={busy} />
          </Pair>
          {layout.main.map((q) => (
            <Field key={q.key} question={q} disabled={busy} />
          ))}
          {layout.bonus.length > 0 ? (
            <Section aria-labelledby={teamHeadingId}>
              <h2 id={teamHeadingId}>{TEAM_QUESTIONS_HEADING}</h2>
              {layout.bonus.map((q) => (
                <Field key={q.key} question={q} disabled={busy} />
              ))}
            </Section>
          ) : null}
          <Bar>
            <Button type="button" $variant="secondary" onClick={cancel} disabled={busy}>
              Cancel
            </Button>
            {buttons}
            <Spacer />
            {deletable ? (
              <DeleteArtifactButton
                artifactId={artifact.id}
                portfolioId={portfolioIdOf(artifact)}
                name={title}
                onDeleted={deleted}
              />
            ) : null}
          </Bar>
        </form>
      </Card>
      {children}
      {askingToLeave ? <LeaveConfirmDialog onStay={stay} onLeave={leave} /> : null}
    </>
  );
}
