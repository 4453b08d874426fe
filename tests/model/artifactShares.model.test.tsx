import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import {
  artifactSharesMachine,
  type ArtifactSharesContext as SharesContext,
  type ArtifactSharesEvent,
} from '../../src/machines/artifactShares/artifactSharesMachine.ts';
import { ArtifactSharesContext } from '../../src/machines/artifactShares/useArtifactShares.ts';
import type { ArtifactShare } from '../../src/schemas/notifications.ts';
import { NetworkError } from '../../src/services/errors.ts';
import { ArtifactShares, NOT_SHARED, SHARES_FAILED, SHARES_TITLE } from '../../src/views/artifacts/ArtifactShares.tsx';
import { coverageInspector, createPathModel } from './support/coverage.ts';
import { controllableActor } from './support/deferred.ts';
import { trackCoverage } from './support/report.ts';

trackCoverage(artifactSharesMachine);

interface Snapshot {
  value: unknown;
  context: SharesContext;
  matches: (value: string) => boolean;
  can: (event: ArtifactSharesEvent) => boolean;
}

const ARTIFACT_ID = 41;
const discussed: ArtifactShare = {
  sharedPortfolio: { id: 3, name: 'Grade 5 PLC' },
  sharedArtifact: { id: 77, title: 'Ramp race' },
  shared_at: '2026-11-20T10:00:00.000Z',
  commentCount: 4,
  latestComments: [
    {
      id: 901,
      text: 'The second trial shows it best.',
      owner: { id: 5, username: 'Theo Teacher' },
      created_at: '2026-11-24T09:00:00.000Z',
    },
    {
      id: 900,
      text: 'Could you add the table?',
      owner: { id: 6, username: 'Lee Lead' },
      created_at: '2026-11-23T09:00:00.000Z',
    },
  ],
};
const quiet: ArtifactShare = {
  sharedPortfolio: { id: 4, name: 'Science PLC' },
  sharedArtifact: { id: 78, title: 'Ramp race' },
  shared_at: '2026-11-21T10:00:00.000Z',
  commentCount: 0,
  latestComments: [],
};
const offline = new NetworkError();

const actorEvent = (type: string, payload: Record<string, unknown>) =>
  ({ type, ...payload }) as unknown as ArtifactSharesEvent;

function events(snapshot: unknown): ArtifactSharesEvent[] {
  const s = snapshot as Snapshot;
  const list: ArtifactSharesEvent[] = [];
  if (s.matches('loading')) {
    list.push(
      actorEvent('xstate.done.actor.getArtifactShares', { output: [discussed, quiet] }),
      actorEvent('xstate.done.actor.getArtifactShares', { output: [] }),
    );
    if (s.context.error === null) list.push(actorEvent('xstate.error.actor.getArtifactShares', { error: offline }));
  }
  if (s.matches('failed')) list.push({ type: 'retry' });
  return list.filter((event) => event.type.startsWith('xstate.') || s.can(event));
}

let fake: ReturnType<typeof controllableActor<ArtifactShare[], { artifactId: number }>> | null = null;

function setup() {
  fake = controllableActor<ArtifactShare[], { artifactId: number }>();
  const logic = artifactSharesMachine.provide({ actors: { getArtifactShares: fake.logic } });
  const location = memoryLocation({ path: '/my-portfolios/2/artifacts/41', record: true });
  render(
    <Router hook={location.hook}>
      <ArtifactSharesContext.Provider value={{ logic, inspect: coverageInspector }}>
        <ArtifactShares artifactId={ARTIFACT_ID} headingLevel={3} />
      </ArtifactSharesContext.Provider>
    </Router>,
  );
  return { ux: userEvent.setup(), location };
}

afterEach(() => {
  cleanup();
  fake = null;
});

const section = () => screen.getByRole('region', { name: SHARES_TITLE });

/** What the owner sees under her artifact. */
interface SharesView {
  loading: boolean;
  problem: string | null;
  empty: boolean;
  shares: { portfolio: string; href: string | null; line: string; comments: string[] }[];
}

