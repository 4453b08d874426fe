import { describe, expect, it } from 'vitest';
import { AMBIGUOUS_MENTION, Deidentifier, pseudonym, UNKNOWN_EMAIL } from './deidentify.ts';

const people = [
  { id: 1, username: 'Ana Lopez', email: 'ana.lopez@school.example' },
  { id: 2, username: 'Ana Silva', email: 'asilva@school.example' },
  { id: 3, username: 'Bruno Diaz', email: 'bruno@school.example' },
  { id: 4, username: 'kim', email: 'kim.k@school.example' },
];
const d = new Deidentifier(people, (id) => `P${id}`);

describe('pseudonym', () => {
  it('is stable for one secret, differs for another id or secret, and never shows the id', () => {
    const secret = Buffer.alloc(32, 7);
    expect(pseudonym(secret, 42)).toBe(pseudonym(Buffer.alloc(32, 7), 42));
    expect(pseudonym(secret, 42)).toMatch(/^P-[0-9a-f]{20}$/);
    expect(pseudonym(secret, 43)).not.toBe(pseudonym(secret, 42));
    expect(pseudonym(Buffer.alloc(32, 8), 42)).not.toBe(pseudonym(secret, 42));
  });
});

describe('Deidentifier', () => {
  it.each([
    ['Ask Ana Lopez about it', 'Ask P1 about it'],
    ['ask ANA-LOPEZ, then bruno diaz', 'ask P1, then P3'],
    ['Write to ana.lopez@school.example or bruno@school.example', 'Write to P1 or P3'],
    ['Mail parent@home.example', `Mail ${UNKNOWN_EMAIL}`],
    ['@analopez @ana.lopez @bruno_diaz @asilva', '@P1 @P1 @P3 @P2'],
    // "Ana" alone fits two people; "@ana" too.
    ['Ana, could you? cc @ana', `${AMBIGUOUS_MENTION}, could you? cc @${AMBIGUOUS_MENTION}`],
    ['Bruno, could you?', 'P3, could you?'],
    // A first name in any case; a one-word user name as a handle or in full.
    ['a bruno of words, kim and @kim', 'a P3 of words, P4 and @P4'],
    // Lower-case first names and user names or addresses written without spaces.
    [
      'ask bruno; AnaLopez and analopez wrote, so did ASILVA and brunodiaz',
      'ask P3; P1 and P1 wrote, so did P2 and P3',
    ],
    ['Nothing about anyone.', 'Nothing about anyone.'],
    ['', ''],
  ])('%s → %s', (text, expected) => {
    expect(d.text(text)).toBe(expected);
  });

  it('replaces the longest name that fits', () => {
    const longer = new Deidentifier(
      [...people, { id: 5, username: 'Ana Lopez Garcia', email: 'alg@school.example' }],
      (id) => `P${id}`,
    );
    expect(longer.text('Ana Lopez Garcia and Ana Lopez')).toBe('P5 and P1');
  });
});
