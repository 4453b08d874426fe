import { describe, expect, it } from 'vitest';
import type { SharedPortfolioBody } from '#schemas/sharedPortfolio';
import { BASIC_TEMPLATE } from '../db/template.ts';
import { HttpError } from '../errors.ts';
import { buildSharedStructure, invalidQuestionsMessage } from './sharedStructure.ts';

type Input = SharedPortfolioBody['structure'];

const CORE_KEYS = BASIC_TEMPLATE.filter((q) => q.core).map((q) => q.key);
const template = (key: string) => BASIC_TEMPLATE.find((q) => q.key === key)!;

/** The message of the 400 that building the structure answers. */
function refusal(input: Input): string {
  let thrown: unknown = null;
  try {
    buildSharedStructure(input, BASIC_TEMPLATE);
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(HttpError);
  expect((thrown as HttpError).statusCode).toBe(400);
  return (thrown as HttpError).message;
}

describe('buildSharedStructure', () => {
  it('always keeps the core template questions, first and as the template defines them', () => {
    expect(buildSharedStructure([], BASIC_TEMPLATE)).toEqual(BASIC_TEMPLATE.filter((q) => q.core));
    expect(CORE_KEYS).toEqual(['artifactName', 'learningGoal']);
  });

  it('takes the template questions that are sent, as the template defines them (not as sent), in template order', () => {
    const structure = buildSharedStructure(
      [
        { key: 'nextSteps', text: 'Edited text', type: 'shortText', core: true },
        { key: 'unitTiming', text: '', type: 'number', choices: [] },
        { key: 'artifactName', text: 'Renamed core', type: 'longText' },
      ],
      BASIC_TEMPLATE,
    );
    expect(structure).toEqual([
      template('artifactName'),
      template('unitTiming'),
      template('learningGoal'),
      template('nextSteps'),
    ]);
  });

  it('adds team questions after the template ones, marked bonus, with trimmed text and cleaned choices', () => {
    const structure = buildSharedStructure(
      [
        {
          key: 'b-1',
          text: '  Which grade could use this?  ',
          type: 'singleSelection',
          choices: [' K ', '1st', '', '1st', 'Middle, or high'],
        },
        { key: 'b-2', text: 'Tags', type: 'multipleResponse', choices: ['a'] },
        { key: 'b-3', text: 'Why?', type: 'longText', choices: ['ignored'], core: true },
        { key: 'b-4', text: 'Short', type: 'shortText' },
      ],
      BASIC_TEMPLATE,
    );
    expect(structure.slice(2)).toEqual([
      {
        key: 'b-1',
        text: 'Which grade could use this?',
        type: 'singleSelection',
        bonus: true,
        choices: ['K', '1st', 'Middle, or high'],
      },
      { key: 'b-2', text: 'Tags', type: 'multipleResponse', bonus: true, choices: ['a'] },
      { key: 'b-3', text: 'Why?', type: 'longText', bonus: true },
      { key: 'b-4', text: 'Short', type: 'shortText', bonus: true },
    ]);
  });

  it('stores number team questions with min 1, max 1, step 1 whatever was sent', () => {
    const [, , number] = buildSharedStructure(
      [{ key: 'n', text: 'How many?', type: 'number', min: 0, max: 99, step: 5 }],
      BASIC_TEMPLATE,
    );
    expect(number).toEqual({ key: 'n', text: 'How many?', type: 'number', bonus: true, min: 1, max: 1, step: 1 });
  });

  it('refuses team questions without text, with a type a team may not use, or without choices, with the spec’s messages', () => {
    expect(refusal([{ key: 'x', text: '   ', type: 'shortText' }])).toBe(
      `${invalidQuestionsMessage(1)} Question text is required.`,
    );
    for (const type of ['', 'fileUpload', 'expansionPanelChoices', 'essay']) {
      expect(refusal([{ key: 'x', text: 'Q', type, choices: ['a'] }])).toBe(
        'You have 1 invalid question. Please add the required info and re-submit. Question type is required.',
      );
    }
    for (const type of ['singleSelection', 'multipleResponse']) {
      expect(refusal([{ key: 'x', text: 'Q', type }])).toBe(
        'You have 1 invalid question. Please add the required info and re-submit. You must enter at least one choice.',
      );
      expect(refusal([{ key: 'x', text: 'Q', type, choices: [' ', ''] }])).toMatch(
        /You must enter at least one choice\.$/,
      );
    }
  });

  it('counts invalid questions, not problems, and names the first problem', () => {
    expect(
      refusal([
        { key: 'ok', text: 'Fine', type: 'shortText' },
        { key: 'a', text: '', type: 'singleSelection' },
        { key: 'b', text: 'B', type: 'multipleResponse', choices: [] },
        { key: 'c', text: 'C', type: 'nonsense' },
      ]),
    ).toBe('You have 3 invalid questions. Please add the required info and re-submit. Question text is required.');
  });

  it('refuses a key used twice', () => {
    expect(
      refusal([
        { key: 'same', text: 'One', type: 'shortText' },
        { key: 'same', text: 'Two', type: 'shortText' },
      ]),
    ).toBe(
      'You have 1 invalid question. Please add the required info and re-submit. Each question must have its own key.',
    );
    expect(
      refusal([
        { key: 'nextSteps', text: '', type: '' },
        { key: 'nextSteps', text: '', type: '' },
      ]),
    ).toMatch(/Each question must have its own key\.$/);
  });

  it('words the summary for one and for several questions', () => {
    expect(invalidQuestionsMessage(1)).toBe('You have 1 invalid question. Please add the required info and re-submit.');
    expect(invalidQuestionsMessage(2)).toBe(
      'You have 2 invalid questions. Please add the required info and re-submit.',
    );
  });
});
