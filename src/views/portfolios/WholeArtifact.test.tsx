import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fromPromise } from 'xstate';
import {
  artifactDetailsMachine,
  type WholeArtifactData,
} from '../../machines/artifactDetails/artifactDetailsMachine.ts';
import { ArtifactDetailsContext } from '../../machines/artifactDetails/useArtifactDetails.ts';
import type { Artifact } from '../../schemas/artifact.ts';
import { ArtifactBriefSchema } from '../../schemas/portfolio.ts';
import { ApiError } from '../../services/errors.ts';
import { makeArtifact } from '../../test/artifactFixtures.ts';
import { makeSharedArtifactDetail } from '../../test/sharedArtifactFixtures.ts';
import { SharedArtifactBriefSchema } from '../../schemas/sharedPortfolio.ts';
import { NOT_IN_PORTFOLIO } from './Notices.tsx';
import { WholeArtifact, WholeSharedArtifact } from './WholeArtifact.tsx';

const whole = makeArtifact({ id: 31, responses: { artifactName: 'Ramp races' } });
const brief = ArtifactBriefSchema.parse(whole);

/** The artifact in brief inside a `WholeArtifact` whose reads answer with `answers` in turn. */
function renderWith(answers: (() => Artifact)[], shown = brief) {
  const asked: number[] = [];
  const logic = artifactDetailsMachine.provide({
    actors: {
      fetchArtifact: fromPromise<WholeArtifactData, { artifactId: number }>(async ({ input }) => {
        asked.push(input.artifactId);
        return answers[asked.length - 1]!();
      }),
    },
  });
  render(
    <ArtifactDetailsContext.Provider value={{ logic }}>
      <WholeArtifact brief={shown}>
        {(artifact) => <h3>{`${artifact.responses['artifactName']} with ${artifact.structure.length} questions`}</h3>}
      </WholeArtifact>
    </ArtifactDetailsContext.Provider>,
  );
  return asked;
}

describe('WholeArtifact', () => {
  it('reads an artifact held in brief when it is opened, saying so meanwhile', async () => {
    expect(Object.keys(brief)).not.toContain('structure');
    const asked = renderWith([() => whole]);
    expect(screen.getByRole('status', { name: 'Loading artifact' })).toBeTruthy();
    expect(await screen.findByText(`Ramp races with ${whole.structure.length} questions`)).toBeTruthy();
    expect(asked).toEqual([31]);
  });

  it('passes a focus sent to it while it loads (a phone’s choice) on to the artifact’s title', async () => {
    let answer: (artifact: Artifact) => void = () => undefined;
    const logic = artifactDetailsMachine.provide({
      actors: {
        fetchArtifact: fromPromise<WholeArtifactData, { artifactId: number }>(
          () => new Promise((resolve) => (answer = resolve)),
        ),
      },
    });
    render(
      <ArtifactDetailsContext.Provider value={{ logic }}>
        <WholeArtifact brief={brief}>{(artifact) => <h3>{artifact.responses['artifactName']}</h3>}</WholeArtifact>
      </ArtifactDetailsContext.Provider>,
    );
    const placeholder = document.querySelector<HTMLElement>('[data-focus-target]')!;
    placeholder.focus();
    expect(document.activeElement).toBe(placeholder);
    answer(whole);
    const title = await screen.findByRole('heading', { name: 'Ramp races' });
    expect(document.activeElement).toBe(title);
  });

  it('shows an artifact already whole at once, without reading it', () => {
    const asked = renderWith([], whole);
    expect(screen.getByText(`Ramp races with ${whole.structure.length} questions`)).toBeTruthy();
    expect(asked).toEqual([]);
  });

  it('says the artifact is not in the portfolio when it is gone (404)', async () => {
    renderWith([
      () => {
        throw new ApiError(404, 'not_found', 'Artifact not found.', '{}');
      },
    ]);
    expect(await screen.findByText(NOT_IN_PORTFOLIO)).toBeTruthy();
  });

  it('offers Try again when the read failed, and shows the artifact once it is read', async () => {
    const asked = renderWith([
      () => {
        throw new ApiError(500, 'internal', 'Something went wrong.', '{}');
      },
      () => whole,
    ]);
    expect((await screen.findByRole('alert')).textContent).toContain('The artifact could not be loaded');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText(`Ramp races with ${whole.structure.length} questions`)).toBeTruthy();
    expect(asked).toEqual([31, 31]);
  });
});

describe('WholeSharedArtifact', () => {
  const shared = makeSharedArtifactDetail({ id: 70, responses: { artifactName: 'Ramp race' } });
  const sharedBrief = SharedArtifactBriefSchema.parse({ ...shared, reactions: {} });

  function renderShared(answer: () => WholeArtifactData) {
    const asked: number[] = [];
    const logic = artifactDetailsMachine.provide({
      actors: {
        fetchArtifact: fromPromise<WholeArtifactData, { artifactId: number }>(async ({ input }) => {
          asked.push(input.artifactId);
          return answer();
        }),
      },
    });
    render(
      <ArtifactDetailsContext.Provider value={{ logic }}>
        <WholeSharedArtifact brief={sharedBrief}>
          {(artifact) => <h3>{`${artifact.responses['artifactName']} with ${artifact.comments.length} comments`}</h3>}
        </WholeSharedArtifact>
      </ArtifactDetailsContext.Provider>,
    );
    return asked;
  }

  it('reads a shared artifact held in brief (a side of the comparison) before drawing it', async () => {
    expect(Object.keys(sharedBrief)).not.toContain('structure');
    const asked = renderShared(() => shared);
    expect(screen.getByRole('status', { name: 'Loading artifact' })).toBeTruthy();
    expect(await screen.findByText('Ramp race with 0 comments')).toBeTruthy();
    expect(asked).toEqual([70]);
  });

  it('draws nothing of a personal artifact read in its place: it is not in the portfolio', async () => {
    renderShared(() => whole);
    expect((await screen.findByRole('status', { name: '' })).textContent).toBe(NOT_IN_PORTFOLIO);
  });
});
