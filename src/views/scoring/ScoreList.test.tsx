import { act, render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fromPromise } from 'xstate';
import { scoringMachine, type ScoringInput, type ScoringLoaded } from '../../machines/scoring/scoringMachine.ts';
import { ScoringLogicContext, useScoringActor } from '../../machines/scoring/useScoring.ts';
import type { Media } from '../../schemas/media.ts';
import { makeScore, TALK_RUBRIC } from '../../test/scoringFixtures.ts';
import { makeVideo } from '../../test/videoHarness.tsx';
import { ScoreList } from './ScoreList.tsx';

function List({ videos }: { videos: readonly Media[] }) {
  return <ScoreList scoring={useScoringActor({ sharedPortfolioId: 7, artifactId: 70 })} videos={videos} />;
}

/** The list as someone sees it for whom the server answers `loaded`. */
function show(loaded: ScoringLoaded, videos: readonly Media[] = []) {
  const logic = scoringMachine.provide({
    actors: { loadScoring: fromPromise<ScoringLoaded, ScoringInput>(async () => loaded) },
  });
  return render(
    <ScoringLogicContext.Provider value={{ logic }}>
      <List videos={videos} />
    </ScoringLogicContext.Provider>,
  );
}

describe('Rubric scores', () => {
  it('shows nothing where the portfolio has no rubric and nobody scored, once that is known', async () => {
    const none = { chosen: { rubric: null, abilities: { score: false, choose: false } }, scores: [] };
    const { container } = show(none);
    await act(async () => undefined);
    expect(container.textContent).toBe('');
    // The same answer with one score shows the list: the emptiness above is the answer's, not the loading's.
    show({ ...none, scores: [makeScore(3, null)] });
    expect(await screen.findByRole('region', { name: 'Rubric scores' })).toBeTruthy();
  });

  it('lists the scores with where they were given, and offers no scoring nor Delete to who may not', async () => {
    const videos = [makeVideo({ id: 61 }), makeVideo({ id: 62, caption: 'B' })];
    show(
      {
        chosen: { rubric: TALK_RUBRIC, abilities: { score: false, choose: false } },
        scores: [
          makeScore(1, 62, 75, { abilities: { delete: false }, note: 'Every group talks.' }),
          makeScore(2, null, 0, { abilities: { delete: false } }),
        ],
      },
      videos,
    );
    const region = await screen.findByRole('region', { name: 'Rubric scores' });
    const items = region.querySelectorAll('li[id^="score-"]');
    // Whole-artifact scores first, then by video and time (as the server orders them).
    expect([...items].map((li) => li.id)).toEqual(['score-2', 'score-1']);
    expect(items[0]!.textContent).toContain('the whole artifact');
    expect(items[1]!.textContent).toContain('D1 Student talk: High (3)');
    expect(items[1]!.textContent).toContain('at 1:15 of video 2 · by Lee Lead · Discourse, version 1');
    expect(items[1]!.textContent).toContain('Every group talks.');
    expect(within(region).queryByRole('button')).toBeNull();
    expect(within(region).queryByRole('group')).toBeNull();
  });

  it('says "No scores yet." and offers the whole-artifact picker to who may score', async () => {
    show({ chosen: { rubric: TALK_RUBRIC, abilities: { score: true, choose: false } }, scores: [] });
    const region = await screen.findByRole('region', { name: 'Rubric scores' });
    expect(within(region).getByText('No scores yet.')).toBeTruthy();
    const picker = within(region).getByRole('group', { name: 'Score the whole artifact · Discourse' });
    expect(
      within(picker)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['D1 Student talk', 'Questioning']);
  });
});
