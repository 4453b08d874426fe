import { STANDARDS_ITEMS } from '#schemas/standards';
import type { Structure } from '#schemas/structure';

/** The Basic template's questions (architecture §7), stored as the structure of portfolio 1. */
export const BASIC_TEMPLATE: Structure = [
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