function expectedView(s: Snapshot): SharesView {
  return {
    loading: s.matches('loading'),
    problem: s.matches('failed') ? `${SHARES_FAILED} ${offline.message} Try again` : null,
    empty: s.matches('loaded') && s.context.shares.length === 0,
    shares: s.matches('loaded')
      ? s.context.shares.map((share) => ({
          portfolio: share.sharedPortfolio.name,
          href: `/shared-portfolios/${share.sharedPortfolio.id}/artifacts/${share.sharedArtifact.id}`,
          line: `${share.commentCount === 1 ? '1 comment' : `${share.commentCount} comments`}`,
          comments: share.latestComments.map(
            (comment) =>
              `${comment.owner.username}|${comment.text}|/shared-portfolios/${share.sharedPortfolio.id}/artifacts/${share.sharedArtifact.id}#comment-${comment.id}`,
          ),
        }))
      : [],
  };
}

function observedView(): SharesView {
  const box = within(section());
  const alert = box.queryByRole('alert');
  const list = section().querySelector(':scope > ul');
  return {
    loading: box.queryByText('Loading where this artifact is shared…') !== null,
    problem: alert?.textContent ?? null,
    empty: box.queryByText(NOT_SHARED) !== null,
    shares: list
      ? [...list.children].map((item) => {
          const link = item.querySelector('a')!;
          const comments = item.querySelector('ul');
          return {
            portfolio: link.textContent ?? '',
            href: link.getAttribute('href'),
            line: item.querySelector('p')?.textContent?.replace(/^Shared on .* · /, '') ?? '',
            comments: comments
              ? [...comments.children].map(
                  (comment) =>
                    `${comment.querySelector('strong')?.textContent}|${comment.querySelector('q')?.textContent}|${comment.querySelector('a')?.getAttribute('href')}`,
                )
              : [],
          };
        })
      : [],
  };
}

describe('artifactShares model (“Shared to” on a personal artifact: the feedback loop)', () => {
  const model = createPathModel(artifactSharesMachine, { input: { artifactId: ARTIFACT_ID }, events });
  const paths = model.getShortestPaths();
  it('has paths through every state (shared twice, never shared, a failure and its retry)', () => {
    expect(paths).toHaveLength(3);
  });
  for (const path of paths) {
    const title = path.steps
      .map((step) => step.event as { type: string; output?: unknown[] })
      .map((event) => (event.output ? `${event.type} (${event.output.length} shares)` : event.type))
      .join(' → ');
    it(`reaches ${JSON.stringify(path.state.value)}: ${title}`, async () => {
      const h = setup();
      let checked = 0;
      await path.test({
        states: {
          '*': async (state) => {
            const expected = expectedView(state as unknown as Snapshot);
            await waitFor(() => expect(observedView()).toEqual(expected));
            checked += 1;
          },
        },
        events: {
          'xstate.done.actor.getArtifactShares': async (step) => {
            const call = fake!.next();
            expect(call.input).toEqual({ artifactId: ARTIFACT_ID });
            await act(async () => call.deferred.resolve((step.event as unknown as { output: ArtifactShare[] }).output));
          },
          'xstate.error.actor.getArtifactShares': async () => {
            await act(async () => fake!.next().deferred.reject(offline));
          },
          retry: async () => {
            await h.ux.click(within(section()).getByRole('button', { name: 'Try again' }));
          },
        },
      });
      expect(checked).toBe(path.steps.length);
    });
  }

  it('opens a copy’s comment from its latest comments', async () => {
    const h = setup();
    await act(async () => fake!.next().deferred.resolve([discussed]));
    await h.ux.click(within(section()).getByRole('link', { name: 'Open the comment by Theo Teacher in Grade 5 PLC' }));
    expect(h.location.history.at(-1)).toBe('/shared-portfolios/3/artifacts/77#comment-901');
  });
});
