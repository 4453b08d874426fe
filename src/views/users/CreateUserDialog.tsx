import { useEffect, useRef, type FormEvent } from 'react';
import styled from 'styled-components';
import { ROLE_CHOICES } from '../../machines/createUser/newUserForm.ts';
import { useCreateUser, useCreateUserEvents, type CreateUserRef } from '../../machines/createUser/useCreateUser.ts';
import { Button } from '../components/Button.tsx';
import { Dialog, DialogActions } from '../components/Dialog.tsx';
import { TextField } from '../components/Field.tsx';
import { SelectField } from '../components/SelectField.tsx';
import { Spinner } from '../components/Spinner.tsx';
import { theme } from '../theme/theme.ts';

/** The form's message after the server refused (spec §8). */
export const CREATE_FAILED_MESSAGE = 'User creation failed. Please try again.';

const Intro = styled.p`
  margin: 0 0 ${theme.space.md};
  color: ${theme.color.textMuted};
`;

const FormMessage = styled.p`
  margin: 0 0 ${theme.space.md};
  padding: ${theme.space.sm} ${theme.space.md};
  border-left: 4px solid ${theme.color.danger};
  background: #fbeceb;
  color: ${theme.color.danger};
  font-weight: ${theme.font.weight.medium};
`;

const SubmitButton = styled(Button)`
  &[aria-disabled='true'] {
    opacity: 0.75;
    cursor: progress;
  }
`;

/**
 * Create New User: User Name, Email and Role, checked with the shared contract. While the
 * account is created the form waits; if that fails the form says so and keeps what was typed.
 */
export function CreateUserDialog({ actorRef }: { actorRef: CreateUserRef }) {
  const { open, busy, failed, values, errors } = useCreateUser(actorRef);
  const { cancel, change, submit } = useCreateUserEvents(actorRef);
  const form = useRef<HTMLFormElement>(null);
  const submitted = useRef(false);

  // After a submit with mistakes, take the user to the first one (once per submit, not while typing).
  useEffect(() => {
    if (!submitted.current) return;
    submitted.current = false;
    form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  });

  if (!open) return null;

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    submitted.current = true;
    submit();
  };

  return (
    <Dialog title="Create New User" onClose={cancel}>
      <form ref={form} noValidate onSubmit={handleSubmit} aria-busy={busy || undefined}>
        <Intro>The new user receives an e-mail with a link to choose a password.</Intro>
        {failed ? <FormMessage role="alert">{CREATE_FAILED_MESSAGE}</FormMessage> : null}
        <TextField
          label="User Name"
          name="username"
          autoComplete="off"
          value={values.username}
          error={errors.username}
          onChange={(e) => change('username', e.target.value)}
        />
        <TextField
          label="Email"
          name="email"
          type="email"
          autoComplete="off"
          value={values.email}
          error={errors.email}
          onChange={(e) => change('email', e.target.value)}
        />
        <SelectField
          label="Role"
          name="roleId"
          placeholder="Select a role"
          options={ROLE_CHOICES}
          value={values.roleId}
          error={errors.roleId}
          onChange={(e) => change('roleId', e.target.value)}
        />
        <DialogActions>
          {busy ? <Spinner label="Creating user" /> : null}
          <Button type="button" $variant="secondary" onClick={cancel} disabled={busy}>
            Cancel
          </Button>
          <SubmitButton type="submit" aria-disabled={busy || undefined}>
            Create
          </SubmitButton>
        </DialogActions>
      </form>
    </Dialog>
  );
}
