import { z } from 'zod';
import { lazySchema } from './lazy.ts';

/**
 * What the caller may do, as the server's policies decide it (decision 029). Answers carry them
 * so that machine guards and views offer only what the server will then allow; the server still
 * decides again on every call. Each is an extra field the mobile apps ignore.
 */

/** The signed-in user's abilities (`GET /users/me`, login and reset answers). */
export const UserAbilitiesSchema = lazySchema(() =>
  z.object({
    /** Personal portfolios, artifacts and the teacher's archive (teachers and PLC leads). */
    ownPortfolios: z.boolean(),
    /** Create New Shared Portfolio (PLC leads and researchers). */
    createSharedPortfolio: z.boolean(),
    /** Every shared portfolio is listed, not only those of which the user is a member (researchers). */
    readAllSharedPortfolios: z.boolean(),
    /** The shared-portfolios and teacher-portfolios summary CSVs (researchers). */
    exportSummaries: z.boolean(),
    /** Teachers' personal portfolios, read only (researchers). */
    readTeacherPortfolios: z.boolean(),
    /** Account management (researchers). */
    manageUsers: z.boolean(),
    /** The research export package (researchers). */
    researchExport: z.boolean(),
    /** The charts (`/insights`): researchers and PLC leads (decision 057). */
    insights: z.boolean(),
    /** The installation-wide rubrics' page: make, change and delete them (researchers). */
    installationRubrics: z.boolean(),
  }),
);
export type UserAbilities = z.infer<typeof UserAbilitiesSchema>;

/** On a shared portfolio. */
export const SharedPortfolioAbilitiesSchema = lazySchema(() =>
  z.object({
    /** Change its name, details and questions. */
    edit: z.boolean(),
    /** Delete it (the server also needs it to be empty). */
    delete: z.boolean(),
    /** See and manage its members, invite people. */
    invite: z.boolean(),
    /** Leave it, as the portal offers it: a teacher who is a member and not the owner. */
    leave: z.boolean(),
    /** Work inside it: add or copy artifacts into it. */
    contribute: z.boolean(),
  }),
);
export type SharedPortfolioAbilities = z.infer<typeof SharedPortfolioAbilitiesSchema>;

/** On a shared artifact. */
export const SharedArtifactAbilitiesSchema = lazySchema(() =>
  z.object({
    edit: z.boolean(),
    delete: z.boolean(),
    comment: z.boolean(),
    react: z.boolean(),
    /** Copy it into another shared portfolio. */
    copy: z.boolean(),
  }),
);
export type SharedArtifactAbilities = z.infer<typeof SharedArtifactAbilitiesSchema>;

/** On a comment. */
export const CommentAbilitiesSchema = lazySchema(() => z.object({ edit: z.boolean(), delete: z.boolean() }));
export type CommentAbilities = z.infer<typeof CommentAbilitiesSchema>;

/** On a personal artifact. */
export const ArtifactAbilitiesSchema = lazySchema(() =>
  z.object({
    edit: z.boolean(),
    delete: z.boolean(),
    /** Copy it into a shared portfolio. */
    share: z.boolean(),
  }),
);
export type ArtifactAbilities = z.infer<typeof ArtifactAbilitiesSchema>;
