import { useId, type InputHTMLAttributes, type ReactNode } from 'react';
import styled from 'styled-components';
import { theme } from '../theme/theme.ts';

const Row = styled.div`
  display: flex;
  align-items: flex-start;
  gap: ${theme.space.sm};
  padding: 2px 0;
  input {
    width: 18px;
    height: 18px;
    margin: 3px 0 0;
    flex-shrink: 0;
    accent-color: ${theme.color.primary};
    cursor: pointer;
  }
  label {
    cursor: pointer;
    overflow-wrap: anywhere;
  }
`;

/** A native checkbox with its label beside it. */
export function Checkbox({
  label,
  ...input
}: { label: ReactNode } & Omit<InputHTMLAttributes<HTMLInputElement>, 'type'>) {
  const id = useId();
  return (
    <Row>
      <input id={id} type="checkbox" {...input} />
      <label htmlFor={id}>{label}</label>
    </Row>
  );
}

/** A group of related inputs with a visible legend (e.g. a question answered with checkboxes). */
export const Fieldset = styled.fieldset<{ $invalid?: boolean }>`
  margin: 0 0 ${theme.space.md};
  padding: ${theme.space.sm} ${theme.space.md} ${theme.space.md};
  border: 1px solid ${({ $invalid }) => ($invalid ? theme.color.danger : theme.color.border)};
  border-radius: ${theme.radius.sm};
  min-width: 0;
  legend {
    padding: 0 ${theme.space.xs};
    font-weight: ${theme.font.weight.medium};
  }
`;
