import { useEffect, useRef, type ButtonHTMLAttributes, type FocusEvent, type ReactNode } from 'react';
import styled, { keyframes } from 'styled-components';
import { Button } from './Button.tsx';

const spin = keyframes`to { transform: rotate(360deg); }`;

const Ring = styled.span`
  display: inline-block;
  width: 16px;
  height: 16px;
  border: 2px solid currentColor;
  border-right-color: transparent;
  border-radius: 50%;
  animation: ${spin} 0.8s linear infinite;
  flex-shrink: 0;
`;

/**
 * A button that is disabled and shows a spinner while its action runs. The spinner is
 * decorative: `busyLabel` is announced through a polite live region that is always present.
 * Disabling the focused button drops the focus to the page; when the action is over and the
 * button can be used again, the focus comes back to it.
 */
export function BusyButton({
  busy,
  busyLabel,
  children,
  disabled,
  onBlur,
  ...button
}: {
  /** Whether the action is running. */
  busy: boolean;
  /** What screen readers hear while it runs, e.g. "Logging in…". */
  busyLabel: string;
  children: ReactNode;
  $variant?: 'primary' | 'secondary' | 'danger';
} & ButtonHTMLAttributes<HTMLButtonElement>) {
  const ref = useRef<HTMLButtonElement>(null);
  const lostFocus = useRef(false);
  useEffect(() => {
    if (busy || disabled) return;
    const el = ref.current;
    const active = document.activeElement;
    if (lostFocus.current && el && (active === null || active === document.body)) el.focus();
    lostFocus.current = false;
  }, [busy, disabled]);
  const handleBlur = (event: FocusEvent<HTMLButtonElement>) => {
    if (busy && event.relatedTarget === null) lostFocus.current = true;
    onBlur?.(event);
  };
  return (
    <>
      <Button {...button} ref={ref} disabled={busy || disabled} aria-busy={busy || undefined} onBlur={handleBlur}>
        {busy ? <Ring aria-hidden="true" data-testid="busy-indicator" /> : null}
        {children}
      </Button>
      <span role="status" className="visually-hidden">
        {busy ? busyLabel : ''}
      </span>
    </>
  );
}
