import { describe, expect, it } from 'vitest';
import { STANDARDS_ITEMS } from '../../schemas/standards.ts';
import { BASIC_STRUCTURE } from '../../test/artifactFixtures.ts';
import { makeSharedPortfolio, TEAM_QUESTION } from '../../test/sharedFixtures.ts';
import {
  buildBody,
  changeBonusRow,
  checkForm,
  choicesTextOf,
  EMPTY_VALUES,
  invalidQuestionsMessage,
  newBonusRow,
  newQuestionKey,
  rowsForCreate,
  rowsForEdit,
  splitChoices,
  type BonusRow,
} from './sharedForm.ts';

const bonus = (overrides: Partial<BonusRow>): BonusRow => ({ ...newBonusRow('k1'), ...overrides });

describe('shared portfolio form data', () => {
  it('words the alert for one and for several invalid questions', () => {
    expect(invalidQuestionsMessage(1)).toBe('You have 1 invalid question. Please add the required info and re-submit.');
    expect(invalidQuestionsMessage(3)).toBe(
      'You have 3 invalid questions. Please add the required info and re-submit.',
    );
  });

  it('splits typed choices on commas, trimming and dropping empty ones', () => {
    expect(splitChoices(' a ,b,, c ,')).toEqual(['a', 'b', 'c']);
    expect(splitChoices(' , ')).toEqual([]);
  });

  it('keeps stored choices as they are until the box is edited', () => {
    const row = bonus({ type: 'singleSelection', choices: ['Red, green', 'Blue'] });
    expect(choicesTextOf(row)).toBe('Red, green, Blue');
    expect(buildBody({ ...EMPTY_VALUES, name: 'x' }, [{ ...row, text: 'Colour?' }]).structure[0]!.choices).toEqual([
      'Red, green',
      'Blue',
    ]);
    const edited = changeBonusRow(row, 'choices', 'Red, green, Blue');
    expect(buildBody({ ...EMPTY_VALUES, name: 'x' }, [{ ...edited, text: 'Colour?' }]).structure[0]!.choices).toEqual([
      'Red',
      'green',
      'Blue',
    ]);
  });

  it('counts a question once however many messages it has', () => {
    const rows = [
      bonus({ key: 'a' }),
      bonus({ key: 'b', text: 'ok', type: 'multipleResponse' }),
      bonus({ key: 'c', text: 'ok', type: 'shortText' }),
    ];
    const { errors, invalidQuestions } = checkForm(EMPTY_VALUES, rows);
    expect(invalidQuestions).toBe(2);
    expect(errors).toEqual({
      name: 'A name is required.',
      questions: {
        a: { text: 'Question text is required.', type: 'Question type is required.' },
        b: { choices: 'You must enter at least one choice.' },
      },
    });
  });

  it('sends number questions with min 1, max 1, step 1 and text questions without choices', () => {
    const body = buildBody({ ...EMPTY_VALUES, name: ' N ' }, [
      bonus({ key: 'n', text: ' How many? ', type: 'number', choices: ['left over'] }),
      bonus({ key: 't', text: 'Why?', type: 'shortText', choices: ['left over'] }),
    ]);
    expect(body.name).toBe('N');
    expect(body.structure).toEqual([
      { key: 'n', text: 'How many?', type: 'number', bonus: true, min: 1, max: 1, step: 1 },
      { key: 't', text: 'Why?', type: 'shortText', bonus: true },
    ]);
    expect(body).toMatchObject({ subject: null, topic: null, plcName: null, plcGoals: null, grades: [] });
  });

  it('starts a new portfolio with every template question on, and keeps core questions whatever their switch says', () => {
    const rows = rowsForCreate(BASIC_STRUCTURE);
    expect(rows.every((r) => r.kind === 'template' && r.included)).toBe(true);
    const off = rows.map((r) => (r.kind === 'template' ? { ...r, included: false } : r));
    expect(buildBody({ ...EMPTY_VALUES, name: 'x' }, off).structure.map((q) => q.key)).toEqual([
      'artifactName',
      'learningGoal',
    ]);
    const all = buildBody({ ...EMPTY_VALUES, name: 'x' }, rows).structure;
    expect(all).toEqual(BASIC_STRUCTURE);
    expect(all.find((q) => q.key === 'standardFrameworkTags')!.choices).toEqual([...STANDARDS_ITEMS]);
  });

  it('reads an existing portfolio: template questions on when kept, team questions after them', () => {
    const rows = rowsForEdit(makeSharedPortfolio());
    const included = rows.filter((r) => r.kind === 'template' && r.included).map((r) => r.key);
    expect(included).toEqual(['artifactName', 'unitTiming', 'learningGoal', 'standardFrameworkTags']);
    expect(rows.at(-1)).toEqual({
      kind: 'bonus',
      key: TEAM_QUESTION.key,
      text: TEAM_QUESTION.text,
      type: 'singleSelection',
      choices: TEAM_QUESTION.choices,
      choicesText: null,
    });
  });

  it('makes random version-4 keys', () => {
    const keys = new Set(Array.from({ length: 50 }, newQuestionKey));
    expect(keys.size).toBe(50);
    for (const key of keys)
      expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
