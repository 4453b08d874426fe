import { useId } from 'react';
import styled from 'styled-components';
import { useBrowserEvents, useFilters } from '../../machines/portfolioBrowser/usePortfolioBrowser.ts';
import { activeFilterCount, filterValueLabel, RECENT_FILTER_LABEL } from '../../machines/portfolioBrowser/selectors.ts';
import { Button } from '../components/Button.tsx';
import { theme } from '../theme/theme.ts';

const ChipRow = styled.div`
  display: flex;
  align-items: center;
  flex-wrap: wrap;
  gap: ${theme.space.sm};
  margin-bottom: ${theme.space.md};
  ul {
    display: flex;
    flex-wrap: wrap;
    gap: ${theme.space.xs} ${theme.space.sm};
    margin: 0;
    padding: 0;
    list-style: none;
  }
`;

const ChipLabel = styled.span`
  font-size: ${theme.font.size.sm};
  color: ${theme.color.textMuted};
`;

const FilterChip = styled.li`
  display: inline-flex;
  align-items: center;
  gap: ${theme.space.xs};
  max-width: 100%;
  padding: 2px 2px 2px ${theme.space.sm};
  border: 1px solid ${theme.color.primary};
  border-radius: ${theme.radius.pill};
  background: #e3eef7;
  font-size: ${theme.font.size.sm};
  span {
    overflow-wrap: anywhere;
  }
  button {
    display: inline-flex;
    align-items: center;
    justify-content: center;
    width: 24px;
    height: 24px;
    border: none;
    border-radius: 50%;
    background: none;
    color: ${theme.color.primary};
    font-size: 1.1rem;
    line-height: 1;
    cursor: pointer;
    &:hover {
      background: ${theme.color.border};
    }
  }
`;

/** The chosen filters as removable chips, with Clear all; nothing when no filter is chosen. */
export function ActiveFilters() {
  const filters = useFilters();
  const { toggleFilter, setRecent, clearFilters } = useBrowserEvents();
  const labelId = useId();
  if (activeFilterCount(filters) === 0) return null;
  const chips = [
    ...(filters.recentSince !== null
      ? [{ id: 'recent', label: RECENT_FILTER_LABEL, remove: () => setRecent(false) }]
      : []),
    ...Object.entries(filters.values).flatMap(([key, values]) =>
      values.map((value) => ({
        id: `${key}\u0000${value}`,
        label: filterValueLabel(key, value),
        remove: () => toggleFilter(key, value),
      })),
    ),
  ];
  return (
    <ChipRow>
      <ChipLabel id={labelId}>Filtered by:</ChipLabel>
      <ul aria-labelledby={labelId}>
        {chips.map((chip) => (
          <FilterChip key={chip.id}>
            <span>{chip.label}</span>
            <button type="button" aria-label={`Remove filter ${chip.label}`} onClick={chip.remove}>
              ×
            </button>
          </FilterChip>
        ))}
      </ul>
      <Button type="button" $variant="link" onClick={clearFilters}>
        Clear all
      </Button>
    </ChipRow>
  );
}
