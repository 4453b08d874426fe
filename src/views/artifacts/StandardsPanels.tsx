import { useId, useState, type ReactNode } from 'react';
import styled from 'styled-components';
import { STANDARDS_PANELS, type StandardsPanel } from '../../schemas/standards.ts';
import { Checkbox, Fieldset } from '../components/Checkbox.tsx';
import { theme } from '../theme/theme.ts';

const Toggle = styled.button`
  display: flex;
  align-items: center;
  justify-content: space-between;
  gap: ${theme.space.sm};
  width: 100%;
  padding: ${theme.space.sm} ${theme.space.md};
  border: 1px solid ${theme.color.border};
  border-radius: ${theme.radius.sm};
  background: ${theme.color.surfaceAlt};
  font-weight: ${theme.font.weight.medium};
  text-align: left;
  cursor: pointer;
  &:hover:not(:disabled) {
    background: ${theme.color.border};
  }
  &::after {
    content: '';
    flex-shrink: 0;
    width: 8px;
    height: 8px;
    border-right: 2px solid currentColor;
    border-bottom: 2px solid currentColor;
    transform: rotate(${({ 'aria-expanded': open }) => (open ? '-135deg' : '45deg')});
  }
`;

const Count = styled.span`
  margin-left: auto;
  font-weight: ${theme.font.weight.regular};
  color: ${theme.color.textMuted};
  font-size: ${theme.font.size.sm};
`;

const Panel = styled.div`
  margin-bottom: ${theme.space.sm};
`;

const Body = styled.div`
  padding: ${theme.space.sm} ${theme.space.md};
`;

const Section = styled.fieldset`
  margin: 0 0 ${theme.space.sm};
  padding: 0;
  border: none;
  min-width: 0;
  legend {
    padding: 0;
    margin-bottom: ${theme.space.xs};
    font-weight: ${theme.font.weight.medium};
    font-size: ${theme.font.size.sm};
  }
`;

function PanelGroup({
  panel,
  name,
  selected,
  onToggle,
  disabled,
}: {
  panel: StandardsPanel;
  name: string;
  selected: ReadonlySet<string>;
  onToggle: (item: string, on: boolean) => void;
  disabled: boolean;
}) {
  const bodyId = useId();
  const count = panel.sections.reduce((n, s) => n + s.items.filter((item) => selected.has(item)).length, 0);
  // Panels holding a ticked standard start open, so the answer is visible at a glance.
  const [open, setOpen] = useState(count > 0);
  return (
    <Panel>
      <Toggle type="button" aria-expanded={open} aria-controls={bodyId} onClick={() => setOpen(!open)}>
        <span>{panel.panel}</span>
        {count > 0 ? <Count>{count} selected</Count> : null}
      </Toggle>
      <Body id={bodyId} hidden={!open}>
        {panel.sections.map((section) => {
          const boxes = section.items.map((item) => (
            <Checkbox
              key={item}
              label={item}
              name={name}
              value={item}
              checked={selected.has(item)}
              disabled={disabled}
              onChange={(e) => onToggle(item, e.target.checked)}
            />
          ));
          return section.heading ? (
            <Section key={section.heading}>
              <legend>{section.heading}</legend>
              {boxes}
            </Section>
          ) : (
            <div key={panel.panel}>{boxes}</div>
          );
        })}
      </Body>
    </Panel>
  );
}

/**
 * The NGSS standards question (`expansionPanelChoices`): one collapsible group of checkboxes per
 * panel (reference §10.3). The answer is the list of the ticked items' full labels.
 */
export function StandardsPanels({
  legend,
  name,
  selected,
  onChange,
  disabled = false,
  error,
  describedBy,
}: {
  /** The question's text. */
  legend: ReactNode;
  /** The form name of the checkboxes. */
  name: string;
  selected: readonly string[];
  onChange: (selected: string[]) => void;
  disabled?: boolean;
  /** The question's problem, shown under the panels. */
  error?: ReactNode;
  /** The id of the problem's text. */
  describedBy?: string;
}) {
  const set = new Set(selected);
  const toggle = (item: string, on: boolean) => onChange(on ? [...selected, item] : selected.filter((s) => s !== item));
  return (
    <Fieldset $invalid={Boolean(describedBy)} aria-describedby={describedBy}>
      <legend>{legend}</legend>
      {STANDARDS_PANELS.map((panel) => (
        <PanelGroup key={panel.panel} panel={panel} name={name} selected={set} onToggle={toggle} disabled={disabled} />
      ))}
      {error}
    </Fieldset>
  );
}
