import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import type { Artifact } from '#schemas/artifact';
import { TEMPLATE_PORTFOLIO_ID } from '#schemas/catalog';
import type { Reaction } from '#schemas/sharedArtifact';
import type { SharedArtifact } from '#schemas/sharedPortfolio';
import type { Question, Responses } from '#schemas/structure';
import type { RoleId, User } from '#schemas/user';
import { buildSharedStructure } from '#server/services/sharedStructure';
import { BASIC_TEMPLATE } from '../src/db/template.ts';
import { artifactRepository } from '../src/repositories/artifactRepository.ts';
import { backupRunRepository, type BackupRun } from '../src/repositories/backupRunRepository.ts';
import { invitationRepository } from '../src/repositories/invitationRepository.ts';
import { mediaRepository, type Holder } from '../src/repositories/mediaRepository.ts';
import { portfolioRepository, type PortfolioRecord } from '../src/repositories/portfolioRepository.ts';
import { discussionRepository } from '../src/repositories/discussionRepository.ts';
import { sharedArtifactRepository } from '../src/repositories/sharedArtifactRepository.ts';
import {
  sharedPortfolioRepository,
  type SharedPortfolioRecord,
} from '../src/repositories/sharedPortfolioRepository.ts';
import { userRepository } from '../src/repositories/userRepository.ts';
import { hashPassword } from '../src/security/passwords.ts';
import { TokenService } from '../src/security/tokens.ts';
import type { TestApp } from './helper.ts';

/** The password of every user the factories make. */
export const TEST_PASSWORD = 'correct horse battery';
let hashed: Promise<string> | undefined;

const unique = () => randomBytes(5).toString('hex');

export interface TestUser {
  user: User;
  token: string;
  password: string;
}

/** Creates a user (teacher by default) with a known password and a valid session token. */
export async function createUser(
  t: TestApp,
  overrides: { roleId?: RoleId; email?: string; username?: string; blocked?: boolean } = {},
): Promise<TestUser> {
  const id = unique();
  const user = await userRepository.create(t.db, {
    username: overrides.username ?? `User ${id}`,
    email: overrides.email ?? `user-${id}@example.org`,
    roleId: overrides.roleId ?? 1,
    passwordHash: await (hashed ??= hashPassword(TEST_PASSWORD)),
  });
  const blockedUser = overrides.blocked ? await userRepository.setBlocked(t.db, user.id, true) : null;
  const record = await userRepository.findById(t.db, user.id);
  const token = await new TokenService(t.config.jwtSecret).sign({ id: user.id, epoch: record!.sessionEpoch });
  return { user: blockedUser ?? user, token, password: TEST_PASSWORD };
}

export const createTeacher = (t: TestApp) => createUser(t, { roleId: 1 });
export const createLead = (t: TestApp) => createUser(t, { roleId: 3 });
export const createResearcher = (t: TestApp) => createUser(t, { roleId: 4 });

