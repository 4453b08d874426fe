import { describe, expect, it } from 'vitest';
import { PASSWORD_POLICY_MESSAGES as M, passwordProblem } from './passwordPolicy.ts';

const ada = { email: 'ada.lovelace@school.example', username: 'Ada Lovelace' };

describe('the password policy', () => {
  it.each([
    ['short', M.tooShort],
    ['        ', M.blank],
    ['password', M.common],
    ['12345678', M.common],
    ['PassWord1', M.common],
    ['iloveyou', M.common],
    ['aaaaaaaaaa', M.common],
    ['abababababab', M.common],
    ['ada.lovelace@school.example', M.personal],
    ['my ada.lovelace secret', M.personal],
    ['adalovelace-2026', M.personal],
    ['ADA LOVELACE rocks', M.personal],
  ])('refuses %j', (password, message) => {
    expect(passwordProblem(password, ada)).toBe(message);
  });

  it.each(['correct horse battery', 'Rampen & Rollen 7', 'spiral-stairs', 'tea kettle in July', 'Ça-marche-2026'])(
    'accepts %j',
    (password) => {
      expect(passwordProblem(password, ada)).toBeNull();
    },
  );
});
