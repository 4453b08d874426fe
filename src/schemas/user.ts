import { z } from 'zod';
import { lazySchema } from './lazy.ts';
import { UserAbilitiesSchema } from './abilities.ts';
import { IdSchema, TimestampSchema, isEmail, EMAIL_MAX } from './common.ts';

/** Role ids as the spec and the mobile apps know them. */
export const ROLE_IDS = { teacher: 1, plcLead: 3, researcher: 4 } as const;

/** Role types (`role.type`). */
export const RoleTypeSchema = lazySchema(() => z.enum(['authenticated', 'plc_lead', 'researcher']));
export type RoleType = z.infer<typeof RoleTypeSchema>;

/** The roles a user can hold, in the order the Create User dialog offers them. */
export const ROLES = [
  { id: ROLE_IDS.teacher, name: 'Teacher', type: 'authenticated' },
  { id: ROLE_IDS.plcLead, name: 'PLC Lead', type: 'plc_lead' },
  { id: ROLE_IDS.researcher, name: 'Researcher', type: 'researcher' },
] as const;

/** A role id that exists. */
export const RoleIdSchema = lazySchema(() => z.union([z.literal(1), z.literal(3), z.literal(4)]));
export type RoleId = z.infer<typeof RoleIdSchema>;

/** A role as it appears inside a user. */
export const RoleSchema = lazySchema(() =>
  z.object({
    id: RoleIdSchema,
    name: z.string(),
    description: z.string(),
    type: RoleTypeSchema,
  }),
);
export type Role = z.infer<typeof RoleSchema>;

/** A user account as every response shows it (never a secret). */
export const UserSchema = lazySchema(() =>
  z
    .object({
      id: IdSchema,
      username: z.string(),
      email: z.string(),
      provider: z.literal('local'),
      confirmed: z.boolean(),
      blocked: z.boolean(),
      role: RoleSchema,
      created_at: TimestampSchema,
      updated_at: TimestampSchema,
    })
    .meta({ id: 'User' }),
);
export type User = z.infer<typeof UserSchema>;

/** The signed-in user (`GET /users/me`, login and reset answers): with what the account may do. */
export const MeSchema = lazySchema(() => UserSchema.extend({ abilities: UserAbilitiesSchema }).meta({ id: 'Me' }));
export type Me = z.infer<typeof MeSchema>;

/** `GET /users` answer. */
export const UserListResponseSchema = lazySchema(() => z.array(UserSchema));

const roleIdQuery = lazySchema(() =>
  z
    .string()
    .regex(/^[0-9]{1,2}$/, 'must be a role id')
    .transform(Number),
);

/** `GET /users` query: optional role filters. */
export const UserListQuerySchema = lazySchema(() =>
  z.strictObject({
    role: roleIdQuery.optional(),
    role_ne: roleIdQuery.optional(),
  }),
);

/** `PUT /users/{id}`: a researcher may only block or unblock. */
export const UserUpdateBodySchema = lazySchema(() => z.strictObject({ blocked: z.boolean() }));
export type UserUpdateBody = z.infer<typeof UserUpdateBodySchema>;

/** Longest username accepted. */
export const USERNAME_MAX = 100;

/** Labels the Create User form uses for its fields (also in its messages). */
export const CREATE_USER_FIELDS = { username: 'User Name', email: 'Email', roleId: 'Role' } as const;

/** `POST /invitations/outside`: a researcher creates an account. */
export const CreateUserBodySchema = lazySchema(() =>
  z.strictObject({
    email: z
      .string()
      .trim()
      .max(EMAIL_MAX, `Field ${CREATE_USER_FIELDS.email} is not a valid email address.`)
      .refine((v) => v.length > 0, `Field ${CREATE_USER_FIELDS.email} is required.`)
      .refine((v) => v.length === 0 || isEmail(v), `Field ${CREATE_USER_FIELDS.email} is not a valid email address.`),
    username: z
      .string()
      .trim()
      .min(1, `Field ${CREATE_USER_FIELDS.username} is required.`)
      .max(USERNAME_MAX, `Field ${CREATE_USER_FIELDS.username} must be at most ${USERNAME_MAX} characters.`),
    roleId: z
      .number({
        error: (i) =>
          `Field ${CREATE_USER_FIELDS.roleId} with value ${i.input === null || i.input === undefined ? '' : String(i.input)} is invalid.`,
      })
      .refine((v) => v === 1 || v === 3 || v === 4, {
        error: (issue) => `Field ${CREATE_USER_FIELDS.roleId} with value ${String(issue.input)} is invalid.`,
      }),
  }),
);
export type CreateUserBody = z.input<typeof CreateUserBodySchema>;
