import {
  useId,
  useImperativeHandle,
  useLayoutEffect,
  useRef,
  useState,
  type KeyboardEvent,
  type Ref,
  type TextareaHTMLAttributes,
} from 'react';
import styled from 'styled-components';
import { TextArea } from '../../components/TextAreaField.tsx';
import type { MentionCandidate } from './mentionCandidates.ts';
import { theme } from '../../theme/theme.ts';

/** Most suggestions shown at once. */
export const MENTION_SUGGESTIONS_MAX = 8;

/**
 * The mention being typed at the caret: an `@` at the start or after a space or punctuation, and
 * what follows it up to the caret (user names may hold spaces; a new line or another `@` ends it).
 */
export function mentionAt(text: string, caret: number): { start: number; query: string } | null {
  const before = text.slice(0, caret);
  const start = before.lastIndexOf('@');
  if (start < 0) return null;
  if (start > 0 && /[\p{L}\p{N}_]/u.test(before[start - 1]!)) return null;
  const query = before.slice(start + 1);
  if (query.length > 60 || /[\n@]/.test(query)) return null;
  return { start, query };
}

/** The candidates whose name, or a word of it, starts with what was typed (case-insensitive), by name. */
export function matchingCandidates(candidates: readonly MentionCandidate[], query: string): MentionCandidate[] {
  const q = query.toLocaleLowerCase();
  return candidates
    .filter((candidate) => {
      const name = candidate.username.toLocaleLowerCase();
      return name.startsWith(q) || (!q.includes(' ') && name.split(/\s+/).some((word) => word.startsWith(q)));
    })
    .sort((a, b) => a.username.localeCompare(b.username))
    .slice(0, MENTION_SUGGESTIONS_MAX);
}

const Wrap = styled.div`
  position: relative;
`;

const Options = styled.div`
  position: absolute;
  left: 0;
  top: calc(100% + 2px);
  z-index: 400;
  min-width: 220px;
  max-width: 100%;
  margin: 0;
  padding: ${theme.space.xs} 0;
  background: ${theme.color.surface};
  border: 1px solid ${theme.color.border};
  border-radius: ${theme.radius.md};
  box-shadow: ${theme.shadow.popover};
  [role='option'] {
    padding: ${theme.space.xs} ${theme.space.md};
    cursor: pointer;
    overflow-wrap: anywhere;
  }
  [role='option'][aria-selected='true'] {
    background: ${theme.color.primary};
    color: ${theme.color.primaryText};
  }
`;

type TextAreaProps = Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'value' | 'onChange'>;

/**
 * A comment box that suggests people as `@` is typed (the ARIA combobox pattern on a text box): the
 * suggestions form a listbox; Up and Down move through it, Enter or Tab insert `@username `,
 * Escape closes it (and only it). Clicking a suggestion inserts it too.
 */
export function MentionTextArea({
  candidates,
  value,
  onValueChange,
  boxRef,
  onKeyDown,
  ...textarea
}: TextAreaProps & {
  /** Who can be mentioned. */
  candidates: readonly MentionCandidate[];
  value: string;
  onValueChange: (text: string) => void;
  boxRef?: Ref<HTMLTextAreaElement> | undefined;
}) {
  const listId = useId();
  const element = useRef<HTMLTextAreaElement | null>(null);
  const [caret, setCaret] = useState<number | null>(null);
  const [dismissed, setDismissed] = useState<number | null>(null);
  const [active, setActive] = useState(0);
  const nextCaret = useRef<number | null>(null);

  const mention = caret === null ? null : mentionAt(value, caret);
  const options = mention ? matchingCandidates(candidates, mention.query) : [];
  const open = mention !== null && options.length > 0 && dismissed !== mention.start && !textarea.readOnly;
  const activeIndex = Math.min(active, Math.max(0, options.length - 1));
  const optionId = (index: number) => `${listId}-${index}`;

  // The caller's ref reaches the text box too (the thread focuses it).
  useImperativeHandle(boxRef, () => element.current!, []);

  // After a suggestion was inserted and the new text rendered, the caret goes after the name.
  useLayoutEffect(() => {
    const at = nextCaret.current;
    if (at === null || !element.current || element.current.value !== value) return;
    nextCaret.current = null;
    element.current.setSelectionRange(at, at);
  }, [value]);

  const followCaret = () => {
    setCaret(element.current?.selectionStart ?? null);
  };

  const insert = (candidate: MentionCandidate) => {
    if (!mention || caret === null) return;
    const before = value.slice(0, mention.start);
    const after = value.slice(caret).replace(/^ /, '');
    const text = `@${candidate.username} `;
    nextCaret.current = before.length + text.length;
    setCaret(nextCaret.current);
    setActive(0);
    onValueChange(`${before}${text}${after}`);
  };

  const handleKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (open) {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        const step = event.key === 'ArrowDown' ? 1 : -1;
        setActive((activeIndex + step + options.length) % options.length);
        return;
      }
      if (event.key === 'Enter' || event.key === 'Tab') {
        event.preventDefault();
        insert(options[activeIndex]!);
        return;
      }
      if (event.key === 'Escape') {
        event.preventDefault();
        event.stopPropagation();
        setDismissed(mention.start);
        return;
      }
    }
    onKeyDown?.(event);
  };

  return (
    <Wrap>
      <TextArea
        {...textarea}
        ref={element}
        value={value}
        aria-autocomplete="list"
        aria-controls={open ? listId : undefined}
        aria-activedescendant={open ? optionId(activeIndex) : undefined}
        onChange={(event) => {
          setCaret(event.target.selectionStart);
          setActive(0);
          onValueChange(event.target.value);
        }}
        onKeyDown={handleKeyDown}
        onKeyUp={(event) => {
          if (event.key === 'ArrowLeft' || event.key === 'ArrowRight' || event.key === 'Home' || event.key === 'End')
            followCaret();
        }}
        onClick={followCaret}
        onBlur={() => setCaret(null)}
      />
      {open ? (
        <Options id={listId} role="listbox" aria-label="Mention a member">
          {options.map((candidate, index) => (
            <div
              key={candidate.id}
              id={optionId(index)}
              role="option"
              tabIndex={-1}
              aria-selected={index === activeIndex}
              // Keeps the focus (and the caret) in the box.
              onMouseDown={(event) => {
                event.preventDefault();
                insert(candidate);
              }}
            >
              @{candidate.username}
            </div>
          ))}
        </Options>
      ) : null}
      <span className="visually-hidden" role="status">
        {open
          ? `${options.length} ${options.length === 1 ? 'member matches' : 'members match'}. Up and Down choose, Enter inserts.`
          : ''}
      </span>
    </Wrap>
  );
}
