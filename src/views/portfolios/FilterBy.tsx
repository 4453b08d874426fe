import { useMemo, useState } from 'react';
import styled from 'styled-components';
import {
  useBrowserEvents,
  useBrowserMode,
  useFilters,
  usePortfolio,
  useVisibleRows,
} from '../../machines/portfolioBrowser/usePortfolioBrowser.ts';
import { activeFilterCount, filterGroups, RECENT_FILTER_LABEL } from '../../machines/portfolioBrowser/selectors.ts';
import { Button } from '../components/Button.tsx';
import { Dialog, DialogActions } from '../components/Dialog.tsx';
import { FilterGroupFields } from './FilterGroupFields.tsx';
import { Checkbox, Collapsible, Group } from './FilterSection.tsx';
import { theme } from '../theme/theme.ts';

/** Clear all and Done stay in view at the foot of the long list. */
const StickyActions = styled(DialogActions)`
  position: sticky;
  bottom: -${theme.space.lg};
  margin: ${theme.space.md} -${theme.space.lg} -${theme.space.lg};
  padding: ${theme.space.md} ${theme.space.lg};
  background: ${theme.color.surface};
  border-top: 1px solid ${theme.color.border};
`;

const Count = styled.span`
  display: inline-flex;
  align-items: center;
  justify-content: center;
  min-width: 22px;
  height: 22px;
  padding: 0 6px;
  border-radius: ${theme.radius.pill};
  background: ${theme.color.primary};
  color: ${theme.color.primaryText};
  font-size: ${theme.font.size.xs};
`;

const Shown = styled.p`
  margin: 0 auto 0 0;
  align-self: center;
  color: ${theme.color.textMuted};
`;

/** The dialog's head: how many are chosen and Clear all. */
const Summary = styled.div`
  display: flex;
  align-items: center;
  justify-content: space-between;
  gap: ${theme.space.sm};
  margin-bottom: ${theme.space.sm};
  p {
    margin: 0;
    color: ${theme.color.textMuted};
  }
`;

const NONE_CHOSEN: readonly string[] = [];

/**
 * 'Filter By': a dialog (the whole screen on a phone) with how many filters are chosen and Clear
 * all, then collapsible sections, each saying how many of its choices are ticked: the recent
 * filter, (shared portfolios) Show Only, Grade (by name) and Has Reactions, every choice question
 * of the portfolio, and the standards panels. Ticks apply at once; artifacts must match every
 * question that has ticks, and any one tick within a question. Done says how many artifacts show.
 */
export function FilterBy() {
  const [open, setOpen] = useState(false);
  const portfolio = usePortfolio();
  const shared = useBrowserMode() === 'shared';
  const filters = useFilters();
  const shown = useVisibleRows().length;
  const { toggleFilter, setRecent, clearFilters } = useBrowserEvents();
  const groups = useMemo(() => filterGroups(portfolio?.structure ?? [], shared), [portfolio?.structure, shared]);
  const count = activeFilterCount(filters);
  return (
    <>
      <Button type="button" $variant="secondary" aria-haspopup="dialog" onClick={() => setOpen(true)}>
        Filter By
        {count > 0 ? (
          <Count>
            {count}
            <span className="visually-hidden"> selected</span>
          </Count>
        ) : null}
      </Button>
      {open ? (
        <Dialog title="Filter By" wide fullOnPhone onClose={() => setOpen(false)}>
          <Summary>
            <p role="status">
              {count === 0 ? 'No filters selected.' : `${count} ${count === 1 ? 'filter' : 'filters'} selected.`}
            </p>
            <Button type="button" $variant="secondary" $small onClick={clearFilters} disabled={count === 0}>
              Clear all
            </Button>
          </Summary>
          <Collapsible title="Recent" chosen={filters.recentSince !== null ? 1 : 0} initiallyOpen>
            <Group>
              <legend className="visually-hidden">Recent</legend>
              <Checkbox
                label={RECENT_FILTER_LABEL}
                checked={filters.recentSince !== null}
                onChange={() => setRecent(filters.recentSince === null)}
              />
            </Group>
          </Collapsible>
          {groups.map((group) => (
            <FilterGroupFields
              key={group.key}
              group={group}
              chosen={filters.values[group.key] ?? NONE_CHOSEN}
              onToggle={toggleFilter}
            />
          ))}
          <StickyActions>
            <Shown>
              {shown} {shown === 1 ? 'artifact' : 'artifacts'} shown
            </Shown>
            <Button type="button" onClick={() => setOpen(false)} data-autofocus>
              Done
            </Button>
          </StickyActions>
        </Dialog>
      ) : null}
    </>
  );
}
