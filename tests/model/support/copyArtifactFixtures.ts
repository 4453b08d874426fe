/** Fixtures and test names of the copy model tests (`copyArtifact`, `copySource`). */
import type { CopyArtifactInput } from '../../../src/machines/copyArtifact/copyArtifactMachine.ts';
import type { Artifact } from '../../../src/schemas/artifact.ts';
import type { SharedArtifactDetail } from '../../../src/schemas/sharedArtifact.ts';
import type { SharedArtifact, SharedPortfolio, SharedPortfolioListItem } from '../../../src/schemas/sharedPortfolio.ts';
import { ApiError, NetworkError } from '../../../src/services/errors.ts';
import { makeArtifact } from '../../../src/test/artifactFixtures.ts';
import { makeSharedArtifact, makeSharedPortfolio } from '../../../src/test/sharedFixtures.ts';

/** A readable test name: where the path ends and the gestures and answers that lead there. */
export function pathTitle(path: { state: { value: unknown }; steps: readonly { event: unknown }[] }): string {
  const steps = path.steps
    .map((step) => step.event as { type: string; error?: Error; output?: unknown; sharedPortfolioId?: number })
    .filter((event) => event.type !== 'xstate.init')
    .map((event) => {
      const type = event.type.replace(/^xstate\.(done|error)\.actor\./, (_, kind: string) =>
        kind === 'done' ? '✓ ' : '✗ ',
      );
      const detail = event.error
        ? ` (${event.error.message})`
        : event.output !== undefined
          ? ` (${describeOutput(event.output)})`
          : '';
      return `${type}${detail}${event.sharedPortfolioId ? ` ${event.sharedPortfolioId}` : ''}`;
    });
  return `${JSON.stringify(path.state.value)} ← ${steps.join(' → ') || 'start'}`;
}

function describeOutput(output: unknown): string {
  if (Array.isArray(output)) return `${output.length} portfolio(s)`;
  // How loading ended (copySource).
  if (typeof output === 'object' && output !== null && 'kind' in output) {
    const end = output as { kind: string; reason?: string; portfolios?: unknown[] };
    return [end.kind, end.reason ?? '', end.portfolios ? `${end.portfolios.length} portfolio(s)` : '']
      .filter(Boolean)
      .join(' ');
  }
  const o = output as {
    id: number;
    parkingLot?: boolean;
    owner?: { id: number };
    portfolio?: { id: number };
    sharedPortfolio?: { id: number };
  };
  const where = o.portfolio
    ? `portfolio ${o.portfolio.id}`
    : o.sharedPortfolio
      ? `shared portfolio ${o.sharedPortfolio.id}`
      : '';
  return [`#${o.id}`, where, o.parkingLot ? 'parking lot' : '', o.owner && o.portfolio ? `by ${o.owner.id}` : '']
    .filter(Boolean)
    .join(' ');
}

// Small fixtures: the model's states (and so the test names) carry them.
export const AUTHOR = 3;
const slim = { structure: [], templateStructure: [], members: [], sharedArtifacts: [] };
function listItem(overrides: Partial<SharedPortfolio>): SharedPortfolioListItem {
  const { sharedArtifacts: _, ...rest } = makeSharedPortfolio({ ...slim, ...overrides });
  return { ...rest, sharedArtifacts: [] };
}
export const science = listItem({
  id: 9,
  name: 'Grades 5–7 Science PLC',
  topic: 'Forces and motion',
  plcName: 'Middle school science',
});
export const engineering = listItem({ id: 12, name: 'Engineering Design Circle', topic: 'Bridges', plcName: null });
export const author = { id: AUTHOR, username: 'Tess Teacher', email: 'teacher@example.org' };
/** Another teacher of the same school: not the author. */
export const colleague = { id: 5, username: 'Theo Teacher', email: 'teacher2@example.org' };
export const personal = (overrides: Partial<Artifact> = {}): Artifact =>
  makeArtifact({
    id: 31,
    portfolio: { id: 7 },
    parkingLot: false,
    structure: [],
    owner: author,
    responses: { artifactName: 'Ramp race' },
    ...overrides,
  });
/** A colleague's personal artifact of the same portfolio: only its author copies it. */
export const notMine = () => personal({ owner: colleague });
export const shared = (overrides: Partial<SharedArtifactDetail> = {}): SharedArtifactDetail => ({
  ...makeSharedArtifact({ id: 70, sharedPortfolio: { id: 9 }, structure: [], responses: { artifactName: 'Food web' } }),
  reactions: [],
  comments: [],
  version: 1,
  ...overrides,
});
export const theCopy: SharedArtifact = makeSharedArtifact({ id: 300, sharedPortfolio: { id: 9 }, structure: [] });

export const missing = new ApiError(404, 'not_found', 'Artifact not found.', '');
export const offline = new NetworkError();
export const refused = new ApiError(
  400,
  'bad_request',
  'Only completed artifacts can be copied. Submit the artifact to its portfolio first.',
  '',
);

/** The page as its author opens it for a personal artifact, and as a colleague for a shared one. */
export const COPY_MODES: { title: string; input: CopyArtifactInput }[] = [
  { title: 'a personal artifact', input: { from: 'artifact', portfolioId: 7, artifactId: 31, userId: AUTHOR } },
  { title: 'shared mode', input: { from: 'sharedArtifact', portfolioId: 9, artifactId: 70, userId: colleague.id } },
];

/**
 * What the server can answer to the loads of the page's source (`copySource`'s model events): the
 * artifact as copyable, in the parking lot, someone else's or of another portfolio, not found or
 * unreachable; and the shared portfolios to copy to.
 */
export const SOURCE_ANSWERS = {
  fetchArtifact: [
    { type: 'xstate.done.actor.fetchArtifact', output: personal() },
    { type: 'xstate.done.actor.fetchArtifact', output: personal({ parkingLot: true }) },
    { type: 'xstate.done.actor.fetchArtifact', output: notMine() },
    { type: 'xstate.done.actor.fetchArtifact', output: personal({ portfolio: { id: 8 } }) },
    { type: 'xstate.error.actor.fetchArtifact', error: missing },
    { type: 'xstate.error.actor.fetchArtifact', error: offline },
  ],
  fetchSharedArtifact: [
    { type: 'xstate.done.actor.fetchSharedArtifact', output: shared() },
    { type: 'xstate.done.actor.fetchSharedArtifact', output: shared({ sharedPortfolio: { id: 12 } }) },
    { type: 'xstate.error.actor.fetchSharedArtifact', error: missing },
    { type: 'xstate.error.actor.fetchSharedArtifact', error: offline },
  ],
  listSharedPortfolios: [
    { type: 'xstate.done.actor.listSharedPortfolios', output: [science, engineering] },
    { type: 'xstate.done.actor.listSharedPortfolios', output: [] },
    { type: 'xstate.error.actor.listSharedPortfolios', error: offline },
  ],
} as unknown as Record<string, never[]>;
