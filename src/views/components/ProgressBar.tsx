import styled from 'styled-components';
import { theme } from '../theme/theme.ts';

const Track = styled.div`
  flex: 1;
  height: 8px;
  min-width: 80px;
  border-radius: ${theme.radius.pill};
  background: ${theme.color.surfaceAlt};
  border: 1px solid ${theme.color.border};
  overflow: hidden;
`;

const Fill = styled.div`
  height: 100%;
  background: ${theme.color.primary};
  transition: width 150ms linear;
`;

const Wrap = styled.div`
  display: flex;
  align-items: center;
  gap: ${theme.space.sm};
  font-size: ${theme.font.size.sm};
  font-variant-numeric: tabular-nums;
`;

/** A determinate progress bar (`role="progressbar"`, 0–100) with its percentage as text. */
export function ProgressBar({
  value,
  label,
}: {
  /** 0 to 100. */ value: number;
  /** The accessible name. */ label: string;
}) {
  const percent = Math.min(100, Math.max(0, Math.round(value)));
  return (
    <Wrap>
      <Track
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={`${percent}%`}
      >
        <Fill style={{ width: `${percent}%` }} />
      </Track>
      <span aria-hidden="true">{percent}%</span>
    </Wrap>
  );
}
