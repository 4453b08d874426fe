import { useId } from 'react';
import styled from 'styled-components';
import type { SharedPortfolioListItem } from '../../schemas/sharedPortfolio.ts';
import { theme } from '../theme/theme.ts';

const Group = styled.fieldset`
  margin: 0 0 ${theme.space.md};
  padding: 0;
  border: none;
  min-width: 0;
  legend {
    padding: 0;
    margin-bottom: ${theme.space.sm};
    font-size: ${theme.font.size.lg};
    font-weight: ${theme.font.weight.bold};
  }
`;

const Options = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0;
  display: grid;
  gap: ${theme.space.sm};
`;

const Option = styled.li<{ $checked: boolean }>`
  display: flex;
  align-items: flex-start;
  gap: ${theme.space.sm};
  padding: ${theme.space.sm} ${theme.space.md};
  border: 1px solid ${({ $checked }) => ($checked ? theme.color.primary : theme.color.border)};
  border-radius: ${theme.radius.sm};
  background: ${({ $checked }) => ($checked ? theme.color.surfaceAlt : theme.color.surface)};
  box-shadow: ${({ $checked }) => ($checked ? `inset 4px 0 0 ${theme.color.primary}` : 'none')};
  input {
    width: 18px;
    height: 18px;
    margin: 3px 0 0;
    flex-shrink: 0;
    accent-color: ${theme.color.primary};
    cursor: pointer;
  }
  input:disabled,
  input:disabled + label {
    cursor: not-allowed;
  }
  label {
    flex: 1;
    cursor: pointer;
    overflow-wrap: anywhere;
  }
`;

const Name = styled.span`
  display: block;
  font-weight: ${theme.font.weight.medium};
`;

const Detail = styled.span`
  display: block;
  font-size: ${theme.font.size.sm};
  color: ${theme.color.textMuted};
`;

const present = (text: string | null): text is string => text !== null && text.trim() !== '';

function TargetOption({
  portfolio,
  name,
  checked,
  disabled,
  onSelect,
}: {
  portfolio: SharedPortfolioListItem;
  name: string;
  checked: boolean;
  disabled: boolean;
  onSelect: (id: number) => void;
}) {
  const id = useId();
  const details = [
    present(portfolio.topic) ? `Portfolio Topic: ${portfolio.topic}` : null,
    present(portfolio.plcName) ? `PLC Name: ${portfolio.plcName}` : null,
  ].filter((line): line is string => line !== null);
  return (
    <Option $checked={checked}>
      <input
        id={id}
        type="radio"
        name={name}
        value={portfolio.id}
        checked={checked}
        disabled={disabled}
        aria-labelledby={`${id}-name`}
        aria-describedby={details.length > 0 ? `${id}-details` : undefined}
        onChange={() => onSelect(portfolio.id)}
      />
      <label htmlFor={id}>
        <Name id={`${id}-name`}>{portfolio.name}</Name>
        {details.length > 0 ? (
          <span id={`${id}-details`}>
            {details.map((line) => (
              <Detail key={line}>{line}</Detail>
            ))}
          </span>
        ) : null}
      </label>
    </Option>
  );
}

/**
 * The shared portfolios a copy may go to, as one radio group under a visible legend: each shows
 * its name, then 'Portfolio Topic: …' and 'PLC Name: …' when present. Arrow keys move the choice.
 */
export function TargetList({
  legend,
  portfolios,
  selectedId,
  disabled,
  onSelect,
}: {
  /** The group's visible question. */
  legend: string;
  /** The choices, in the order shown. */
  portfolios: readonly SharedPortfolioListItem[];
  /** The chosen portfolio's id. */
  selectedId: number | null;
  /** No change while the copy runs. */
  disabled: boolean;
  /** Called with the id of the portfolio the user picks. */
  onSelect: (id: number) => void;
}) {
  const name = useId();
  return (
    <Group disabled={disabled}>
      <legend>{legend}</legend>
      <Options>
        {portfolios.map((portfolio) => (
          <TargetOption
            key={portfolio.id}
            portfolio={portfolio}
            name={name}
            checked={portfolio.id === selectedId}
            disabled={disabled}
            onSelect={onSelect}
          />
        ))}
      </Options>
    </Group>
  );
}
