import { useId, useMemo, useState } from 'react';
import styled from 'styled-components';
import { useBrowserEvents, useBrowserMode, useFilters, usePortfolio } from '../../machines/portfolioBrowser/usePortfolioBrowser.ts';
import {
  activeFilterCount,
  filterGroups,
  filterValueLabel,
  RECENT_FILTER_LABEL,
  type FilterGroup,
  type Filters,
} from '../../machines/portfolioBrowser/selectors.ts';
import type { StandardsPanel } from '../../schemas/standards.ts';
import { Button } from '../components/Button.tsx';
import { Dialog, DialogActions } from '../components/Dialog.tsx';

/** Clear all and Done stay in view at the foot of the long list. */
const StickyActions = styled(DialogActions)`
  position: sticky;
  bottom: -${({ theme }) => theme.space.lg};
  margin: ${({ theme }) => theme.space.md} -${({ theme }) => theme.space.lg} -${({ theme }) => theme.space.lg};
  padding: ${({ theme }) => theme.space.md} ${({ theme }) => theme.space.lg};
  background: ${({ theme }) => theme.color.surface};
  border-top: 1px solid ${({ theme }) => theme.color.border};
`;

const Count = styled.span`
  display: inline-flex;
  align-items: center;
  justify-content: center;
  min-width: 22px;
  height: 22px;
  padding: 0 6px;
  border-radius: ${({ theme }) => theme.radius.pill};
  background: ${({ theme }) => theme.color.primary};
  color: ${({ theme }) => theme.color.primaryText};
  font-size: ${({ theme }) => theme.font.size.xs};
`;

const Group = styled.fieldset`
  margin: 0 0 ${({ theme }) => theme.space.md};
  padding: ${({ theme }) => theme.space.sm} ${({ theme }) => theme.space.md} ${({ theme }) => theme.space.md};
  border: 1px solid ${({ theme }) => theme.color.border};
  border-radius: ${({ theme }) => theme.radius.md};
  legend { padding: 0 ${({ theme }) => theme.space.xs}; font-weight: ${({ theme }) => theme.font.weight.bold}; }
`;

const Panel = styled.fieldset`
  margin: ${({ theme }) => theme.space.sm} 0 0;
  padding: 0;
  border: none;
  legend { padding: 0; margin-bottom: ${({ theme }) => theme.space.xs}; font-weight: ${({ theme }) => theme.font.weight.medium}; color: ${({ theme }) => theme.color.primary}; }
`;

const SectionHeading = styled.p`
  margin: ${({ theme }) => theme.space.sm} 0 ${({ theme }) => theme.space.xxs};
  font-size: ${({ theme }) => theme.font.size.sm};
  font-weight: ${({ theme }) => theme.font.weight.medium};
  color: ${({ theme }) => theme.color.textMuted};
`;

const Choices = styled.div`
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax(240px, 1fr));
  gap: ${({ theme }) => theme.space.xxs} ${({ theme }) => theme.space.md};
`;

const Check = styled.label`
  display: flex;
  align-items: flex-start;
  gap: ${({ theme }) => theme.space.sm};
  padding: ${({ theme }) => theme.space.xs} 0;
  cursor: pointer;
  input { width: 18px; height: 18px; margin: 3px 0 0; flex-shrink: 0; }
`;

const ChipRow = styled.div`
  display: flex;
  align-items: center;
  flex-wrap: wrap;
  gap: ${({ theme }) => theme.space.sm};
  margin-bottom: ${({ theme }) => theme.space.md};
  ul { display: flex; flex-wrap: wrap; gap: ${({ theme }) => theme.space.xs} ${({ theme }) => theme.space.sm}; margin: 0; padding: 0; list-style: none; }
`;

const ChipLabel = styled.span`
  font-size: ${({ theme }) => theme.font.size.sm};
  color: ${({ theme }) => theme.color.textMuted};
`;

const FilterChip = styled.li`
  display: inline-flex;
  align-items: center;
  gap: ${({ theme }) => theme.space.xs};
  max-width: 100%;
  padding: 2px 2px 2px ${({ theme }) => theme.space.sm};
  border: 1px solid ${({ theme }) => theme.color.primary};
  border-radius: ${({ theme }) => theme.radius.pill};
  background: #e3eef7;
  font-size: ${({ theme }) => theme.font.size.sm};
  span { overflow-wrap: anywhere; }
  button {
    display: inline-flex;
    align-items: center;
    justify-content: center;
    width: 24px;
    height: 24px;
    border: none;
    border-radius: 50%;
    background: none;
    color: ${({ theme }) => theme.color.primary};
    font-size: 1.1rem;
    line-height: 1;
    cursor: pointer;
    &:hover { background: ${({ theme }) => theme.color.border}; }
  }
`;

