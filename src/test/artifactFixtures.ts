import type { Artifact } from '../schemas/artifact.ts';
import type { Media, MediaKind } from '../schemas/media.ts';
import { STANDARDS_ITEMS } from '../schemas/standards.ts';
import type { Structure } from '../schemas/structure.ts';

/** The Basic template's questions (architecture §7), as an artifact carries them. */
export const BASIC_STRUCTURE: Structure = [
  { key: 'artifactName', text: 'Artifact Name', type: 'shortText', core: true },
  { key: 'fileUpload', text: 'Photos, videos or documents', type: 'fileUpload' },
  {
    key: 'unitTiming',
    text: 'When in the unit was this?',
    type: 'singleSelection',
    choices: ['Beginning of unit', 'Middle of unit', 'End of unit', 'Not part of a unit'],
  },
  { key: 'unitDay', text: 'Day of the unit', type: 'number', min: 0, max: 200, step: 1 },
  {
    key: 'artifactCategory',
    text: 'What kind of evidence is this?',
    type: 'multipleResponse',
    choices: [
      'Student work',
      'Lesson plan or materials',
      'Classroom video',
      'Photo of an activity',
      'Assessment',
      'Other',
    ],
  },
  { key: 'learningGoal', text: 'What were students working to learn?', type: 'longText', core: true },
  { key: 'studentThinking', text: "What does this evidence show about students' thinking?", type: 'longText' },
  {
    key: 'standardFrameworkTags',
    text: 'Standards or elements of the framework',
    type: 'expansionPanelChoices',
    choices: [...STANDARDS_ITEMS],
  },
  { key: 'nextSteps', text: 'What would you do next, or differently?', type: 'longText' },
];

let nextId = 500;

/** An uploaded file as the API returns it. */
export function makeMedia(kind: MediaKind, overrides: Partial<Media> = {}): Media {
  nextId += 1;
  const id = overrides.id ?? nextId;
  const ext = kind === 'images' ? '.png' : kind === 'videos' ? '.mp4' : '.pdf';
  const mime = kind === 'images' ? 'image/png' : kind === 'videos' ? 'video/mp4' : 'application/pdf';
  const hash = `file_${id}abcdef`;
  return {
    id,
    name: `file-${id}${ext}`,
    caption: 'A',
    alternativeText: null,
    hash,
    ext,
    mime,
    size: 12.5,
    width: kind === 'documents' ? null : 800,
    height: kind === 'documents' ? null : 600,
    url: `/uploads/${hash}${ext}`,
    previewUrl: null,
    formats:
      kind === 'images'
        ? {
            thumbnail: {
              name: `thumbnail_${hash}${ext}`,
              hash: `thumbnail_${hash}`,
              ext,
              mime,
              width: 208,
              height: 156,
              size: 4.2,
              path: null,
              url: `/uploads/thumbnail_${hash}${ext}`,
            },
          }
        : null,
    provider: 'local',
    created_at: '2026-03-01T10:00:00.000Z',
    updated_at: '2026-03-01T10:00:00.000Z',
    alt: '',
    description: '',
    duration: null,
    ...overrides,
  };
}

/** A personal artifact of the Basic template as the API returns it (in the parking lot unless told). */
export function makeArtifact(overrides: Partial<Artifact> = {}): Artifact {
  nextId += 1;
  return {
    id: overrides.id ?? nextId,
    portfolio: { id: 7 },
    parkingLot: true,
    created_at: '2026-03-01T10:00:00.000Z',
    updated_at: '2026-03-02T10:00:00.000Z',
    structure: BASIC_STRUCTURE,
    responses: {},
    nextCaption: 'A',
    owner: { id: 3, username: 'Tess Teacher', email: 'teacher@example.org' },
    ownerUsername: 'Tess Teacher',
    portfolioGrades: ['3rd', '4th'],
    commentCount: 0,
    commentTexts: [],
    saved: true,
    images: [],
    videos: [],
    documents: [],
    ...overrides,
  };
}
