import { useEffect, useId, useRef, useState, type FocusEvent, type KeyboardEvent } from 'react';
import styled from 'styled-components';
import { FieldError, FieldWrap, inputStyles } from './Field.tsx';
import { theme } from '../theme/theme.ts';

/** One choice of a `MultiSelect`. */
export interface MultiSelectOption {
  value: string;
  label: string;
}

const Wrap = styled.div`
  position: relative;
`;

const LabelText = styled.span`
  font-weight: ${theme.font.weight.medium};
`;

const Trigger = styled.button<{ $invalid: boolean }>`
  ${inputStyles}
  width: 100%;
  display: flex;
  align-items: center;
  justify-content: space-between;
  gap: ${theme.space.sm};
  border: 1px solid ${({ $invalid }) => ($invalid ? theme.color.danger : theme.color.borderStrong)};
  color: ${theme.color.text};
  font: inherit;
  text-align: start;
  cursor: pointer;
  span {
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
  }
  &:disabled {
    cursor: not-allowed;
    opacity: 0.6;
  }
`;

const Placeholder = styled.span`
  color: ${theme.color.textMuted};
`;

const Popover = styled.div`
  position: absolute;
  z-index: 20;
  top: calc(100% + 4px);
  left: 0;
  min-width: 100%;
  max-height: 320px;
  overflow: auto;
  padding: ${theme.space.sm};
  background: ${theme.color.surface};
  border: 1px solid ${theme.color.border};
  border-radius: ${theme.radius.md};
  box-shadow: ${theme.shadow.popover};
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax(130px, 1fr));
  gap: ${theme.space.xxs} ${theme.space.sm};
`;

const Choice = styled.label`
  display: flex;
  align-items: center;
  gap: ${theme.space.sm};
  min-height: 32px;
  padding: 0 ${theme.space.xs};
  border-radius: ${theme.radius.sm};
  cursor: pointer;
  white-space: nowrap;
  &:hover {
    background: ${theme.color.surfaceAlt};
  }
  input {
    width: 18px;
    height: 18px;
    margin: 0;
    flex-shrink: 0;
  }
`;

function Chevron({ open }: { open: boolean }) {
  return (
    <svg width="12" height="12" viewBox="0 0 12 12" aria-hidden="true" focusable="false" style={{ flexShrink: 0 }}>
      <path d={open ? 'M2 8l4-4 4 4' : 'M2 4l4 4 4-4'} fill="none" stroke="currentColor" strokeWidth="2" />
    </svg>
  );
}

/**
 * A labelled choice of several values: a button that shows what is chosen and opens a list of
 * checkboxes. Escape or leaving the list closes it; focus returns to the button on Escape.
 */
export function MultiSelect({
  label,
  options,
  value,
  onChange,
  placeholder = 'None selected',
  disabled = false,
  error,
}: {
  label: string;
  options: readonly MultiSelectOption[];
  /** The chosen values. */
  value: readonly string[];
  /** Called with the new list (in the options' order). */
  onChange: (value: string[]) => void;
  /** Shown when nothing is chosen. */
  placeholder?: string;
  disabled?: boolean;
  error?: string | null | undefined;
}) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const wrap = useRef<HTMLDivElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const chosen = options.filter((o) => value.includes(o.value));

  useEffect(() => {
    if (!open) return undefined;
    const handleDown = (event: MouseEvent) => {
      if (wrap.current && !wrap.current.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', handleDown);
    return () => document.removeEventListener('mousedown', handleDown);
  }, [open]);

  const toggle = (optionValue: string) => {
    const next = new Set(value);
    if (next.has(optionValue)) next.delete(optionValue);
    else next.add(optionValue);
    onChange(options.filter((o) => next.has(o.value)).map((o) => o.value));
  };

  const handleKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape' && open) {
      event.stopPropagation();
      setOpen(false);
      trigger.current?.focus();
    }
  };

  const handleBlur = (event: FocusEvent) => {
    if (open && event.relatedTarget && wrap.current && !wrap.current.contains(event.relatedTarget as Node))
      setOpen(false);
  };

  return (
    <FieldWrap>
      <LabelText id={`${id}-label`}>{label}</LabelText>
      <Wrap ref={wrap} onKeyDown={handleKeyDown} onBlur={handleBlur}>
        <Trigger
          ref={trigger}
          type="button"
          $invalid={Boolean(error)}
          disabled={disabled}
          aria-expanded={open}
          aria-controls={open ? `${id}-list` : undefined}
          aria-labelledby={`${id}-label ${id}-value`}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onClick={() => setOpen((o) => !o)}
        >
          {chosen.length > 0 ? (
            <span id={`${id}-value`}>{chosen.map((o) => o.label).join(', ')}</span>
          ) : (
            <Placeholder id={`${id}-value`}>{placeholder}</Placeholder>
          )}
          <Chevron open={open} />
        </Trigger>
        {open ? (
          <Popover id={`${id}-list`} role="group" aria-labelledby={`${id}-label`}>
            {options.map((option) => (
              <Choice key={option.value}>
                <input type="checkbox" checked={value.includes(option.value)} onChange={() => toggle(option.value)} />
                {option.label}
              </Choice>
            ))}
          </Popover>
        ) : null}
      </Wrap>
      {error ? <FieldError id={`${id}-error`}>{error}</FieldError> : null}
    </FieldWrap>
  );
}
