import { useId, type MouseEvent } from 'react';
import styled from 'styled-components';
import { theme } from '../theme/theme.ts';

/** One problem of a form: its message and the id of the field that needs fixing (if any). */
export interface SummaryItem {
  message: string;
  target?: string;
}

const Box = styled.div`
  margin: 0 0 ${theme.space.lg};
  padding: ${theme.space.md};
  border: 2px solid ${theme.color.danger};
  border-left-width: 6px;
  border-radius: ${theme.radius.md};
  background: ${theme.color.surface};
  h2 {
    margin: 0 0 ${theme.space.xs};
    font-size: ${theme.font.size.lg};
    color: ${theme.color.danger};
  }
  p {
    margin: 0;
  }
  ul {
    margin: ${theme.space.sm} 0 0;
    padding-left: 1.25rem;
  }
  li {
    margin: ${theme.space.xxs} 0;
    overflow-wrap: anywhere;
  }
  li a {
    display: inline-block;
    min-height: 24px;
    padding: 2px 0;
    color: ${theme.color.danger};
    font-weight: ${theme.font.weight.medium};
  }
`;

/** Takes the user to a field named in the summary (without changing the address). */
function goTo(event: MouseEvent<HTMLAnchorElement>, target: string): void {
  const field = document.getElementById(target);
  if (!field) return;
  event.preventDefault();
  field.scrollIntoView({ block: 'center' });
  field.focus({ preventScroll: true });
}

/**
 * The problems of a form that was refused, at its top: a lead sentence and one link per field
 * that needs fixing (each field also shows its own message). Announced as an alert; focusable
 * (`data-error-summary`) for a form to move the keyboard there when no field is to blame.
 */
export function ErrorSummary({
  title = 'There is a problem',
  lead,
  items,
}: {
  title?: string;
  lead: string;
  items: readonly SummaryItem[];
}) {
  const headingId = useId();
  return (
    <Box role="alert" aria-labelledby={headingId} tabIndex={-1} data-error-summary="">
      <h2 id={headingId}>{title}</h2>
      <p>{lead}</p>
      {items.length > 0 ? (
        <ul>
          {items.map((item, index) => (
            <li key={`${item.target ?? ''}-${index}`}>
              {item.target ? (
                <a href={`#${item.target}`} onClick={(e) => goTo(e, item.target!)}>
                  {item.message}
                </a>
              ) : (
                item.message
              )}
            </li>
          ))}
        </ul>
      ) : null}
    </Box>
  );
}
