import { useSignals } from '@preact/signals-react/runtime';
import styled from 'styled-components';
import { dismiss, toasts, type Toast } from './toastStore.ts';

const Region = styled.div`
  position: fixed;
  right: ${({ theme }) => theme.space.md};
  bottom: ${({ theme }) => theme.space.md};
  display: flex;
  flex-direction: column;
  gap: ${({ theme }) => theme.space.sm};
  z-index: 1100;
  max-width: min(420px, calc(100vw - 32px));
`;

const Item = styled.div<{ $tone: Toast['tone'] }>`
  display: flex;
  align-items: flex-start;
  gap: ${({ theme }) => theme.space.sm};
  padding: ${({ theme }) => theme.space.md};
  border-radius: ${({ theme }) => theme.radius.md};
  box-shadow: ${({ theme }) => theme.shadow.popover};
  background: ${({ theme }) => theme.color.surface};
  border-left: 6px solid
    ${({ theme, $tone }) => ($tone === 'error' ? theme.color.danger : $tone === 'success' ? theme.color.success : theme.color.primary)};
  p { margin: 0; flex: 1; white-space: pre-wrap; overflow-wrap: anywhere; }
`;

const Close = styled.button`
  border: none;
  background: none;
  cursor: pointer;
  font-size: 1.25rem;
  line-height: 1;
  padding: 0 4px;
  color: ${({ theme }) => theme.color.textMuted};
`;

/** The messages of `notify`, announced to screen readers (errors assertively). */
export function Toaster() {
  useSignals();
  return (
    <Region role="region" aria-label="Notifications">
      {toasts.value.map((toast) => (
        <Item key={toast.id} $tone={toast.tone} role={toast.tone === 'error' ? 'alert' : 'status'}>
          <p>{toast.message}</p>
          <Close type="button" aria-label="Dismiss message" onClick={() => dismiss(toast.id)}>
            ×
          </Close>
        </Item>
      ))}
    </Region>
  );
}
