import { TextField } from './Field.tsx';

type NewPasswordField = 'password' | 'passwordConfirmation';

/** A new password and its confirmation, as every form that sets one asks for them. */
export function NewPasswordFields({
  password,
  passwordConfirmation,
  errors,
  busy,
  onChange,
}: {
  password: string;
  passwordConfirmation: string;
  errors: Partial<Record<NewPasswordField, string>>;
  /** While saving, the fields are read-only (their text stays selectable). */
  busy: boolean;
  onChange: (field: NewPasswordField, value: string) => void;
}) {
  return (
    <>
      <TextField
        label="New Password"
        name="password"
        type="password"
        autoComplete="new-password"
        value={password}
        readOnly={busy}
        error={errors.password}
        onChange={(e) => onChange('password', e.target.value)}
      />
      <TextField
        label="Confirm New Password"
        name="passwordConfirmation"
        type="password"
        autoComplete="new-password"
        value={passwordConfirmation}
        readOnly={busy}
        error={errors.passwordConfirmation}
        onChange={(e) => onChange('passwordConfirmation', e.target.value)}
      />
    </>
  );
}
