import { useId, type TextareaHTMLAttributes } from 'react';
import styled from 'styled-components';
import { FieldError, FieldWrap, inputStyles, Label } from './Field.tsx';
import { theme } from '../theme/theme.ts';

/** A multi-line text box with the look of the portal's inputs. */
export const TextArea = styled.textarea<{ $invalid?: boolean }>`
  ${inputStyles}
  width: 100%;
  min-height: 88px;
  resize: vertical;
  border: 1px solid ${({ $invalid }) => ($invalid ? theme.color.danger : theme.color.borderStrong)};
`;

/** A labelled multi-line text box with an optional error message tied to it for screen readers. */
export function TextAreaField({
  label,
  error,
  ...textarea
}: { label: string; error?: string | null | undefined } & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <FieldWrap>
      <Label htmlFor={id}>{label}</Label>
      <TextArea
        id={id}
        $invalid={Boolean(error)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        {...textarea}
      />
      {error ? <FieldError id={errorId}>{error}</FieldError> : null}
    </FieldWrap>
  );
}
