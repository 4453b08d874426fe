import { CreateUserBodySchema, ROLES, type CreateUserBody } from '../../schemas/user.ts';

/** The Create New User form as typed: the role is the select's raw value (`''` before a choice). */
export interface NewUserValues {
  username: string;
  email: string;
  roleId: string;
}

export type NewUserField = keyof NewUserValues;

/** One message per field that is wrong. */
export type NewUserErrors = Partial<Record<NewUserField, string>>;

/** The form before anything is typed. */
export const EMPTY_NEW_USER: NewUserValues = { username: '', email: '', roleId: '' };

/** The Role select's choices, in the order the spec gives them (Teacher, PLC Lead, Researcher). */
export const ROLE_CHOICES: readonly { value: string; label: string }[] = ROLES.map((role) => ({
  value: String(role.id),
  label: role.name,
}));

const FIELDS: readonly NewUserField[] = ['username', 'email', 'roleId'];

/** The role as the shared contract expects it: a number once something was chosen, else the raw value. */
const roleInput = (raw: string): number | string => (/^[0-9]+$/.test(raw) ? Number(raw) : raw);

/**
 * Checks the form with the shared contract (the server checks the same schema again) and gives
 * either the body to send or a message per wrong field.
 */
/** The form's message when no valid role is chosen (the API's own wording stays for the apps). */
export const ROLE_REQUIRED_MESSAGE = 'Choose a role: Teacher, PLC Lead or Researcher.';

export function checkNewUser(
  values: NewUserValues,
): { body: CreateUserBody; errors: null } | { body: null; errors: NewUserErrors } {
  const result = CreateUserBodySchema.safeParse({ ...values, roleId: roleInput(values.roleId) });
  if (result.success) return { body: result.data, errors: null };
  const errors: NewUserErrors = {};
  for (const issue of result.error.issues) {
    const field = FIELDS.find((f) => f === issue.path[0]);
    if (!field || errors[field]) continue;
    // Any problem with the role (nothing chosen, or a role one cannot create) says what to do.
    errors[field] = field === 'roleId' ? ROLE_REQUIRED_MESSAGE : issue.message;
  }
  return { body: null, errors };
}
