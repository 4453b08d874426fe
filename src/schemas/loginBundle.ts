import { z } from 'zod';
import { lazySchema } from './lazy.ts';
import { ArtifactListResponseSchema } from './artifact.ts';
import { PortfolioListItemSchema } from './portfolio.ts';
import { CommentSchema, ReactionSchema } from './sharedArtifact.ts';
import { SharedArtifactSchema, SharedPortfolioListItemSchema } from './sharedPortfolio.ts';
import { MeSchema } from './user.ts';

/**
 * The answer of `POST /auth/local`: the mobile apps fill their offline cache from the extra
 * lists in `user` (reference §7.1); the web reads only `jwt` and the user fields.
 */
export const LoginResponseSchema = lazySchema(() =>
  z
    .object({
      jwt: z.string(),
      user: MeSchema.extend({
        portfolios: z.array(PortfolioListItemSchema),
        artifacts: ArtifactListResponseSchema,
        sharedPortfolios: z.array(SharedPortfolioListItemSchema),
        sharedArtifacts: z.array(SharedArtifactSchema),
        comments: z.array(CommentSchema),
        reactions: z.array(ReactionSchema),
      }),
    })
    .meta({ id: 'LoginResponse' }),
);
export type LoginResponse = z.infer<typeof LoginResponseSchema>;
