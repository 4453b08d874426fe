import { useEffect, useId, useRef, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import styled from 'styled-components';
import { Button } from './Button.tsx';
import { theme } from '../theme/theme.ts';

const Backdrop = styled.div`
  position: fixed;
  inset: 0;
  background: ${theme.color.overlay};
  display: flex;
  align-items: center;
  justify-content: center;
  padding: ${theme.space.md};
  z-index: 1000;
`;

const Panel = styled.div<{ $wide?: boolean; $fullOnPhone?: boolean }>`
  background: ${theme.color.surface};
  border-radius: ${theme.radius.md};
  box-shadow: ${theme.shadow.popover};
  width: 100%;
  max-width: ${({ $wide }) => ($wide ? '880px' : '480px')};
  max-height: calc(100vh - 32px);
  overflow: auto;
  padding: ${theme.space.lg};
  @media ${theme.media.phone} {
    padding: ${theme.space.md};
    ${({ $fullOnPhone }) => ($fullOnPhone ? 'position: fixed; inset: 0; max-width: none; max-height: none; border-radius: 0;' : '')}
  }
`;

const Title = styled.h2`
  font-size: ${theme.font.size.lg};
`;

export const DialogActions = styled.div`
  display: flex;
  justify-content: flex-end;
  gap: ${theme.space.sm};
  margin-top: ${theme.space.lg};
`;

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * A modal dialog: focus moves in and is kept inside, Escape closes it (unless `onClose` is
 * absent), and focus returns to where it was when it closes.
 */
export function Dialog({
  title,
  children,
  onClose,
  role = 'dialog',
  wide,
  fullOnPhone,
}: {
  title: string;
  children: ReactNode;
  /** Escape and the backdrop call this; omit it for dialogs that need an explicit answer. */
  onClose?: () => void;
  role?: 'dialog' | 'alertdialog';
  wide?: boolean;
  /** Take the whole screen on a phone (long dialogs). */
  fullOnPhone?: boolean;
}) {
  const titleId = useId();
  const panel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    const first =
      panel.current?.querySelector<HTMLElement>('[data-autofocus]') ??
      panel.current?.querySelector<HTMLElement>(FOCUSABLE);
    (first ?? panel.current)?.focus();
    return () => previous?.focus?.();
  }, []);
  const handleKeyDown = (event: React.KeyboardEvent) => {
    if (event.key === 'Escape' && onClose) {
      event.stopPropagation();
      onClose();
      return;
    }
    if (event.key !== 'Tab' || !panel.current) return;
    const items = [...panel.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
    if (items.length === 0) return;
    const first = items[0]!;
    const last = items[items.length - 1]!;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };
  return createPortal(
    <Backdrop onMouseDown={(e) => e.target === e.currentTarget && onClose?.()}>
      <Panel
        ref={panel}
        role={role}
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        onKeyDown={handleKeyDown}
        {...(wide ? { $wide: true } : {})}
        {...(fullOnPhone ? { $fullOnPhone: true } : {})}
      >
        <Title id={titleId}>{title}</Title>
        {children}
      </Panel>
    </Backdrop>,
    document.body,
  );
}

/** A NO / YES question (spec: confirmations before deleting). */
export function ConfirmDialog({
  title,
  message,
  onConfirm,
  onCancel,
  confirmLabel = 'YES',
  cancelLabel = 'NO',
  busy = false,
}: {
  title: string;
  message: ReactNode;
  onConfirm: () => void;
  onCancel: () => void;
  confirmLabel?: string;
  cancelLabel?: string;
  busy?: boolean;
}) {
  return (
    <Dialog title={title} role="alertdialog" onClose={onCancel}>
      <div>{message}</div>
      <DialogActions>
        <Button type="button" $variant="secondary" onClick={onCancel} data-autofocus disabled={busy}>
          {cancelLabel}
        </Button>
        <Button type="button" $variant="danger" onClick={onConfirm} disabled={busy}>
          {confirmLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** The question before leaving a form with unsaved changes. */
export const LEAVE_TITLE = 'Leave this page?';
export const LEAVE_MESSAGE = 'Your changes are not saved.';

/**
 * 'Leave this page? Your changes are not saved.': Stay on this page (the default, also Escape)
 * or Leave without saving.
 */
export function LeaveConfirmDialog({
  onLeave,
  onStay,
  busy = false,
}: {
  onLeave: () => void;
  onStay: () => void;
  busy?: boolean;
}) {
  return (
    <ConfirmDialog
      title={LEAVE_TITLE}
      message={LEAVE_MESSAGE}
      cancelLabel="Stay on this page"
      confirmLabel="Leave without saving"
      onCancel={onStay}
      onConfirm={onLeave}
      busy={busy}
    />
  );
}
