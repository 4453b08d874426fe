import { describe, expect, it } from 'vitest';
import { PASSWORD_POLICY_MESSAGES, passwordProblem } from './passwordPolicy.ts';

const ada = { email: 'ada.lovelace@school.example', username: 'ada_lovelace' };

describe('issue 21 #5 password strength', () => {
  it('refuses sequences and keyboard runs', () => {
    for (const password of ['abcdefgh', 'zyxwvuts', 'wertyuio', 'mnbvcxz0', 'asdfghjkl;', '98765432']) {
      expect(passwordProblem(password, ada, 'https://portfolios.district.org'), password).toBe(
        PASSWORD_POLICY_MESSAGES.pattern,
      );
    }
  });
  it('refuses the product name, the host name, the demo password and the user’s own names', () => {
    for (const password of [
      'practicefolio',
      'PracticeFolio 2026',
      'district rocks 1',
      'spiral-demo!!',
      'lovelace99 x',
    ]) {
      expect(passwordProblem(password, ada, 'https://portfolios.district.org'), password).toBe(
        PASSWORD_POLICY_MESSAGES.context,
      );
    }
  });
  it('accepts passphrases', () => {
    for (const password of ['tea kettle in July', 'new password 1', 'correct horse battery'])
      expect(passwordProblem(password, ada, 'https://portfolios.district.org'), password).toBeNull();
  });
});
