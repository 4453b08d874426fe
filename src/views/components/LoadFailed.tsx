import type { ElementType, ReactNode } from 'react';
import { Button } from './Button.tsx';
import { MutedText } from './cardStyles.ts';

/**
 * A load failure inside a section, as one alert line: what could not be loaded, the error's
 * message and a Try again link. `box` is the line's element (default: muted text).
 */
export function LoadFailed({
  what,
  message,
  onRetry,
  box: Box = MutedText,
}: {
  what: ReactNode;
  message: string | undefined;
  onRetry: () => void;
  box?: ElementType;
}) {
  return (
    <Box role="alert">
      {what} {message}{' '}
      <Button type="button" $variant="link" onClick={onRetry}>
        Try again
      </Button>
    </Box>
  );
}
