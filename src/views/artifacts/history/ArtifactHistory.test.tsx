import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fromPromise } from 'xstate';
import {
  artifactHistoryMachine,
  type StoredArtifact,
} from '../../../machines/artifactHistory/artifactHistoryMachine.ts';
import { ArtifactHistoryContext } from '../../../machines/artifactHistory/useArtifactHistory.ts';
import { diffArtifacts } from '../../../machines/artifactHistory/versionDiff.ts';
import type { VersionDetail, VersionListResponse } from '../../../schemas/versions.ts';
import { ApiError } from '../../../services/errors.ts';
import type { VersionHolder } from '../../../services/versionService.ts';
import { BASIC_STRUCTURE, makeMedia } from '../../../test/artifactFixtures.ts';
import { preloadParts } from '../../components/lazyParts.tsx';
import { CHANGED } from './ArtifactHistory.tsx';
import { DiffView } from './DiffView.tsx';
import { HistorySection } from './HistorySection.tsx';

/** Which history an actor is asked for. */
type Target = { holder: VersionHolder; artifactId: number };

const photo = makeMedia('images', { id: 7, name: 'ramp-photo.jpg', url: '/uploads/cap/ramp-photo.jpg' });
const sheet = makeMedia('documents', { id: 8, name: 'data-sheet.pdf', url: '/uploads/cap/data-sheet.pdf' });

const version = (number: number, goal: string, files: Partial<VersionDetail> = {}): VersionDetail => ({
  number,
  author: number === 1 ? null : { id: 5, name: 'Theo Teacher' },
  created_at: `2026-11-2${number}T09:00:00.000Z`,
  client: number === 2 ? 'mobile' : 'web',
  restoredFrom: null,
  summary: number === 1 ? 'First version' : 'What were students working to learn?, 1 image added',
  responses: { artifactName: 'Ramp races', learningGoal: goal, artifactCategory: ['Student work'] },
  images: [],
  videos: [],
  documents: [],
  ...files,
});
const VERSIONS = [
  version(1, 'Students roll cars.', { documents: [sheet] }),
  version(2, 'Students roll toy cars.', { images: [photo] }),
  version(3, 'Students roll toy cars down two ramps.', { images: [photo] }),
];

function renderHistory(options: { canRestore?: boolean; restore?: () => Promise<StoredArtifact> } = {}): {
  asked: { restore: unknown[] };
  changed: StoredArtifact[];
} {
  const asked = { restore: [] as unknown[] };
  const changed: StoredArtifact[] = [];
  const logic = artifactHistoryMachine.provide({
    actors: {
      listVersions: fromPromise<VersionListResponse, Target & { before: number | undefined }>(async () => ({
        items: [...VERSIONS].reverse(),
        total: 3,
        nextBefore: null,
      })),
      readVersions: fromPromise<VersionDetail[], Target & { numbers: number[] }>(async ({ input }) =>
        input.numbers.map((n) => VERSIONS[n - 1]!),
      ),
      restoreVersion: fromPromise<StoredArtifact, Target & { number: number; updatedAt: string }>(async ({ input }) => {
        asked.restore.push(input);
        return (options.restore ?? (async () => ({ ...VERSIONS[0]!, updated_at: '2026-11-29T10:00:00.000Z' })))();
      }),
      getCurrent: fromPromise<StoredArtifact, Target>(async () => ({
        ...VERSIONS[2]!,
        updated_at: '2026-11-29T11:00:00.000Z',
      })),
    },
  });
  render(
    <ArtifactHistoryContext.Provider value={{ logic }}>
      <HistorySection
        holder="artifact"
        artifactId={12}
        updatedAt="2026-11-23T09:00:00.000Z"
        structure={BASIC_STRUCTURE}
        canRestore={options.canRestore ?? true}
        onChanged={(artifact) => changed.push(artifact)}
        headingLevel={3}
      />
    </ArtifactHistoryContext.Provider>,
  );
  return { asked, changed };
}

beforeAll(() => preloadParts());
afterEach(() => document.body.replaceChildren());

describe('DiffView', () => {
  it('marks added and removed words with <ins> and <del>, told in words too', () => {
    const diff = diffArtifacts(
      BASIC_STRUCTURE,
      {
        ...VERSIONS[0]!,
        responses: {
          artifactName: 'Ramp races',
          learningGoal: 'Students roll two cars.',
          artifactCategory: ['Assessment'],
        },
      },
      VERSIONS[2]!,
    );
    const { container } = render(<DiffView diff={diff} />);
    expect(screen.getByText('Added text is underlined, removed text is struck through.')).toBeTruthy();
    expect([...container.querySelectorAll('ins')].map((el) => el.textContent)).toEqual([
      'Added: Student work',
      '[added: toy]',
      '[added: down two ramps]',
    ]);
    expect([...container.querySelectorAll('del')].map((el) => el.textContent)).toEqual([
      'Removed: Assessment',
      '[removed: two]',
    ]);
    // Not by colour alone: underlined and struck through.
    expect(getComputedStyle(container.querySelector('ins')!).textDecoration).toContain('underline');
    expect(getComputedStyle(container.querySelector('del')!).textDecoration).toContain('line-through');
  });

  it('shows files added and removed with their pictures; a removed file is still linked', () => {
    const diff = diffArtifacts(BASIC_STRUCTURE, VERSIONS[0]!, VERSIONS[1]!);
    render(<DiffView diff={diff} />);
    const files = screen.getByText('Files').nextElementSibling as HTMLElement;
    const tiles = within(files).getAllByRole('listitem');
    expect(tiles.map((t) => t.firstElementChild?.textContent)).toEqual(['Added', 'Removed']);
    expect(within(tiles[1]!).getByRole('link').getAttribute('href')).toContain('/uploads/cap/data-sheet.pdf');
    expect(tiles[0]!.querySelector('img')?.getAttribute('src')).toBeTruthy();
  });

  it('says when nothing differs', () => {
    render(<DiffView diff={{ fields: [], files: [] }} />);
    expect(screen.getByText('No differences in the answers or files.')).toBeTruthy();
  });
});

