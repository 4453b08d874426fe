import { useState } from 'react';
import styled from 'styled-components';
import type { RubricEditorRef } from '../../machines/rubricEditor/rubricEditorMachine.ts';
import {
  useRubricEditorActor,
  useRubricEditorEvents,
  useRubricEditorStatus,
  useRubricEditorValue,
} from '../../machines/rubricEditor/useRubricEditor.ts';
import { BusyButton } from '../components/BusyButton.tsx';
import { BusyMessage } from '../components/BusyMessage.tsx';
import { LoadFailed } from '../components/LoadFailed.tsx';
import { SelectField } from '../components/SelectField.tsx';
import { theme } from '../theme/theme.ts';
import { RubricEditorForm } from './RubricEditorForm.tsx';
import { RubricList } from './RubricList.tsx';

const Row = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: ${theme.space.sm};
  align-items: flex-end;
  margin-bottom: ${theme.space.md};
  & > div {
    flex: 1 1 16rem;
    margin-bottom: 0;
  }
  & > button {
    max-width: 100%;
    white-space: normal;
    text-align: center;
  }
`;

const Status = styled.p`
  &:empty {
    margin: 0;
  }
`;

const Refusal = styled.p`
  color: ${theme.color.danger};
`;

/** The rubric members score with, and the form to choose another (or none). */
function Chooser({ editor }: { editor: RubricEditorRef }) {
  const on = useRubricEditorEvents(editor);
  const status = useRubricEditorStatus(editor);
  const chosen = useRubricEditorValue(editor, 'chosen');
  const rubrics = useRubricEditorValue(editor, 'rubrics');
  const current = chosen?.rubric?.id ?? null;
  const [picked, setPicked] = useState(current === null ? '' : String(current));
  const options = rubrics.map((r) => ({
    value: String(r.id),
    label: r.sharedPortfolio === null ? `${r.name} (installation-wide)` : r.name,
  }));
  return (
    <Row>
      <SelectField
        label="Members score with"
        placeholder="No rubric (no scoring)"
        options={options}
        value={picked}
        onChange={(e) => setPicked(e.target.value)}
      />
      <BusyButton
        type="button"
        $variant="secondary"
        busy={status === 'choosing'}
        busyLabel="Choosing the rubric…"
        disabled={picked === (current === null ? '' : String(current))}
        onClick={() => on.choose(picked === '' ? null : Number(picked))}
      >
        Use this rubric
      </BusyButton>
    </Row>
  );
}

/**
 * The Rubric section of a shared portfolio's settings (decision 055): which rubric its members
 * score with, and creating, editing or deleting rubrics. Loaded on first use, with its machine.
 * Without a shared portfolio: the installation's rubrics (decision 058), nothing to choose.
 */
export function RubricPanel({ sharedPortfolioId }: { sharedPortfolioId: number | null }) {
  const editor = useRubricEditorActor({ sharedPortfolioId });
  const on = useRubricEditorEvents(editor);
  const status = useRubricEditorStatus(editor);
  const draft = useRubricEditorValue(editor, 'draft');
  const error = useRubricEditorValue(editor, 'error');
  const notice = useRubricEditorValue(editor, 'notice');
  const canChoose = useRubricEditorValue(editor, 'chosen')?.abilities.choose ?? false;
  if (status === 'loading') return <BusyMessage busy message="Loading the rubrics" />;
  if (status === 'loadFailed')
    return <LoadFailed what="The rubrics could not be loaded." message={error?.message} onRetry={on.retry} />;
  if ((status === 'editing' || status === 'saving') && draft) return <RubricEditorForm editor={editor} draft={draft} />;
  return (
    <>
      <Status role="status">{notice}</Status>
      {error ? <Refusal role="alert">{error.message}</Refusal> : null}
      {sharedPortfolioId === null ? null : canChoose ? (
        <Chooser editor={editor} />
      ) : (
        <p>Only the portfolio’s lead chooses its rubric.</p>
      )}
      <RubricList editor={editor} installation={sharedPortfolioId === null} />
    </>
  );
}
