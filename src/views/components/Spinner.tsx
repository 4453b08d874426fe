import styled, { keyframes } from 'styled-components';
import { theme } from '../theme/theme.ts';

const spin = keyframes`to { transform: rotate(360deg); }`;

const Ring = styled.span<{ $size: number }>`
  display: inline-block;
  width: ${({ $size }) => $size}px;
  height: ${({ $size }) => $size}px;
  border: 3px solid ${theme.color.border};
  border-top-color: ${theme.color.primary};
  border-radius: 50%;
  animation: ${spin} 0.8s linear infinite;
  flex-shrink: 0;
`;

/** A busy indicator with an accessible name. */
export function Spinner({ label = 'Loading', size = 20 }: { label?: string; size?: number }) {
  return <Ring role="status" aria-label={label} $size={size} />;
}
