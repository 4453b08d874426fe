import styled, { keyframes } from 'styled-components';
import { theme } from '../theme/theme.ts';

const spin = keyframes`to { transform: rotate(360deg); }`;

const Region = styled.div`
  display: flex;
  align-items: center;
  gap: ${theme.space.sm};
  min-height: 28px;
  color: ${theme.color.textMuted};
  font-weight: ${theme.font.weight.medium};
`;

const Ring = styled.span`
  display: inline-block;
  width: 20px;
  height: 20px;
  border: 3px solid ${theme.color.border};
  border-top-color: ${theme.color.primary};
  border-radius: 50%;
  animation: ${spin} 0.8s linear infinite;
  flex-shrink: 0;
`;

/**
 * A visible progress message with a spinner, e.g. 'Copying artifact to shared portfolio'. The
 * live region is always present (empty while idle) so the message is announced when it appears;
 * the spinner itself is decorative.
 */
export function BusyMessage({
  busy,
  message,
}: {
  /** Whether the work runs. */ busy: boolean;
  /** What is happening. */ message: string;
}) {
  return (
    <Region role="status">
      {busy ? (
        <>
          <Ring aria-hidden="true" data-testid="busy-spinner" />
          <span>{message}</span>
        </>
      ) : null}
    </Region>
  );
}
