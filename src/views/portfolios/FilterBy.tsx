import { memo, useId, useMemo, useState, type ReactNode } from 'react';
import styled from 'styled-components';
import { useBrowserEvents, useBrowserMode, useFilters, usePortfolio, useVisibleRows } from '../../machines/portfolioBrowser/usePortfolioBrowser.ts';
import {
  activeFilterCount,
  filterGroups,
  filterValueLabel,
  RECENT_FILTER_LABEL,
  type FilterGroup,
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

/** One collapsible section of the dialog: its title with how many are chosen, then its choices. */
const Section = styled.section`
  border-bottom: 1px solid ${({ theme }) => theme.color.border};
  &:first-of-type { border-top: 1px solid ${({ theme }) => theme.color.border}; }
  h3 { margin: 0; font-size: ${({ theme }) => theme.font.size.md}; }
`;

const SectionToggle = styled.button`
  display: flex;
  align-items: center;
  gap: ${({ theme }) => theme.space.sm};
  width: 100%;
  min-height: 48px;
  padding: ${({ theme }) => theme.space.sm} ${({ theme }) => theme.space.xs};
  border: none;
  background: none;
  font-weight: ${({ theme }) => theme.font.weight.bold};
  text-align: left;
  cursor: pointer;
  &:hover { background: ${({ theme }) => theme.color.surfaceAlt}; }
  svg { flex-shrink: 0; transition: transform 150ms ease; }
  &[aria-expanded='true'] svg { transform: rotate(90deg); }
  .chosen { margin-left: auto; font-size: ${({ theme }) => theme.font.size.sm}; font-weight: ${({ theme }) => theme.font.weight.medium}; color: ${({ theme }) => theme.color.primary}; white-space: nowrap; }
`;

const SectionBody = styled.div`
  padding: 0 ${({ theme }) => theme.space.xs} ${({ theme }) => theme.space.md} ${({ theme }) => theme.space.lg};
`;

const Group = styled.fieldset`
  margin: 0;
  padding: 0;
  border: none;
  min-width: 0;
`;

const Panel = styled.div`
  margin: ${({ theme }) => theme.space.xs} 0 0;
  h4 { margin: 0; font-size: ${({ theme }) => theme.font.size.sm}; }
`;

const SectionHeading = styled.p`
  margin: ${({ theme }) => theme.space.sm} 0 ${({ theme }) => theme.space.xxs};
  font-size: ${({ theme }) => theme.font.size.sm};
  font-weight: ${({ theme }) => theme.font.weight.medium};
  color: ${({ theme }) => theme.color.textMuted};
`;

const Choices = styled.div`
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax(min(240px, 100%), 1fr));
  gap: ${({ theme }) => theme.space.xxs} ${({ theme }) => theme.space.md};
`;

const Check = styled.label`
  display: flex;
  align-items: flex-start;
  gap: ${({ theme }) => theme.space.sm};
  min-height: 36px;
  padding: ${({ theme }) => theme.space.xs} 0;
  cursor: pointer;
  input { width: 20px; height: 20px; margin: 2px 0 0; flex-shrink: 0; }
`;

const Shown = styled.p`
  margin: 0 auto 0 0;
  align-self: center;
  color: ${({ theme }) => theme.color.textMuted};
`;

/** The dialog's head: how many are chosen and Clear all. */
const Summary = styled.div`
  display: flex;
  align-items: center;
  justify-content: space-between;
  gap: ${({ theme }) => theme.space.sm};
  margin-bottom: ${({ theme }) => theme.space.sm};
  p { margin: 0; color: ${({ theme }) => theme.color.textMuted}; }
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

const NONE_CHOSEN: readonly string[] = [];

/** A choice; a symbol (a reaction's emoji) is shown before its meaning, which names the checkbox. */
function Checkbox({ label, symbol, checked, onChange }: { label: string; symbol?: string | undefined; checked: boolean; onChange: () => void }) {
  return (
    <Check>
      <input type="checkbox" checked={checked} onChange={onChange} />
      {symbol ? <Glyph aria-hidden="true">{symbol}</Glyph> : null}
      <span>{label}</span>
    </Check>
  );
}

function Chevron() {
  return (
    <svg width="14" height="14" viewBox="0 0 14 14" aria-hidden="true" focusable="false">
      <path d="M5 2l5 5-5 5" fill="none" stroke="currentColor" strokeWidth="2" />
    </svg>
  );
}

/** A section that opens and closes (a disclosure): its heading button says how many are chosen. */
function Collapsible({ title, chosen, initiallyOpen, level = 3, children }: { title: string; chosen: number; initiallyOpen: boolean; level?: 3 | 4; children: ReactNode }) {
  const [open, setOpen] = useState(initiallyOpen);
  const bodyId = useId();
  const Heading = level === 3 ? 'h3' : 'h4';
  return (
    <Section>
      <Heading>
        <SectionToggle type="button" aria-expanded={open} aria-controls={bodyId} onClick={() => setOpen(!open)}>
          <Chevron />
          {title}
          {chosen > 0 ? <span className="chosen">{chosen} selected</span> : null}
        </SectionToggle>
      </Heading>
      <SectionBody id={bodyId} hidden={!open}>
        {children}
      </SectionBody>
    </Section>
  );
}

function StandardsPanels({ panels, chosen, onToggle }: { panels: readonly StandardsPanel[]; chosen: readonly string[]; onToggle: (value: string) => void }) {
  const id = useId();
  return (
    <>
      {panels.map((panel, p) => {
        const items = panel.sections.flatMap((section) => section.items);
        const count = items.filter((item) => chosen.includes(item)).length;
        return (
          <Panel key={panel.panel}>
            <Collapsible title={panel.panel} chosen={count} initiallyOpen={count > 0} level={4}>
              <Group>
                <legend className="visually-hidden">{panel.panel}</legend>
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
              </Group>
            </Collapsible>
          </Panel>
        );
      })}
    </>
  );
}

/** One question's choices; drawn again only when its own ticks change (a tick elsewhere leaves it). */
const FilterGroupFields = memo(function FilterGroupFields({
  group,
  chosen,
  onToggle,
}: {
  group: FilterGroup;
  /** The ticked values of this question. */
  chosen: readonly string[];
  onToggle: (key: string, value: string) => void;
}) {
  // Short lists start open; the long standards list starts closed unless something in it is chosen.
  return (
    <Collapsible title={group.label} chosen={chosen.length} initiallyOpen={!group.panels || chosen.length > 0}>
      {group.panels ? (
        <StandardsPanels panels={group.panels} chosen={chosen} onToggle={(value) => onToggle(group.key, value)} />
      ) : (
        <Group>
          <legend className="visually-hidden">{group.label}</legend>
          <Choices>
            {group.choices.map((choice) => {
              const meaning = group.meanings?.[choice];
              return (
                <Checkbox
                  key={choice}
                  label={meaning ?? group.labels?.[choice] ?? choice}
                  symbol={meaning ? choice : undefined}
                  checked={chosen.includes(choice)}
                  onChange={() => onToggle(group.key, choice)}
                />
              );
            })}
          </Choices>
        </Group>
      )}
    </Collapsible>
  );
});

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
            <p role="status">{count === 0 ? 'No filters selected.' : `${count} ${count === 1 ? 'filter' : 'filters'} selected.`}</p>
            <Button type="button" $variant="secondary" $small onClick={clearFilters} disabled={count === 0}>
              Clear all
            </Button>
          </Summary>
          <Collapsible title="Recent" chosen={filters.recentSince !== null ? 1 : 0} initiallyOpen>
            <Group>
              <legend className="visually-hidden">Recent</legend>
              <Checkbox label={RECENT_FILTER_LABEL} checked={filters.recentSince !== null} onChange={() => setRecent(filters.recentSince === null)} />
            </Group>
          </Collapsible>
          {groups.map((group) => (
            <FilterGroupFields key={group.key} group={group} chosen={filters.values[group.key] ?? NONE_CHOSEN} onToggle={toggleFilter} />
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
