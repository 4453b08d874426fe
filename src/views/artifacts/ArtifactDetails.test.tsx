import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import type { Structure } from '../../schemas/structure.ts';
import { makeArtifact, makeMedia } from '../../test/artifactFixtures.ts';
import { ArtifactDetails, TEAM_QUESTIONS_HEADING, type ArtifactDetailsProps } from './ArtifactDetails.tsx';
import { formatDate, formatDateTime } from '../../schemas/formatting.ts';

function renderDetails(props: ArtifactDetailsProps) {
  const location = memoryLocation({ path: '/my-portfolios/7/artifacts/1', record: true });
  render(
    <Router hook={location.hook}>
      <ArtifactDetails {...props} />
    </Router>,
  );
  return { location };
}

/** The value shown for a label in a description list. */
function valueOf(term: string): HTMLElement {
  const dt = screen.getAllByText(term, { selector: 'dt' })[0]!;
  return dt.nextElementSibling as HTMLElement;
}

const ALL_TYPES: Structure = [
  { key: 'artifactName', text: 'Artifact Name', type: 'shortText', core: true },
  { key: 'fileUpload', text: 'Photos, videos or documents', type: 'fileUpload' },
  {
    key: 'unitTiming',
    text: 'When in the unit was this?',
    type: 'singleSelection',
    choices: ['Beginning of unit', 'End of unit'],
  },
  { key: 'unitDay', text: 'Day of the unit', type: 'number', min: 0, max: 200, step: 1 },
  { key: 'summary', text: 'One-line summary', type: 'shortText' },
  { key: 'story', text: 'What happened?', type: 'longText' },
  { key: 'mood', text: 'How did it go?', type: 'singleSelection', choices: ['Well', 'Badly'] },
  {
    key: 'kinds',
    text: 'What kind of evidence is this?',
    type: 'multipleResponse',
    choices: ['Student work', 'Assessment'],
  },
  { key: 'students', text: 'How many students?', type: 'number', min: 0, max: 50, step: 1 },
  {
    key: 'standardFrameworkTags',
    text: 'Standards',
    type: 'expansionPanelChoices',
    choices: ['Patterns', 'Cause and Effect'],
  },
  { key: 'empty', text: 'Anything else?', type: 'longText' },
];

