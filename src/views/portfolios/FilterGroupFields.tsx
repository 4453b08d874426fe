/** One question's choices in the Filter By dialog, the standards as collapsible panels. */
import { memo, useId } from 'react';
import styled from 'styled-components';
import type { FilterGroup } from '../../machines/portfolioBrowser/selectors.ts';
import type { StandardsPanel } from '../../schemas/standards.ts';
import { Checkbox, Choices, Collapsible, Group } from './FilterSection.tsx';
import { theme } from '../theme/theme.ts';

const Panel = styled.div`
  margin: ${theme.space.xs} 0 0;
  h4 {
    margin: 0;
    font-size: ${theme.font.size.sm};
  }
`;

const SectionHeading = styled.p`
  margin: ${theme.space.sm} 0 ${theme.space.xxs};
  font-size: ${theme.font.size.sm};
  font-weight: ${theme.font.weight.medium};
  color: ${theme.color.textMuted};
`;

function StandardsPanels({
  panels,
  chosen,
  onToggle,
}: {
  panels: readonly StandardsPanel[];
  chosen: readonly string[];
  onToggle: (value: string) => void;
}) {
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
                        <Checkbox
                          key={item}
                          label={item}
                          checked={chosen.includes(item)}
                          onChange={() => onToggle(item)}
                        />
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
export const FilterGroupFields = memo(function FilterGroupFields({
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
