import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fromPromise } from 'xstate';
import { provideTeacherArchive } from '../../machines/teacherArchive/provideTeacherArchive.ts';
import { TeacherArchiveActorContext } from '../../machines/teacherArchive/useTeacherArchive.ts';
import type { ArchiveJob } from '../../schemas/archive.ts';
import { ARCHIVE_TEXT, ArchiveSection } from './ArchiveSection.tsx';

const counts = { portfolios: 2, artifacts: 5, sharedArtifacts: 1, comments: 3, media: 4 };
const ready: ArchiveJob = {
  id: 7,
  status: 'ready',
  progress: 1,
  counts,
  size: 3 * 1024 * 1024,
  created_at: '2026-03-01T09:59:00.000Z',
  finished_at: '2026-03-01T10:00:00.000Z',
  expires_at: '2026-03-08T10:00:00.000Z',
};
const building: ArchiveJob = {
  ...ready,
  id: 8,
  status: 'building',
  progress: 0.25,
  size: null,
  finished_at: null,
  expires_at: null,
};

function renderSection(archives: ArchiveJob[], requested: ArchiveJob[] = []) {
  const logic = provideTeacherArchive({
    notify: () => undefined,
    actors: {
      listArchives: fromPromise(async () => archives),
      requestArchive: fromPromise<ArchiveJob>(async () => {
        requested.push(building);
        return { ...building, status: 'queued' as const, progress: 0 };
      }),
      pollArchives: fromPromise<ArchiveJob[], { ms: number }>(() => new Promise(() => undefined)),
    },
  });
  render(
    <TeacherArchiveActorContext.Provider logic={logic} options={{ input: { pollMs: 10 } }}>
      <ArchiveSection />
    </TeacherArchiveActorContext.Provider>,
  );
}

describe('ArchiveSection', () => {
  it('lists earlier archives with their contents, expiry and a download link', async () => {
    renderSection([ready]);
    const region = await screen.findByRole('region', { name: 'Download my archive' });
    const link = await within(region).findByRole('link', { name: /^Download the archive of / });
    expect(link.getAttribute('href')).toBe(`${location.origin}/api/v1/archives/7/download`);
    expect(link.textContent).toBe('Download (3.0 MB)');
    const row = link.closest('tr')!;
    expect(within(row).getByText('Ready')).not.toBeNull();
    expect(within(row).getByText('2 portfolios, 5 artifacts, 1 shared artifact, 4 files')).not.toBeNull();
    expect(within(region).getByRole('button', { name: ARCHIVE_TEXT.request }).hasAttribute('disabled')).toBe(false);
  });

  it('asks for an archive and shows its progress instead of the button', async () => {
    const requested: ArchiveJob[] = [];
    renderSection([], requested);
    const region = await screen.findByRole('region', { name: 'Download my archive' });
    expect(await within(region).findByText(ARCHIVE_TEXT.none)).not.toBeNull();
    await userEvent.click(within(region).getByRole('button', { name: ARCHIVE_TEXT.request }));
    const bar = await within(region).findByRole('progressbar', { name: ARCHIVE_TEXT.preparing });
    expect(bar.getAttribute('aria-valuenow')).toBe('0');
    expect(within(region).getByText(ARCHIVE_TEXT.preparingNote)).not.toBeNull();
    expect(within(region).queryByRole('button', { name: ARCHIVE_TEXT.request })).toBeNull();
    expect(within(region).getByText('Waiting to start')).not.toBeNull();
    expect(requested).toHaveLength(1);
  });

  it('follows a build already under way when it opens', async () => {
    renderSection([building, ready]);
    const region = await screen.findByRole('region', { name: 'Download my archive' });
    const bar = await within(region).findByRole('progressbar', { name: ARCHIVE_TEXT.preparing });
    expect(bar.getAttribute('aria-valuenow')).toBe('25');
    expect(within(region).getByText('Being prepared')).not.toBeNull();
  });
});
