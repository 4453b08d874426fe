import { describe, expect, it } from 'vitest';
import {
  DartTypeError,
  decodeAuthUser,
  decodeComment,
  decodeFile,
  decodeLoginBundle,
  decodeReaction,
  decodeSharedArtifact,
  decodeSharedPortfolio,
} from './dartModels.ts';

const when = '2026-03-03T10:00:00.000Z';
const person = { id: 5, username: 'Theo', email: 'theo@example.org' };
const comment = {
  id: 1,
  text: 'Hi',
  owner: person,
  sharedArtifact: { id: 70, sharedPortfolio: 9 },
  created_at: when,
  updated_at: when,
};
const image = {
  id: 3,
  name: 'a.png',
  size: 12.5,
  url: '/uploads/x/a.png',
  created_at: when,
  formats: { large: { url: '/l' }, medium: { url: '/m' }, thumbnail: { url: '/t' } },
};

/** The decoders must fail where the app's Dart code throws: each case is an answer that crashed the app. */
describe('the Dart model checks', () => {
  it('accept the populated shapes', () => {
    expect(() => decodeComment(comment, 'c')).not.toThrow();
    expect(() => decodeReaction({ ...comment, value: '⭐' }, 'r')).not.toThrow();
    expect(() => decodeFile(image, 'f', 'images')).not.toThrow();
  });

  it.each([
    ['a comment owner as an id', () => decodeComment({ ...comment, owner: 5 }, 'c'), /c\.owner: the app needs a map/],
    [
      'a reaction artifact as an id',
      () => decodeReaction({ ...comment, value: '⭐', sharedArtifact: 70 }, 'r'),
      /r\.sharedArtifact: the app needs a map/,
    ],
    [
      'an image without its large format',
      () => decodeFile({ ...image, formats: { medium: { url: '/m' }, thumbnail: { url: '/t' } } }, 'f', 'images'),
      /f\.formats\.large/,
    ],
    ['a size as text', () => decodeFile({ ...image, size: '12' }, 'f', 'documents'), /f\.size: the app needs a num/],
    [
      'a date that is not ISO',
      () => decodeComment({ ...comment, created_at: 1_700_000_000_000 }, 'c'),
      /DateTime\.parse/,
    ],
    [
      'confirmed as text',
      () =>
        decodeAuthUser({
          id: 1,
          username: 'a',
          email: 'b',
          confirmed: 'true',
          blocked: false,
          role: { id: 1, name: 'x', description: 'y' },
          created_at: when,
          updated_at: when,
        }),
      /confirmed: the app needs a bool/,
    ],
    [
      'a shared portfolio id as a String',
      () =>
        decodeSharedArtifact(
          { sharedPortfolio: '9', id: 1, created_at: when, updated_at: when, owner: person, structure: [] },
          'sa',
        ),
      /sa\.sharedPortfolio: the app needs a map/,
    ],
    [
      'a number answer as text',
      () =>
        decodeSharedArtifact(
          {
            sharedPortfolio: 9,
            id: 1,
            created_at: when,
            updated_at: when,
            owner: person,
            structure: [{ key: 'n', type: 'number' }],
            responses: { n: '3' },
          },
          'sa',
        ),
      /sa\.responses\.n: the app needs an int/,
    ],
    [
      'an unknown question type',
      () =>
        decodeSharedArtifact(
          {
            sharedPortfolio: 9,
            id: 1,
            created_at: when,
            updated_at: when,
            owner: person,
            structure: [{ key: 'x', type: 'date' }],
          },
          'sa',
        ),
      /type: the app needs one of/,
    ],
    [
      'a comment count that is no integer',
      () =>
        decodeSharedPortfolio(
          {
            id: 1,
            sharedArtifacts: [],
            commentCount: 'many',
            owner: person,
            created_at: when,
            updated_at: when,
            grades: [],
            name: 'n',
            subject: null,
            topic: null,
            plcName: null,
            plcGoals: null,
            structure: [],
          },
          'sp',
        ),
      /commentCount/,
    ],
    [
      'a login without its lists',
      () =>
        decodeLoginBundle({
          jwt: 'x',
          user: {
            id: 1,
            username: 'a',
            email: 'b',
            confirmed: true,
            blocked: false,
            role: { id: 1, name: 'x', description: 'y' },
            created_at: when,
            updated_at: when,
          },
        }),
      /user\.portfolios: the app needs a List/,
    ],
  ])('refuse %s', (_, decode, message) => {
    expect(decode).toThrow(DartTypeError);
    expect(decode).toThrow(message);
  });
});
