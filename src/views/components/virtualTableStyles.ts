import styled, { css } from 'styled-components';
import { theme } from '../theme/theme.ts';
import { panelStyle } from './cardStyles.ts';

export const HEADER_HEIGHT = 44;

export const Grid = styled.div<{ $height: number; $natural: boolean }>`
  position: relative;
  /* Rows become cards when the table itself is narrow (a phone, or beside a comparison). */
  container-type: inline-size;
  height: ${({ $height }) => $height}px;
  overflow: auto;
  overscroll-behavior: contain;
  ${panelStyle}
  /* The fixed height is the wide screens' rule; narrower ones let the table grow with its rows. */
  @media ${theme.media.stacked} {
    ${({ $natural }) => ($natural ? 'height: auto; overflow: visible;' : 'height: min(70vh, 618px);')}
  }
`;

const rowLayout = css<{ $columns: string }>`
  display: grid;
  grid-template-columns: ${({ $columns }) => $columns};
  align-items: center;
  min-width: 100%;
`;

export const HeaderRow = styled.div<{ $columns: string }>`
  ${rowLayout}
  position: sticky;
  top: 0;
  z-index: 2;
  height: ${HEADER_HEIGHT}px;
  background: ${theme.color.surfaceAlt};
  border-bottom: 1px solid ${theme.color.border};
  border-radius: ${theme.radius.md} ${theme.radius.md} 0 0;
  @container ${theme.media.compactTable} {
    /* Cards have no columns: the sort buttons line up and wrap. */
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    height: auto;
    min-width: 0 !important;
    padding: ${theme.space.xs};
    & > [data-empty-header] {
      display: none;
    }
  }
`;

export const HeaderCell = styled.div<{ $align: 'start' | 'center' | 'end' | undefined }>`
  display: flex;
  justify-content: ${({ $align = 'start' }) => ($align === 'end' ? 'flex-end' : $align === 'center' ? 'center' : 'flex-start')};
  padding: 0 ${theme.space.xs};
  min-width: 0;
  color: ${theme.color.text};
  font-size: ${theme.font.size.xs};
  font-weight: ${theme.font.weight.bold};
  letter-spacing: 0.04em;
  line-height: 1.2;
  text-transform: uppercase;
  text-align: ${({ $align = 'start' }) => $align};
`;

export const SortButton = styled.button`
  display: inline-flex;
  align-items: center;
  gap: ${theme.space.xs};
  max-width: 100%;
  /* A target of at least 24 × 24 px (WCAG 2.2, 2.5.8). */
  min-width: 24px;
  min-height: 28px;
  padding: 4px;
  border: none;
  border-radius: ${theme.radius.sm};
  background: none;
  color: inherit;
  font: inherit;
  letter-spacing: inherit;
  text-transform: inherit;
  text-align: inherit;
  cursor: pointer;
  &:hover {
    background: ${theme.color.border};
  }
  span {
    display: -webkit-box;
    -webkit-line-clamp: 2;
    -webkit-box-orient: vertical;
    overflow: hidden;
  }
`;

/**
 * The body and, from here, its rows and cells: plain elements (a row is `role=row`, selected by
 * `aria-selected`; a cell `role=gridcell` with `data-align`, `data-primary`, `data-prefix`), so
 * drawing hundreds of rows costs no styled component each.
 */
export const Body = styled.div<{ $columns: string; $natural: boolean }>`
  position: relative;
  @container ${theme.media.compactTable} {
    min-width: 0 !important;
  }
  & > [role='row'] {
    display: grid;
    grid-template-columns: ${({ $columns }) => $columns};
    align-items: center;
    min-width: 100%;
    position: ${({ $natural }) => ($natural ? 'static' : 'absolute')};
    left: 0;
    right: 0;
    ${({ $natural }) => ($natural ? 'min-height: 48px; padding: 6px 0;' : '')}
    border-bottom: 1px solid ${theme.color.border};
    cursor: pointer;
    background: ${theme.color.surface};
    &[aria-selected='true'] {
      background: #e3eef7;
      box-shadow: inset 4px 0 0 ${theme.color.primary};
    }
    &:hover {
      background: #f5f7f9;
    }
    &[aria-selected='true']:hover {
      background: #d6e6f3;
    }
    &:focus-visible {
      outline: 3px solid ${theme.color.focus};
      outline-offset: -3px;
    }
    @container ${theme.media.compactTable} {
      /* A card: the primary cell on the first line, the others after it. */
      display: flex;
      flex-wrap: wrap;
      align-items: center;
      gap: 2px ${theme.space.md};
      min-width: 0 !important;
      padding: 10px ${theme.space.sm};
    }
  }
  & > [role='row'] > [role='gridcell'] {
    padding: 0 ${theme.space.sm};
    min-width: 0;
    text-align: start;
    ${({ $natural }) => ($natural ? 'white-space: normal; overflow-wrap: anywhere;' : 'overflow: hidden; text-overflow: ellipsis; white-space: nowrap;')}
    &[data-align='center'] {
      text-align: center;
    }
    &[data-align='end'] {
      text-align: end;
    }
    @container ${theme.media.compactTable} {
      padding: 0;
      text-align: start;
      &[data-align] {
        text-align: start;
      }
      flex: 0 1 auto;
      &[data-primary] {
        flex: 1 1 calc(100% - 48px);
      }
      &:empty {
        display: none;
      }
      &[data-prefix]::before {
        content: attr(data-prefix) ' ';
        color: ${theme.color.textMuted};
      }
    }
  }
`;

export const Empty = styled.div`
  padding: ${theme.space.xl} ${theme.space.md};
  text-align: center;
  color: ${theme.color.textMuted};
`;
