import { useLayoutEffect, type RefObject } from 'react';
import { css } from 'styled-components';
import { theme } from '../theme/theme.ts';

/**
 * A table that becomes a list of cards on phones: each row a card, each cell a line under its
 * column's name (set by `useColumnLabels`), so that every value, control and error stays in view
 * at 390 px instead of scrolling sideways; sort buttons stay above the cards. Put it in the
 * table's styles.
 */
export const phoneCards = css`
  @media ${theme.media.compact} {
    && {
      min-width: 0;
      table-layout: auto;
    }
    thead {
      position: absolute;
      width: 1px;
      height: 1px;
      overflow: hidden;
      clip: rect(0 0 0 0);
      white-space: nowrap;
    }
    /* Sortable columns keep their sort buttons, as a wrapping bar above the cards. */
    thead:has(button) {
      position: static;
      width: auto;
      height: auto;
      overflow: visible;
      clip: auto;
      white-space: normal;
      display: block;
    }
    thead:has(button) tr {
      display: flex;
      flex-wrap: wrap;
      gap: ${theme.space.xs} ${theme.space.md};
      padding: ${theme.space.xs} ${theme.space.sm};
    }
    thead:has(button) th {
      display: block;
      border: none;
      padding: 0;
      background: none;
    }
    thead:has(button) th:not(:has(button)) {
      display: none;
    }
    colgroup {
      display: none;
    }
    tbody,
    tbody tr,
    tbody td {
      display: block;
      width: auto;
    }
    tbody tr {
      padding: ${theme.space.sm} 0;
      border-bottom: 1px solid ${theme.color.border};
    }
    tbody tr:last-child {
      border-bottom: none;
    }
    && tbody td {
      padding: ${theme.space.xxs} ${theme.space.md};
      border-bottom: none;
      text-align: start;
      overflow-wrap: break-word;
      word-break: normal;
    }
    tbody td[data-label]:not([data-label=''])::before {
      content: attr(data-label);
      display: block;
      color: ${theme.color.textMuted};
      font-size: ${theme.font.size.xs};
      font-weight: ${theme.font.weight.bold};
      letter-spacing: 0.04em;
      text-transform: uppercase;
    }
  }
`;

/** Names each body cell after its column's header (`data-label`), for `phoneCards`. */
export function useColumnLabels(table: RefObject<HTMLTableElement | null>): void {
  useLayoutEffect(() => {
    const element = table.current;
    if (!element) return;
    const headers = [...element.querySelectorAll('thead th')].map((th) => (th.textContent ?? '').trim());
    for (const row of element.querySelectorAll('tbody tr')) {
      [...row.children].forEach((cell, index) => {
        if (cell.tagName === 'TD' && !cell.hasAttribute('colspan'))
          cell.setAttribute('data-label', headers[index] ?? '');
      });
    }
  });
}
