import { useEffect, useId, useMemo, useRef, useState, type FocusEvent, type KeyboardEvent } from 'react';
import styled from 'styled-components';
import {
  tallyReactions,
  useCanReact,
  usePendingReaction,
  useReactionsEvents,
  type ReactionsRef,
  type ReactionTally,
} from '../../../machines/reactions/useReactions.ts';
import {
  useDiscussionError,
  useDiscussionEvents,
  useDiscussionReactions,
  useDiscussionStatus,
  useDiscussionViewer,
  useReactionsBarRef,
  type DiscussionRef,
} from '../../../machines/sharedArtifactDiscussion/useSharedArtifactDiscussion.ts';
import type { ReactionValue } from '../../../schemas/catalog.ts';
import { Button } from '../../components/Button.tsx';
import { theme } from '../../theme/theme.ts';

/** What the bar says while an artifact has no reactions (beside the one Add reaction button for those who may react). */
export const NO_REACTIONS = 'No reactions yet.';

/** The title of the reaction picker (reference §13). */
export const ADD_REACTION_TITLE = 'ADD REACTION';

const Bar = styled.section`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: ${theme.space.sm};
  position: relative;
`;

const Tallies = styled.ul`
  display: flex;
  flex-wrap: wrap;
  gap: ${theme.space.sm};
  margin: 0;
  padding: 0;
  list-style: none;
`;

const chip = `
  display: inline-flex;
  align-items: center;
  gap: 6px;
  min-height: 36px;
  padding: 0 12px;
  border-radius: 999px;
  font: inherit;
  line-height: 1;
`;

const ReactionToggle = styled.button`
  ${chip}
  border: 1px solid ${theme.color.borderStrong};
  background: ${theme.color.surface};
  color: ${theme.color.text};
  cursor: pointer;
  &[aria-pressed='true'] {
    border-color: ${theme.color.primary};
    background: #e3eef7;
    box-shadow: inset 0 0 0 1px ${theme.color.primary};
  }
  &:hover:not(:disabled) {
    background: ${theme.color.surfaceAlt};
  }
  &:disabled {
    opacity: 0.6;
    cursor: wait;
  }
`;

const ReactionCount = styled.span`
  ${chip}
  border: 1px solid ${theme.color.border};
  background: ${theme.color.surfaceAlt};
`;

const Emoji = styled.span`
  font-size: 1.2rem;
`;

/** A reaction's meaning in words, so a chip reads without a colour-emoji font. */
const Meaning = styled.span`
  font-size: ${theme.font.size.sm};
  font-weight: ${theme.font.weight.medium};
`;

const Tally = styled.span`
  font-variant-numeric: tabular-nums;
  font-weight: ${theme.font.weight.bold};
`;

const Muted = styled.p`
  margin: 0;
  color: ${theme.color.textMuted};
`;

const AddButton = styled.button`
  ${chip}
  border: 1px dashed ${theme.color.primary};
  background: ${theme.color.surface};
  color: ${theme.color.primary};
  font-weight: ${theme.font.weight.bold};
  cursor: pointer;
  &:hover:not(:disabled) {
    background: ${theme.color.surfaceAlt};
  }
  &:disabled {
    opacity: 0.6;
    cursor: wait;
  }
`;

const Popover = styled.div`
  position: absolute;
  top: calc(100% + 6px);
  left: 0;
  z-index: 20;
  padding: ${theme.space.sm} ${theme.space.md} ${theme.space.md};
  background: ${theme.color.surface};
  border: 1px solid ${theme.color.border};
  border-radius: ${theme.radius.md};
  box-shadow: ${theme.shadow.popover};
`;

const PopoverTitle = styled.p`
  margin: 0 0 ${theme.space.sm};
  font-size: ${theme.font.size.xs};
  font-weight: ${theme.font.weight.bold};
  letter-spacing: 0.06em;
  color: ${theme.color.textMuted};
`;

const Choices = styled.div`
  display: grid;
  gap: ${theme.space.xxs};
  min-width: 220px;
`;

