import styled, { css } from 'styled-components';
import { theme } from '../theme/theme.ts';

/** A plain vertical list: no bullets, no indent, small gaps between its items. */
export const stackedListStyle = css`
  display: flex;
  flex-direction: column;
  gap: ${theme.space.sm};
  margin: 0;
  padding: 0;
  list-style: none;
`;

/** The box of one card in such a list: a thin border around a slightly tinted surface. */
export const cardStyle = css`
  padding: ${theme.space.sm} ${theme.space.md};
  border: 1px solid ${theme.color.border};
  border-radius: ${theme.radius.md};
  background: ${theme.color.surfaceAlt};
`;

/** A panel on the page: the surface, a thin border, rounded corners and the cards' shadow. */
export const panelStyle = css`
  background: ${theme.color.surface};
  border: 1px solid ${theme.color.border};
  border-radius: ${theme.radius.md};
  box-shadow: ${theme.shadow.card};
`;

/** The box of a small form control (input, textarea, select). */
export const controlBoxStyle = css`
  min-height: 36px;
  padding: 4px 8px;
  border: 1px solid ${theme.color.borderStrong};
  border-radius: ${theme.radius.sm};
`;

/** A text input or textarea in the page's font. */
export const textFieldStyle = css`
  ${controlBoxStyle}
  font: inherit;
`;

/** A select on a surface, in the page's font. */
export const selectStyle = css`
  ${controlBoxStyle}
  background: ${theme.color.surface};
  font: inherit;
`;

/** A line of muted text (empty lists, hints). */
export const MutedText = styled.p`
  margin: 0;
  color: ${theme.color.textMuted};
`;