const Glyph = styled.span`
  font-size: 1.15rem;
  line-height: 1;
`;

/** A choice; a symbol (a reaction's emoji) is shown before its meaning, which names the checkbox. */
function Checkbox({ label, symbol, checked, onChange }: { label: string; symbol?: string | undefined; checked: boolean; onChange: () => void }) {
  return (
    <Check title={symbol ? label : undefined}>
      <input type="checkbox" checked={checked} onChange={onChange} />
      {symbol ? <Glyph aria-hidden="true">{symbol}</Glyph> : null}
      <span>{label}</span>
    </Check>
  );
}

function StandardsPanels({ panels, chosen, onToggle }: { panels: readonly StandardsPanel[]; chosen: readonly string[]; onToggle: (value: string) => void }) {
  const id = useId();
  return (
    <>
      {panels.map((panel, p) => (
        <Panel key={panel.panel}>
          <legend>{panel.panel}</legend>
          {panel.sections.map((section, s) => (
            <div key={`${p}-${s}`} role="group" aria-labelledby={section.heading ? `${id}-${p}-${s}` : undefined}>
              {section.heading ? <SectionHeading id={`${id}-${p}-${s}`}>{section.heading}</SectionHeading> : null}
              <Choices>
                {section.items.map((item) => (
                  <Checkbox key={item} label={item} checked={chosen.includes(item)} onChange={() => onToggle(item)} />
                ))}
              </Choices>
            </div>
          ))}
        </Panel>
      ))}
    </>
  );
}

function FilterGroupFields({ group, filters, onToggle }: { group: FilterGroup; filters: Filters; onToggle: (key: string, value: string) => void }) {
  const chosen = filters.values[group.key] ?? [];
  return (
    <Group>
      <legend>{group.label}</legend>
      {group.panels ? (
        <StandardsPanels panels={group.panels} chosen={chosen} onToggle={(value) => onToggle(group.key, value)} />
      ) : (
        <Choices>
          {group.choices.map((choice) => {
            const meaning = group.meanings?.[choice];
            return (
              <Checkbox
                key={choice}
                label={meaning ?? choice}
                symbol={meaning ? choice : undefined}
                checked={chosen.includes(choice)}
                onChange={() => onToggle(group.key, choice)}
              />
            );
          })}
        </Choices>
      )}
    </Group>
  );
}

/**
 * 'Filter By': a dialog with the recent filter, (shared portfolios) Show Only, Grade and Has
 * Reactions, every choice question of the portfolio with its choices, and the standards panels.
 * Ticks apply at once; artifacts must match every question that has ticks, and any one tick
 * within a question.
 */
export function FilterBy() {
  const [open, setOpen] = useState(false);
  const portfolio = usePortfolio();
  const shared = useBrowserMode() === 'shared';
  const filters = useFilters();
  const { toggleFilter, setRecent, clearFilters } = useBrowserEvents();
  const groups = useMemo(() => filterGroups(portfolio?.structure ?? [], shared), [portfolio?.structure, shared]);
  const count = activeFilterCount(filters);
  return (
    <>
      <Button type="button" $variant="secondary" aria-haspopup="dialog" onClick={() => setOpen(true)}>
        Filter By
        {count > 0 ? <Count aria-hidden="true">{count}</Count> : null}
      </Button>
      {open ? (
        <Dialog title="Filter By" wide onClose={() => setOpen(false)}>
          <Group>
            <legend>Recent</legend>
            <Checkbox label={RECENT_FILTER_LABEL} checked={filters.recentSince !== null} onChange={() => setRecent(filters.recentSince === null)} />
          </Group>
          {groups.map((group) => (
            <FilterGroupFields key={group.key} group={group} filters={filters} onToggle={toggleFilter} />
          ))}
          <StickyActions>
            <Button type="button" $variant="secondary" onClick={clearFilters} disabled={count === 0}>
              Clear all
            </Button>
            <Button type="button" onClick={() => setOpen(false)} data-autofocus>
              Done
            </Button>
          </StickyActions>
        </Dialog>
      ) : null}
    </>
  );
}

/** The chosen filters as removable chips, with Clear all; nothing when no filter is chosen. */
export function ActiveFilters() {
  const filters = useFilters();
  const { toggleFilter, setRecent, clearFilters } = useBrowserEvents();
  const labelId = useId();
  if (activeFilterCount(filters) === 0) return null;
  const chips = [
    ...(filters.recentSince !== null ? [{ id: 'recent', label: RECENT_FILTER_LABEL, remove: () => setRecent(false) }] : []),
    ...Object.entries(filters.values).flatMap(([key, values]) =>
      values.map((value) => ({ id: `${key}\u0000${value}`, label: filterValueLabel(key, value), remove: () => toggleFilter(key, value) })),
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
