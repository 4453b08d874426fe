import { useId, type InputHTMLAttributes, type ReactNode } from 'react';
import styled from 'styled-components';
import { theme } from '../theme/theme.ts';

export const FieldWrap = styled.div`
  display: flex;
  flex-direction: column;
  gap: ${theme.space.xs};
  margin-bottom: ${theme.space.md};
`;

export const Label = styled.label`
  font-weight: ${theme.font.weight.medium};
`;

export const inputStyles = `
  min-height: 40px;
  padding: 8px 10px;
  border-radius: 4px;
  background: #fff;
`;

export const Input = styled.input<{ $invalid?: boolean }>`
  ${inputStyles}
  border: 1px solid ${({ $invalid }) => ($invalid ? theme.color.danger : theme.color.borderStrong)};
  width: 100%;
`;

export const FieldError = styled.p`
  margin: 0;
  color: ${theme.color.danger};
  font-size: ${theme.font.size.sm};
`;

/** A labelled text input with an optional error message tied to it for screen readers. */
export function TextField({
  label,
  error,
  hint,
  ...input
}: { label: string; error?: string | null | undefined; hint?: ReactNode } & InputHTMLAttributes<HTMLInputElement>) {
  const generated = useId();
  // A given id lets an error summary link to the field.
  const id = input.id ?? generated;
  const errorId = `${id}-error`;
  return (
    <FieldWrap>
      <Label htmlFor={id}>{label}</Label>
      {hint}
      <Input
        id={id}
        $invalid={Boolean(error)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        {...input}
      />
      {error ? <FieldError id={errorId}>{error}</FieldError> : null}
    </FieldWrap>
  );
}