/** Counts the rows of a table (for "nothing changed" assertions). */
export async function countRows(t: TestApp, table: string): Promise<number> {
  const { rows } = await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`);
  return rows[0]!.n;
}

/** The Basic template's questions (the structure of portfolio 1, copied into every new portfolio). */
export const TEMPLATE_STRUCTURE = BASIC_TEMPLATE;

/** Answers that complete an artifact of the Basic template (every core question). */
export const COMPLETE_RESPONSES: Responses = {
  artifactName: 'Ramp race',
  learningGoal: 'Friction slows a rolling ball.',
};

type Someone = TestUser | { id: number };
const idOf = (who: Someone) => ('user' in who ? who.user.id : who.id);

/** A personal portfolio of `owner` with the template's questions. */
export async function createPortfolio(
  t: TestApp,
  owner: Someone,
  overrides: { name?: string; grades?: string[]; subject?: string | null; topic?: string | null } = {},
): Promise<PortfolioRecord> {
  const id = await portfolioRepository.createFromTemplate(t.db, {
    ownerId: idOf(owner),
    name: overrides.name ?? `Portfolio ${unique()}`,
    grades: overrides.grades ?? [],
    subject: overrides.subject ?? null,
    topic: overrides.topic ?? null,
  });
  return (await portfolioRepository.findById(t.db, id))!;
}

/** An artifact in a portfolio (in the parking lot unless `parkingLot: false`); its questions are the portfolio's. */
export async function createArtifact(
  t: TestApp,
  portfolio: { id: number },
  overrides: { responses?: Responses; parkingLot?: boolean } = {},
): Promise<Artifact> {
  const p = (await portfolioRepository.findById(t.db, portfolio.id))!;
  const parkingLot = overrides.parkingLot ?? true;
  const id = await artifactRepository.create(t.db, {
    portfolioId: p.id,
    structure: p.structure,
    responses: overrides.responses ?? (parkingLot ? {} : COMPLETE_RESPONSES),
    parkingLot,
  });
  return (await artifactRepository.load(t.db, { ids: [id] }))[0]!;
}

/** A team (bonus) question as the shared-portfolio form sends it. */
export const teamQuestion = (key: string, overrides: Partial<Question> = {}): Question => ({
  key,
  text: `Team question ${key}?`,
  type: 'longText',
  bonus: true,
  ...overrides,
});

/**
 * A shared portfolio owned by `owner` (its first member) with the template's core questions and
 * `questions` (template keys or team questions), plus further members and pending invitees.
 */
export async function createSharedPortfolio(
  t: TestApp,
  owner: Someone,
  options: {
    name?: string;
    questions?: Question[];
    members?: Someone[];
    invitees?: Someone[];
    grades?: string[];
    subject?: string | null;
    topic?: string | null;
  } = {},
): Promise<SharedPortfolioRecord> {
  const template = (await portfolioRepository.findById(t.db, TEMPLATE_PORTFOLIO_ID))!.structure;
  const id = await t.db.transaction(async (tx) => {
    const spId = await sharedPortfolioRepository.create(
      tx,
      idOf(owner),
      {
        name: options.name ?? `Shared ${unique()}`,
        grades: options.grades ?? [],
        subject: options.subject ?? null,
        topic: options.topic ?? null,
        plcName: null,
        plcGoals: null,
        structure: buildSharedStructure(options.questions ?? [], template),
      },
      template,
    );
    for (const member of options.members ?? []) await sharedPortfolioRepository.addMember(tx, spId, idOf(member));
    for (const invitee of options.invitees ?? []) {
      await invitationRepository.create(tx, {
        sharedPortfolioId: spId,
        fromUserId: idOf(owner),
        toUserId: idOf(invitee),
        byEmail: true,
      });
    }
    return spId;
  });
  return (await sharedPortfolioRepository.findById(t.db, id))!;
}

/** A shared artifact in a shared portfolio, with its questions. */
export async function createSharedArtifact(
  t: TestApp,
  sharedPortfolio: { id: number },
  owner: Someone,
  overrides: { responses?: Responses; topic?: string | null; subject?: string | null; grades?: string[] } = {},
): Promise<SharedArtifact> {
  const sp = (await sharedPortfolioRepository.findById(t.db, sharedPortfolio.id))!;
  const id = await sharedArtifactRepository.create(t.db, {
    sharedPortfolioId: sp.id,
    ownerId: idOf(owner),
    structure: sp.structure,
    responses: overrides.responses ?? COMPLETE_RESPONSES,
    nextCaption: 0,
    portfolioTopic: overrides.topic ?? null,
    portfolioSubject: overrides.subject ?? null,
    portfolioGrades: overrides.grades ?? [],
  });
  return (await sharedArtifactRepository.load(t.db, { ids: [id] }))[0]!;
}

/** A comment by `owner` on a shared artifact; returns its id. */
export function createComment(
  t: TestApp,
  sharedArtifact: { id: number },
  owner: Someone,
  text = 'A thoughtful comment.',
): Promise<number> {
  return discussionRepository.addComment(t.db, sharedArtifact.id, idOf(owner), text);
}

/** A reaction by `owner` on a shared artifact. */
export function createReaction(
  t: TestApp,
  sharedArtifact: { id: number },
  owner: Someone,
  value: string = '⭐',
): Promise<Reaction> {
  return discussionRepository.addReaction(t.db, sharedArtifact.id, idOf(owner), value);
}

/** A pending invitation of `to` to a shared portfolio, from its owner; returns its id. */
export async function createInvitation(t: TestApp, sharedPortfolio: { id: number }, to: Someone): Promise<number> {
  const sp = (await sharedPortfolioRepository.findById(t.db, sharedPortfolio.id))!;
  return (await invitationRepository.create(t.db, {
    sharedPortfolioId: sp.id,
    fromUserId: sp.ownerId,
    toUserId: idOf(to),
    byEmail: true,
  }))!;
}

/** Removes a member from a shared portfolio (a former member keeps their account). */
export async function removeMember(t: TestApp, sharedPortfolio: { id: number }, who: Someone): Promise<void> {
  await sharedPortfolioRepository.removeMember(t.db, sharedPortfolio.id, idOf(who));
}

const SNAPSHOT_TABLES = [
  'users',
  'password_codes',
  'portfolios',
  'artifacts',
  'media_files',
  'artifact_media',
  'shared_portfolios',
  'shared_portfolio_members',
  'invitations',
  'shared_artifacts',
  'shared_artifact_media',
  'comments',
  'reactions',
  'pending_uploads',
  'artifact_notes',
  'caption_tracks',
  'rubrics',
  'rubric_versions',
  'rubric_criteria',
  'rubric_levels',
  'scores',
  'research_exports',
  'installation_secrets',
] as const;

/**
 * A fingerprint of every row of the product's tables and of the files in the uploads folder,
 * so that a test can prove that a refused request changed nothing. Taken once the background
 * jobs that earlier requests started (a video's poster) have run.
 */
export async function snapshot(t: TestApp): Promise<Record<string, string>> {
  await t.app.jobs.idle();
  const { rows } = await t.db.query<{ name: string; digest: string }>(
    SNAPSHOT_TABLES.map(
      (table) =>
        `SELECT '${table}' AS name, md5(coalesce(string_agg(x::text, '|' ORDER BY x::text), '')) AS digest FROM ${table} x`,
    ).join(' UNION ALL '),
  );
  const state = Object.fromEntries(rows.map((r) => [r.name, r.digest]));
  state['files'] = (await uploadedFiles(t)).join(',');
  return state;
}

/**
 * The stored files (the uploads folder or the bucket) and those of the incoming folder, sorted
 * (incoming ones as `.incoming/<name>`).
 */
export async function uploadedFiles(t: TestApp): Promise<string[]> {
  const incoming = t.app.mediaStore.tmpDir;
  const inside = existsSync(incoming) ? readdirSync(incoming).map((f) => `.incoming/${f}`) : [];
  return [...(await t.app.mediaStore.objects.list('')), ...inside].sort();
}

/**
 * Links a media row to an artifact or shared artifact without writing any file (for counts and
 * permission checks; a real file needs an upload through the API). Returns the media id.
 */
export async function attachMedia(
  t: TestApp,
  holder: Holder,
  holderId: number,
  kind: 'image' | 'video' | 'document' = 'document',
): Promise<number> {
  const media = await t.db.transaction((tx) =>
    mediaRepository.insertAndLink(
      tx,
      holder,
      holderId,
      {
        kind,
        name: `${kind}-${unique()}`,
        storageKey: randomBytes(18).toString('base64url'),
        ext: kind === 'image' ? '.png' : kind === 'video' ? '.mp4' : '.pdf',
        mime: kind === 'image' ? 'image/png' : kind === 'video' ? 'video/mp4' : 'application/pdf',
        size: 1234,
        width: null,
        height: null,
        formats: null,
        uploadedBy: null,
      },
      false,
    ),
  );
  return media!.id;
}

/** Links a (file-less) video of `duration` seconds to an artifact or shared artifact; returns the media id. */
export async function attachVideo(
  t: TestApp,
  holder: Holder,
  holderId: number,
  duration: number | null = 10,
): Promise<number> {
  const id = await attachMedia(t, holder, holderId, 'video');
  await t.db.query('UPDATE media_files SET duration = $2 WHERE id = $1', [id, duration]);
  return id;
}

/**
 * Records a scheduled backup into `file` as the job does: started, then written (`{ size }`),
 * failed (`{ error }`), or still running (no outcome). Returns the run as recorded.
 */
export async function recordBackupRun(
  t: TestApp,
  file: string,
  outcome?: { size: number } | { error: string },
): Promise<BackupRun> {
  const id = await backupRunRepository.start(t.db, file);
  if (outcome) await backupRunRepository.finish(t.db, id, outcome);
  const run = (await backupRunRepository.latest(t.db, 50)).find((r) => r.id === id);
  if (!run) throw new Error(`backup run ${id} was not recorded`);
  return run;
}
