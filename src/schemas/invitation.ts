import { z } from 'zod';
import { lazySchema } from './lazy.ts';
import { EMAIL_MAX, IdParamSchema, IdSchema, TimestampSchema } from './common.ts';
import { PersonSchema, SharedPortfolioListItemSchema } from './sharedPortfolio.ts';

/** An invitation to join a shared portfolio. */
export const InvitationSchema = lazySchema(() =>
  z
    .object({
      id: IdSchema,
      to: PersonSchema,
      from: PersonSchema.nullable(),
      sharedPortfolio: SharedPortfolioListItemSchema,
      created_at: TimestampSchema,
    })
    .meta({ id: 'Invitation' }),
);
export type Invitation = z.infer<typeof InvitationSchema>;
export const InvitationListResponseSchema = lazySchema(() => z.array(InvitationSchema));

/** `POST /invitations`: an existing user by id (`to`) or anyone by e-mail (`email`). */
export const InvitationCreateBodySchema = lazySchema(() =>
  z
    .strictObject({
      to: z.union([IdSchema, IdParamSchema]).optional(),
      email: z.string().trim().max(EMAIL_MAX).optional(),
      sharedPortfolio: z.union([IdSchema, IdParamSchema], { error: 'sharedPortfolio must be a shared portfolio id.' }),
    })
    .refine((b) => (b.to === undefined) !== (b.email === undefined || b.email === ''), {
      error: 'Send either "to" (a user id) or "email", not both.',
    }),
);
export type InvitationCreateBody = z.input<typeof InvitationCreateBodySchema>;
