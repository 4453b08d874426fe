import type { ReactNode } from 'react';
import styled from 'styled-components';
import { theme } from '../theme/theme.ts';

const List = styled.ul`
  display: flex;
  flex-wrap: wrap;
  gap: ${theme.space.xs} ${theme.space.sm};
  margin: 0;
  padding: 0;
  list-style: none;
`;

/** One chip: a short label in a rounded box. */
export const Chip = styled.li`
  display: inline-block;
  max-width: 100%;
  padding: 2px ${theme.space.sm};
  border: 1px solid ${theme.color.border};
  border-radius: ${theme.radius.pill};
  background: ${theme.color.surfaceAlt};
  font-size: ${theme.font.size.sm};
  overflow-wrap: anywhere;
`;

/** A list of values shown as chips (a real list for screen readers). */
export function ChipList({
  items,
  label,
}: {
  items: readonly ReactNode[];
  /** Names the list for screen readers. */ label?: string;
}) {
  return (
    <List aria-label={label}>
      {items.map((item, index) => (
        <Chip key={index}>{item}</Chip>
      ))}
    </List>
  );
}
