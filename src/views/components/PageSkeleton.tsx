import styled, { keyframes } from 'styled-components';
import { theme } from '../theme/theme.ts';

const pulse = keyframes`0%, 100% { opacity: 1; } 50% { opacity: 0.45; }`;

const Bar = styled.div<{ $width: string; $height?: string }>`
  width: ${({ $width }) => $width};
  height: ${({ $height }) => $height ?? '16px'};
  border-radius: 4px;
  background: ${theme.color.surfaceAlt};
  margin-bottom: ${theme.space.md};
  animation: ${pulse} 1.4s ease-in-out infinite;
`;

/**
 * As tall as the screen: the footer waits below the fold rather than showing under the bars and
 * being pushed away when a long page arrives (a layout shift Lighthouse counts).
 */
const Frame = styled.div`
  min-height: 100vh;
`;

/** A loading placeholder shaped like a page, so nothing jumps when the content arrives. */
export function PageSkeleton({ label = 'Loading page' }: { label?: string }) {
  return (
    <Frame role="status" aria-label={label} aria-busy="true">
      <Bar $width="40%" $height="32px" />
      <Bar $width="90%" />
      <Bar $width="75%" />
      <Bar $width="85%" />
      <Bar $width="60%" />
    </Frame>
  );
}
