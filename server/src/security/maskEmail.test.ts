import { describe, expect, it } from 'vitest';
import { EMAIL_MASKS, maskEmail } from './maskEmail.ts';

describe('maskEmail', () => {
  it('shows others the first two characters of the local part', () => {
    expect(maskEmail('ada.lovelace@school.example')).toBe('ad…@school.example');
    expect(maskEmail('a@school.example')).toBe('a…@school.example');
  });

  it("shows one's own address with its first character on the unsubscribe page", () => {
    expect(maskEmail('teacher@example.org', EMAIL_MASKS.own)).toBe('t***@example.org');
  });

  it('gives the mark alone for what is no address', () => {
    expect(maskEmail('nobody')).toBe('…');
    expect(maskEmail('nobody', EMAIL_MASKS.own)).toBe('***');
  });
});
