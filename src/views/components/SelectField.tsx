import { useId, type SelectHTMLAttributes } from 'react';
import styled from 'styled-components';
import { FieldError, FieldWrap, inputStyles, Label } from './Field.tsx';
import { theme } from '../theme/theme.ts';

const Select = styled.select<{ $invalid?: boolean }>`
  ${inputStyles}
  width: 100%;
  padding-right: 36px;
  border: 1px solid ${({ $invalid }) => ($invalid ? theme.color.danger : theme.color.borderStrong)};
  appearance: none;
  cursor: pointer;
  background-image: url("data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='12' height='12' viewBox='0 0 12 12'%3E%3Cpath d='M2 4l4 4 4-4' fill='none' stroke='%234a5a6a' stroke-width='2'/%3E%3C/svg%3E");
  background-repeat: no-repeat;
  background-position: right 12px center;
  &:disabled {
    cursor: not-allowed;
    opacity: 0.6;
  }
`;

/** One choice of a `SelectField`. */
export interface SelectOption {
  value: string;
  label: string;
}

/**
 * A labelled native select with an optional placeholder (an empty first choice) and an error
 * message tied to it for screen readers.
 */
export function SelectField({
  label,
  options,
  placeholder,
  error,
  ...select
}: {
  label: string;
  options: readonly SelectOption[];
  /** The text of the empty first choice, shown until something is chosen. */
  placeholder?: string;
  error?: string | null | undefined;
} & SelectHTMLAttributes<HTMLSelectElement>) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <FieldWrap>
      <Label htmlFor={id}>{label}</Label>
      <Select
        id={id}
        $invalid={Boolean(error)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        {...select}
      >
        {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </Select>
      {error ? <FieldError id={errorId}>{error}</FieldError> : null}
    </FieldWrap>
  );
}