const Choice = styled.button`
  display: flex;
  align-items: center;
  gap: ${theme.space.sm};
  width: 100%;
  min-height: 44px;
  padding: 0 ${theme.space.sm};
  border: 1px solid transparent;
  border-radius: ${theme.radius.md};
  background: none;
  text-align: left;
  cursor: pointer;
  span:first-child {
    font-size: 1.4rem;
  }
  &[aria-pressed='true'] {
    border-color: ${theme.color.primary};
    background: #e3eef7;
  }
  &:hover {
    background: ${theme.color.surfaceAlt};
  }
`;

/** Marks the add button among the bar's buttons (the others are marked by their reaction). */
const ADD_KEY = 'add';

/**
 * The buttons are disabled while a reaction is sent, which drops the focus to the page. This
 * remembers which button had it and, once the reaction is sent, gives the focus back to that
 * button (or to the add button when that reaction is gone).
 */
function useFocusBackAfterSending(sending: boolean) {
  const bar = useRef<HTMLElement>(null);
  const lost = useRef<string | null>(null);
  useEffect(() => {
    if (sending || lost.current === null) return;
    const key = lost.current;
    lost.current = null;
    const active = document.activeElement;
    if (active !== null && active !== document.body) return;
    const buttons = [...(bar.current?.querySelectorAll<HTMLElement>('[data-focus-key]') ?? [])];
    (
      buttons.find((b) => b.dataset['focusKey'] === key) ?? buttons.find((b) => b.dataset['focusKey'] === ADD_KEY)
    )?.focus();
  }, [sending]);
  const onBlur = (event: FocusEvent<HTMLElement>) => {
    const key = (event.target as HTMLElement).dataset['focusKey'];
    if (sending && key && event.relatedTarget === null) lost.current = key;
  };
  return { bar, onBlur };
}

/** The accessible name of a counted reaction: its meaning and how many gave it. */
const tallyName = (tally: ReactionTally): string => `${tally.meaning}, ${tally.count}`;

/**
 * The 'ADD REACTION' picker: a button that opens the four reactions (each named by its meaning,
 * pressed when it is the viewer's). Arrow keys move between them, Enter or Space picks one,
 * Escape closes and gives focus back to the button.
 */
function ReactionPicker({
  tallies,
  disabled,
  onPick,
}: {
  tallies: readonly ReactionTally[];
  disabled: boolean;
  onPick: (value: ReactionValue) => void;
}) {
  const [open, setOpen] = useState(false);
  const popoverId = useId();
  const titleId = useId();
  const trigger = useRef<HTMLButtonElement>(null);
  const popover = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return undefined;
    popover.current?.querySelector<HTMLButtonElement>('button')?.focus();
    const handlePointer = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!popover.current?.contains(target) && !trigger.current?.contains(target)) setOpen(false);
    };
    document.addEventListener('pointerdown', handlePointer);
    return () => document.removeEventListener('pointerdown', handlePointer);
  }, [open]);

  const close = () => {
    setOpen(false);
    trigger.current?.focus();
  };

  const handleKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const buttons = [...(popover.current?.querySelectorAll<HTMLButtonElement>('button') ?? [])];
    const index = buttons.indexOf(document.activeElement as HTMLButtonElement);
    const move = (to: number) => {
      event.preventDefault();
      buttons[(to + buttons.length) % buttons.length]?.focus();
    };
    if (event.key === 'Escape') {
      event.preventDefault();
      close();
    } else if (event.key === 'ArrowRight' || event.key === 'ArrowDown') move(index + 1);
    else if (event.key === 'ArrowLeft' || event.key === 'ArrowUp') move(index - 1);
    else if (event.key === 'Home') move(0);
    else if (event.key === 'End') move(buttons.length - 1);
    else if (event.key === 'Tab') setOpen(false);
  };

  return (
    <>
      <AddButton
        ref={trigger}
        data-focus-key={ADD_KEY}
        type="button"
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-controls={open ? popoverId : undefined}
        disabled={disabled}
        onClick={() => setOpen((was) => !was)}
      >
        <span aria-hidden="true">+</span> Add reaction
      </AddButton>
      {open ? (
        <Popover ref={popover} id={popoverId} role="dialog" aria-labelledby={titleId} onKeyDown={handleKeyDown}>
          <PopoverTitle id={titleId}>{ADD_REACTION_TITLE}</PopoverTitle>
          <Choices>
            {tallies.map((tally) => (
              <Choice
                key={tally.value}
                type="button"
                aria-label={tally.meaning}
                aria-pressed={tally.mine}
                onClick={() => {
                  onPick(tally.value);
                  close();
                }}
              >
                <span aria-hidden="true">{tally.value}</span>
                <span aria-hidden="true">{tally.meaning}</span>
              </Choice>
            ))}
          </Choices>
        </Popover>
      ) : null}
    </>
  );
}

