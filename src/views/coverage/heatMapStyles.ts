import styled from 'styled-components';
import { theme } from '../theme/theme.ts';

/** The map's box: scrolls sideways when the columns are wider than the page; a large map also scrolls down in it. */
export const Scroller = styled.div<{ $windowed: boolean; $height: number }>`
  overflow-x: auto;
  overflow-y: ${(p) => (p.$windowed ? 'auto' : 'visible')};
  max-height: ${(p) => (p.$windowed ? `${p.$height}px` : 'none')};
  border: 1px solid ${theme.color.border};
  border-radius: ${theme.radius.sm};
  background: ${theme.color.surface};
`;

export const Table = styled.table<{ $windowed: boolean }>`
  border-collapse: separate;
  border-spacing: 0;
  width: 100%;
  font-size: ${theme.font.size.sm};
  thead th {
    position: sticky;
    top: 0;
    z-index: 2;
    background: ${theme.color.surfaceAlt};
    border-bottom: 1px solid ${theme.color.borderStrong};
    padding: ${theme.space.xs} ${theme.space.sm};
    text-align: center;
    vertical-align: bottom;
    font-weight: ${theme.font.weight.medium};
    min-width: 72px;
    max-width: 128px;
  }
  thead th:first-child {
    left: 0;
    z-index: 3;
    text-align: start;
    min-width: 140px;
  }
  th .code {
    display: block;
    font-weight: ${theme.font.weight.bold};
  }
  th .label {
    display: -webkit-box;
    -webkit-line-clamp: 3;
    -webkit-box-orient: vertical;
    overflow: hidden;
    font-size: ${theme.font.size.xs};
    font-weight: ${theme.font.weight.regular};
    color: ${theme.color.textMuted};
  }
  tbody th {
    position: sticky;
    left: 0;
    z-index: 1;
    background: ${theme.color.surface};
    text-align: start;
    font-weight: ${theme.font.weight.medium};
    padding: 0 ${theme.space.sm};
    max-width: 220px;
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
    border-right: 1px solid ${theme.color.border};
  }
  tbody tr:not(.spacer) {
    height: 44px;
  }
  td {
    padding: 1px;
    border-bottom: 1px solid ${theme.color.surfaceAlt};
  }
  td.total {
    text-align: center;
    padding: 0 ${theme.space.sm};
    color: ${theme.color.textMuted};
  }
  a {
    color: ${theme.color.primary};
  }
`;

/** A cell: its count on its shade, the level reached below; the chosen one framed. */
export const CellButton = styled.button<{ $background: string; $text: string }>`
  display: flex;
  flex-direction: column;
  align-items: center;
  justify-content: center;
  width: 100%;
  min-width: 64px;
  height: 40px;
  border: 1px solid ${theme.color.border};
  border-radius: ${theme.radius.sm};
  background: ${(p) => p.$background};
  color: ${(p) => p.$text};
  font: inherit;
  line-height: 1.1;
  cursor: pointer;
  .count {
    font-weight: ${theme.font.weight.bold};
  }
  .level {
    font-size: ${theme.font.size.xs};
  }
  &[aria-pressed='true'] {
    box-shadow:
      inset 0 0 0 2px ${theme.color.surface},
      0 0 0 3px ${theme.color.text};
  }
  &:focus-visible {
    outline: 3px solid ${theme.color.focus};
    outline-offset: 1px;
  }
`;
