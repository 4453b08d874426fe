import { useId } from 'react';
import styled from 'styled-components';
import { theme } from '../theme/theme.ts';

// Styled by its ARIA state rather than by props, so every switch shares one class (cheap in long tables).
const Track = styled.button`
  position: relative;
  display: inline-flex;
  align-items: center;
  flex-shrink: 0;
  width: 44px;
  height: 24px;
  padding: 0;
  border-radius: ${theme.radius.pill};
  border: 2px solid ${theme.color.textMuted};
  background: ${theme.color.surfaceAlt};
  cursor: pointer;
  transition:
    background-color 150ms ease,
    border-color 150ms ease;

  &::after {
    content: '';
    position: absolute;
    top: 2px;
    left: 2px;
    width: 16px;
    height: 16px;
    border-radius: 50%;
    background: ${theme.color.textMuted};
    box-shadow: 0 1px 2px rgba(15, 25, 35, 0.25);
    transition: transform 150ms ease;
  }

  &[aria-checked='true'] {
    border-color: ${theme.color.success};
    background: ${theme.color.success};
  }
  &[aria-checked='true']::after {
    background: ${theme.color.surface};
    transform: translateX(20px);
  }

  &:hover:not([aria-disabled='true']) {
    border-color: ${theme.color.text};
  }

  &[aria-disabled='true'] {
    cursor: not-allowed;
    opacity: 0.55;
  }

  /* Windows high contrast: keep the outline and the thumb visible. */
  @media (forced-colors: active) {
    border-color: ButtonText;
    &::after {
      background: ButtonText;
    }
  }
`;

/**
 * An on/off switch (`role="switch"`): Space or Enter flips it, focus is always visible.
 * A disabled switch stays focusable (`aria-disabled`) so keyboard and screen-reader users can
 * still reach it and hear why it cannot be changed.
 */
export function Switch({
  checked,
  onChange,
  label,
  disabled = false,
  description,
}: {
  /** Whether the switch is on. */
  checked: boolean;
  /** Called with the new value when the user flips the switch. */
  onChange: (checked: boolean) => void;
  /** The accessible name. */
  label: string;
  /** Shown as off-limits; flipping does nothing. */
  disabled?: boolean;
  /** Why it is as it is (read by screen readers, shown on hover). */
  description?: string | undefined;
}) {
  const descriptionId = useId();
  return (
    <>
      <Track
        type="button"
        role="switch"
        aria-checked={checked}
        aria-label={label}
        aria-disabled={disabled || undefined}
        aria-describedby={description ? descriptionId : undefined}
        title={description}
        onClick={() => {
          if (!disabled) onChange(!checked);
        }}
      />
      {description ? (
        <span id={descriptionId} className="visually-hidden">
          {description}
        </span>
      ) : null}
    </>
  );
}