describe('HistorySection', () => {
  it('opens on the versions, newest first, with the newest compared to the one before it', async () => {
    renderHistory();
    const ux = userEvent.setup();
    const toggle = screen.getByRole('button', { name: 'Show history' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    await ux.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    const list = await screen.findByRole('list', { name: 'Versions, newest first' });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((i) => i.querySelector('p')?.textContent)).toEqual([
      'Version 3 (current) · Theo Teacher',
      'Version 2 · Theo Teacher',
      'Version 1 · A former user',
    ]);
    expect(items[1]!.textContent).toContain('in the mobile app');
    expect(items[1]!.textContent).toContain('What were students working to learn?, 1 image added');
    const diff = await screen.findByRole('region', { name: 'Changes from version 2 to version 3' });
    await waitFor(() => expect(diff.querySelector('ins')?.textContent).toBe('[added: down two ramps]'));
    // The newest version is the artifact as it is: nothing to restore there.
    expect(within(items[0]!).queryByRole('button', { name: /Restore/ })).toBeNull();
    expect(within(items[2]!).getByRole('button', { name: 'Restore version 1' })).toBeTruthy();
  });

  it('compares any two versions, and one with the version before it', async () => {
    renderHistory();
    const ux = userEvent.setup();
    await ux.click(screen.getByRole('button', { name: 'Show history' }));
    await screen.findByRole('region', { name: 'Changes from version 2 to version 3' });
    await ux.selectOptions(screen.getByLabelText('From version'), '3');
    await ux.selectOptions(screen.getByLabelText('To version'), '1');
    await ux.click(screen.getByRole('button', { name: 'Compare' }));
    const diff = await screen.findByRole('region', { name: 'Changes from version 1 to version 3' });
    await waitFor(() => expect(within(diff).getByText('Removed')).toBeTruthy());
    await ux.click(screen.getByRole('button', { name: 'Show changes of version 2' }));
    expect(await screen.findByRole('region', { name: 'Changes from version 1 to version 2' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Show changes of version 2' }).getAttribute('aria-pressed')).toBe('true');
  });

  it('offers no Restore to those who may not edit', async () => {
    renderHistory({ canRestore: false });
    await userEvent.setup().click(screen.getByRole('button', { name: 'Show history' }));
    await screen.findByRole('list', { name: 'Versions, newest first' });
    expect(screen.queryAllByRole('button', { name: /^Restore/ })).toEqual([]);
  });

  it('restores after a confirmation, guarded by the version the page shows, and tells the page', async () => {
    const { asked, changed } = renderHistory();
    const ux = userEvent.setup();
    await ux.click(screen.getByRole('button', { name: 'Show history' }));
    await ux.click(await screen.findByRole('button', { name: 'Restore version 1' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Restore version 1?' });
    await ux.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(asked.restore).toEqual([]);
    await ux.click(screen.getByRole('button', { name: 'Restore version 1' }));
    await ux.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Restore version 1' }));
    expect(await screen.findByText('Version 1 was restored: it is now the newest version.')).toBeTruthy();
    expect(asked.restore).toEqual([
      { holder: 'artifact', artifactId: 12, number: 1, updatedAt: '2026-11-23T09:00:00.000Z' },
    ]);
    expect(changed.map((a) => a.updated_at)).toEqual(['2026-11-29T10:00:00.000Z']);
    expect(screen.queryByRole('alertdialog')).toBeNull();
    // The history stayed on screen while it was read again: the focus is back on the button.
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Restore version 1' }));
  });

  it('a refused restore (saved since) shows the artifact as stored and says so', async () => {
    const { changed } = renderHistory({
      restore: () => Promise.reject(new ApiError(409, 'conflict', 'Saved by someone else.', '')),
    });
    const ux = userEvent.setup();
    await ux.click(screen.getByRole('button', { name: 'Show history' }));
    await ux.click(await screen.findByRole('button', { name: 'Restore version 1' }));
    await ux.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Restore version 1' }));
    expect(await screen.findByText(CHANGED)).toBeTruthy();
    expect(changed.map((a) => a.updated_at)).toEqual(['2026-11-29T11:00:00.000Z']);
  });
});