/** The counted reactions as toggles of the viewer's own, and the picker (once the reactions are there). */
function Toggles({ bar, given, tallies }: { bar: ReactionsRef; given: ReactionTally[]; tallies: ReactionTally[] }) {
  const canReact = useCanReact(bar);
  const pending = usePendingReaction(bar);
  const { toggle } = useReactionsEvents(bar);
  return (
    <>
      {given.length > 0 ? (
        <Tallies>
          {given.map((tally) => (
            <li key={tally.value}>
              {canReact ? (
                <ReactionToggle
                  data-focus-key={tally.value}
                  type="button"
                  aria-label={tallyName(tally)}
                  aria-pressed={tally.mine}
                  disabled={pending !== null}
                  onClick={() => toggle(tally.value)}
                >
                  {/* The name ('Exemplar, 2') holds what the chip shows: the meaning, then the count. */}
                  <Emoji aria-hidden="true">{tally.value}</Emoji>
                  <Meaning>{tally.meaning}</Meaning> <Tally>{tally.count}</Tally>
                </ReactionToggle>
              ) : (
                <ReactionCount role="img" aria-label={tallyName(tally)}>
                  <Emoji aria-hidden="true">{tally.value}</Emoji>
                  <Meaning aria-hidden="true">{tally.meaning}</Meaning> <Tally aria-hidden="true">{tally.count}</Tally>
                </ReactionCount>
              )}
            </li>
          ))}
        </Tallies>
      ) : (
        <Muted>{NO_REACTIONS}</Muted>
      )}
      {canReact ? <ReactionPicker tallies={tallies} disabled={pending !== null} onPick={toggle} /> : null}
    </>
  );
}

/**
 * The reactions of a shared artifact: each reaction given, with its count, as a toggle of the
 * viewer's own (pressed when theirs: pressing removes it, otherwise adds it), 'No reactions yet.'
 * when there are none, and one 'Add reaction' button (its name is its text) opening the 'ADD
 * REACTION' picker. Read-only viewers see the counts only. The counts are the discussion's.
 */
export function ReactionsBar({ discussion }: { discussion: DiscussionRef }) {
  const headingId = useId();
  const status = useDiscussionStatus(discussion);
  const error = useDiscussionError(discussion);
  const reactions = useDiscussionReactions(discussion);
  const viewerId = useDiscussionViewer(discussion);
  const tallies = useMemo(() => tallyReactions(reactions, viewerId), [reactions, viewerId]);
  const bar = useReactionsBarRef(discussion);
  const sending = usePendingReaction(bar) !== null;
  const { retry } = useDiscussionEvents(discussion);
  const { bar: barRef, onBlur: onBarBlur } = useFocusBackAfterSending(sending);

  return (
    // Busy while a reaction is sent.
    <Bar ref={barRef} onBlur={onBarBlur} aria-labelledby={headingId} aria-busy={sending || undefined}>
      <h4 id={headingId} className="visually-hidden">
        Reactions
      </h4>
      {status === 'loading' ? <Muted role="status">Loading reactions…</Muted> : null}
      {status === 'loadFailed' ? (
        <Muted role="alert">
          The reactions could not be loaded. {error?.message}{' '}
          <Button type="button" $variant="link" onClick={retry}>
            Try again
          </Button>
        </Muted>
      ) : null}
      {status === 'ready' && bar ? (
        <Toggles bar={bar} given={tallies.filter((t) => t.count > 0)} tallies={tallies} />
      ) : null}
    </Bar>
  );
}
