import { useEffect, useRef } from 'react';
import styled from 'styled-components';
import type { RubricEditorRef } from '../../machines/rubricEditor/rubricEditorMachine.ts';
import {
  useRubricEditorEvents,
  useRubricEditorStatus,
  useRubricEditorValue,
} from '../../machines/rubricEditor/useRubricEditor.ts';
import type { Rubric } from '../../schemas/rubrics.ts';
import { BusyButton } from '../components/BusyButton.tsx';
import { Button } from '../components/Button.tsx';
import { theme } from '../theme/theme.ts';

const List = styled.ul`
  margin: 0 0 ${theme.space.md};
  padding: 0;
  list-style: none;
  & > li {
    display: flex;
    flex-wrap: wrap;
    gap: ${theme.space.xs} ${theme.space.sm};
    align-items: center;
    justify-content: space-between;
    padding: ${theme.space.sm} 0;
    border-bottom: 1px solid ${theme.color.border};
    overflow-wrap: anywhere;
  }
`;

const About = styled.div`
  flex: 1 1 16rem;
  min-width: 0;
  strong {
    display: block;
  }
  small {
    display: block;
    color: ${theme.color.textMuted};
  }
`;

const Buttons = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: ${theme.space.sm};
`;

const Confirm = styled.div`
  flex: 1 1 100%;
  padding: ${theme.space.sm} ${theme.space.md};
  border-left: 4px solid ${theme.color.danger};
  background: ${theme.color.surfaceAlt};
  p {
    margin: 0 0 ${theme.space.sm};
  }
`;

const Row = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: ${theme.space.sm};
  margin-bottom: ${theme.space.md};
  & > button {
    max-width: 100%;
    white-space: normal;
    text-align: center;
  }
`;

const quoted = (names: readonly string[]) => names.map((n) => `“${n}”`).join(', ');

/** What uses a rubric, in words, for those who may edit it: its scores and the portfolios that score with it. */
export function usageText(rubric: Rubric): string | null {
  const usage = rubric.usage;
  if (!usage) return null;
  const scores =
    usage.scores === 0 ? 'No scores yet' : usage.scores === 1 ? '1 score given' : `${usage.scores} scores given`;
  const portfolios =
    usage.portfolios.length === 0
      ? 'no shared portfolio scores with it'
      : `chosen by ${quoted(usage.portfolios.map((p) => p.name))}`;
  return `${scores} · ${portfolios}`;
}

/** The question before a rubric goes, with the buttons to delete it or keep it. */
function ConfirmDelete({ editor, rubric }: { editor: RubricEditorRef; rubric: Rubric }) {
  const on = useRubricEditorEvents(editor);
  const deleting = useRubricEditorStatus(editor) === 'deleting';
  const group = useRef<HTMLDivElement>(null);
  useEffect(() => group.current?.querySelector('button')?.focus(), []);
  return (
    <Confirm ref={group} role="group" aria-label={`Delete “${rubric.name}”?`}>
      <p>
        Delete “{rubric.name}”? This cannot be undone. A rubric that scores were given with, or that a shared portfolio
        scores with, stays.
      </p>
      <Buttons>
        <BusyButton
          type="button"
          $variant="danger"
          busy={deleting}
          busyLabel="Deleting the rubric…"
          onClick={on.confirmDelete}
        >
          Delete rubric
        </BusyButton>
        <Button type="button" $variant="secondary" disabled={deleting} onClick={on.cancelDelete}>
          Keep it
        </Button>
      </Buttons>
    </Confirm>
  );
}

/**
 * The rubrics a shared portfolio may use (or the installation's): each with its criteria, version
 * and, for those who may edit it, what uses it; Edit and Delete; and the ways to start a new one.
 */
export function RubricList({ editor, installation }: { editor: RubricEditorRef; installation: boolean }) {
  const on = useRubricEditorEvents(editor);
  const rubrics = useRubricEditorValue(editor, 'rubrics');
  const removing = useRubricEditorValue(editor, 'removing');
  const status = useRubricEditorStatus(editor);
  const busy = status !== 'idle';
  // When the question closes (kept, deleted or refused), the focus goes back to the rubric's
  // Delete button, or, the rubric gone, to the first way of making a new one.
  const asked = useRef<number | null>(null);
  const own = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (removing) {
      asked.current = removing.id;
      return;
    }
    if (asked.current === null) return;
    const root = own.current;
    const back =
      root?.querySelector<HTMLElement>(`[data-delete-rubric="${asked.current}"]`) ??
      root?.querySelector<HTMLElement>('[data-new-rubric]');
    asked.current = null;
    back?.focus();
  }, [removing]);
  return (
    <div ref={own}>
      {rubrics.length > 0 ? (
        <List aria-label={installation ? 'Installation-wide rubrics' : 'Rubrics this portfolio may use'}>
          {rubrics.map((r) => {
            const usage = usageText(r);
            return (
              <li key={r.id}>
                <About>
                  <strong>{r.name}</strong>
                  <small>
                    {r.criteria.length} {r.criteria.length === 1 ? 'criterion' : 'criteria'} · version {r.version}
                    {!installation && r.sharedPortfolio === null ? ' · installation-wide' : ''}
                  </small>
                  {usage ? <small>{usage}</small> : null}
                </About>
                {r.abilities.edit ? (
                  <Buttons>
                    <Button type="button" $variant="link" disabled={busy} onClick={() => on.edit(r.id)}>
                      Edit <span className="visually-hidden">{r.name}</span>
                    </Button>
                    <Button
                      type="button"
                      $variant="link"
                      disabled={busy}
                      data-delete-rubric={r.id}
                      onClick={() => on.remove(r.id)}
                    >
                      Delete <span className="visually-hidden">{r.name}</span>
                    </Button>
                  </Buttons>
                ) : null}
                {removing?.id === r.id ? <ConfirmDelete editor={editor} rubric={r} /> : null}
              </li>
            );
          })}
        </List>
      ) : (
        <p>{installation ? 'The installation has no rubrics yet.' : 'No rubrics yet.'}</p>
      )}
      <Row>
        <Button type="button" $variant="secondary" disabled={busy} data-new-rubric onClick={() => on.start('ngss')}>
          New rubric from the NGSS practices
        </Button>
        <Button type="button" $variant="secondary" disabled={busy} onClick={() => on.start('empty')}>
          New empty rubric
        </Button>
      </Row>
    </div>
  );
}
