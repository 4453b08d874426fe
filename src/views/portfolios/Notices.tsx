import type { ReactNode } from 'react';
import styled from 'styled-components';
import { Button } from '../components/Button.tsx';
import { theme } from '../theme/theme.ts';

const Box = styled.div<{ $tone: 'danger' | 'info' }>`
  padding: ${theme.space.lg};
  background: ${theme.color.surface};
  border: 1px solid ${theme.color.border};
  border-left: 6px solid ${({ $tone }) => ($tone === 'danger' ? theme.color.danger : theme.color.primary)};
  border-radius: ${theme.radius.md};
  margin-bottom: ${theme.space.md};
  h2 {
    font-size: ${theme.font.size.lg};
    margin-bottom: ${theme.space.sm};
  }
  p {
    margin: 0;
  }
  p + button,
  p + p {
    margin-top: ${theme.space.md};
  }
`;

/** The message for an artifact of the address that the portfolio does not hold. */
export const NOT_IN_PORTFOLIO = 'This artifact is not in the portfolio.';

/** Something went wrong: what, why, and (optionally) Try again. */
export function Problem({
  title,
  message,
  onRetry,
}: {
  title: string;
  message?: string | undefined;
  onRetry?: () => void;
}) {
  return (
    <Box $tone="danger" role="alert">
      <h2>{title}</h2>
      {message ? <p>{message}</p> : null}
      {onRetry ? (
        <Button type="button" onClick={onRetry}>
          Try again
        </Button>
      ) : null}
    </Box>
  );
}

/** A calm explanation where content will appear (nothing chosen yet, nothing there). */
export function Hint({ children }: { children: ReactNode }) {
  return <Box $tone="info">{children}</Box>;
}