describe('ArtifactDetails', () => {
  it('shows the title, the dates in the spec’s formats, unit timing and unit day', () => {
    const created = new Date(2026, 10, 21, 9, 5);
    const edited = new Date(2026, 11, 3, 17, 42);
    renderDetails({
      artifact: makeArtifact({
        created_at: created.toISOString(),
        updated_at: edited.toISOString(),
        responses: { artifactName: 'Ramp races', unitTiming: 'Middle of unit', unitDay: 4 },
      }),
    });
    expect(screen.getByRole('heading', { level: 2, name: 'Ramp races' })).toBeTruthy();
    expect(valueOf('Last Edited').textContent).toBe('December 3, 2026 5:42pm');
    expect(valueOf('Date Created').textContent).toBe('11/21/26');
    expect(valueOf('Unit Timing').textContent).toBe('Middle of unit');
    expect(valueOf('Unit Day').textContent).toBe('4');
    expect(screen.getByRole('article', { name: 'Ramp races' })).toBeTruthy();
  });

  it('calls an artifact without a name (Unnamed) and says what is not specified', () => {
    renderDetails({ artifact: makeArtifact({ responses: { artifactName: '  ' } }) });
    expect(screen.getByRole('heading', { level: 2, name: '(Unnamed)' })).toBeTruthy();
    expect(valueOf('Unit Timing').textContent).toBe('Not specified');
    expect(valueOf('Unit Day').textContent).toBe('Not specified');
    expect(screen.getByText('No files have been uploaded.')).toBeTruthy();
  });

  it('renders every question type as its text and value, lists as chips', () => {
    renderDetails({
      artifact: makeArtifact({
        structure: ALL_TYPES,
        responses: {
          artifactName: 'All types',
          summary: 'Short answer',
          story: 'Line one\nLine two',
          mood: 'Well',
          kinds: ['Student work', 'Assessment'],
          students: 23,
          standardFrameworkTags: ['Patterns', 'Cause and Effect'],
        },
      }),
    });
    expect(valueOf('One-line summary').textContent).toBe('Short answer');
    expect(valueOf('What happened?').textContent).toBe('Line one\nLine two');
    expect(valueOf('How did it go?').textContent).toBe('Well');
    expect(valueOf('How many students?').textContent).toBe('23');
    const kinds = within(valueOf('What kind of evidence is this?')).getByRole('list', {
      name: 'What kind of evidence is this?',
    });
    expect(
      within(kinds)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Student work', 'Assessment']);
    const standards = within(valueOf('Standards')).getByRole('list');
    expect(
      within(standards)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Patterns', 'Cause and Effect']);
    expect(valueOf('Anything else?').textContent).toBe('No response');
    // The header questions and the file question are not repeated as questions.
    expect(screen.queryByText('Artifact Name', { selector: 'dt' })).toBeNull();
    expect(screen.queryByText('When in the unit was this?')).toBeNull();
    expect(screen.queryByText('Day of the unit')).toBeNull();
    expect(screen.getByRole('heading', { level: 3, name: 'Photos, videos or documents' })).toBeTruthy();
  });

  it('shows files by their names as people say them (no upload letters): images and videos open the viewers, documents the file', () => {
    const image = makeMedia('images', { caption: 'A', name: 'ramp.png', url: '/uploads/ramp_1a2b.png' });
    const smallImage = makeMedia('images', {
      caption: 'D',
      name: 'tiny.png',
      url: '/uploads/tiny_9f.png',
      formats: null,
    });
    const video = makeMedia('videos', {
      caption: 'B',
      name: 'ramp_race-final.mp4',
      url: '/uploads/race_3c4d.mp4',
      duration: 83.4,
    });
    const doc = makeMedia('documents', { caption: 'C', name: 'lesson-plan.pdf', url: '/uploads/plan_5e6f.pdf' });
    renderDetails({ artifact: makeArtifact({ images: [smallImage, image], videos: [video], documents: [doc] }) });
    const links = screen.getAllByRole('link');
    expect(links.map((a) => a.textContent)).toEqual([
      'ramp',
      'tiny',
      '1:23ramp race final (video, 1:23)',
      'lesson plan (PDF)',
    ]);
    // A video's tile: a play badge and its length on the picture (hidden from screen readers, which hear them in the name).
    expect(links[2]!.querySelector('[data-play-badge]')!.getAttribute('aria-hidden')).toBe('true');
    expect(links[2]!.querySelector('[data-duration]')!.textContent).toBe('1:23');
    expect(screen.getByRole('link', { name: 'ramp race final (video, 1:23)' })).toBe(links[2]);
    expect(screen.getByRole('link', { name: 'lesson plan (PDF)' })).toBe(links[3]);
    expect(links[0]!.getAttribute('href')).toBe('/images/uploads/ramp_1a2b.png');
    expect(links[0]!.querySelector('img')!.getAttribute('src')).toBe(
      `${location.origin}/api/v1/uploads/thumbnail_${image.hash}.png`,
    );
    // Without a thumbnail the image itself is shown.
    expect(links[1]!.querySelector('img')!.getAttribute('src')).toBe(`${location.origin}/api/v1/uploads/tiny_9f.png`);
    expect(links[2]!.getAttribute('href')).toBe('/videos/uploads/race_3c4d.mp4');
    expect(links[2]!.querySelector('svg')).toBeTruthy();
    expect(links[3]!.getAttribute('href')).toBe(`${location.origin}/api/v1/uploads/plan_5e6f.pdf`);
  });

  it('uses a video’s poster when it has one', () => {
    const video = makeMedia('videos', {
      caption: 'A',
      name: 'race.mp4',
      formats: {
        thumbnail: {
          name: 't',
          hash: 't',
          ext: '.png',
          mime: 'image/png',
          width: 1,
          height: 1,
          size: 1,
          path: null,
          url: '/uploads/thumbnail_race.png',
        },
      },
    });
    renderDetails({ artifact: makeArtifact({ videos: [video] }) });
    expect(screen.getByRole('link', { name: 'race (video)' }).querySelector('img')!.getAttribute('src')).toBe(
      `${location.origin}/api/v1/uploads/thumbnail_race.png`,
    );
  });

  it('puts team questions under their own heading, and grade levels when asked', () => {
    const structure: Structure = [
      ...ALL_TYPES.slice(0, 5),
      { key: 'b1c0', text: 'What would our team try?', type: 'longText', bonus: true },
      { key: 'b2c0', text: 'Which grade band?', type: 'multipleResponse', choices: ['K-2', '3-5'], bonus: true },
    ];
    renderDetails({
      artifact: makeArtifact({
        structure,
        responses: { summary: 'Template answer', b1c0: 'Pair talk', b2c0: ['3-5'] },
        portfolioGrades: ['K', '3rd'],
      }),
      showGradeLevels: true,
    });
    const team = screen.getByRole('region', { name: TEAM_QUESTIONS_HEADING });
    expect(within(team).getByText('What would our team try?')).toBeTruthy();
    expect(within(team).getByText('Pair talk')).toBeTruthy();
    expect(within(team).getByRole('listitem').textContent).toBe('3-5');
    expect(within(team).queryByText('One-line summary')).toBeNull();
    expect(valueOf('Grade Levels').textContent).toBe('Kindergarten, 3rd Grade');
  });

  it('has no team heading or grade levels for a personal artifact', () => {
    renderDetails({ artifact: makeArtifact() });
    expect(screen.queryByText(TEAM_QUESTIONS_HEADING)).toBeNull();
    expect(screen.queryByText('Grade Levels')).toBeNull();
  });

  it('can sit under a page heading (level 3 title)', () => {
    renderDetails({ artifact: makeArtifact({ responses: { artifactName: 'Nested' } }), headingLevel: 3 });
    expect(screen.getByRole('heading', { level: 3, name: 'Nested' })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 4, name: 'Photos, videos or documents' })).toBeTruthy();
  });
});

describe('artifact dates', () => {
  it('formats Last Edited as “mmmm d, yyyy h:MMtt” and Date Created as mm/dd/yy', () => {
    expect(formatDateTime(new Date(2026, 10, 21, 9, 5))).toBe('November 21, 2026 9:05am');
    expect(formatDateTime(new Date(2026, 0, 1, 0, 0))).toBe('January 1, 2026 12:00am');
    expect(formatDateTime(new Date(2026, 6, 4, 12, 30))).toBe('July 4, 2026 12:30pm');
    expect(formatDate(new Date(2009, 1, 3))).toBe('02/03/09');
    expect(formatDate('not a date')).toBe('');
  });
});
