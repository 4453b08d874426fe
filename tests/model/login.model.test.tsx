import { describe, it } from 'vitest';
import { loginMachine } from '../../src/machines/login/loginMachine.ts';
import { loginModel, checkLoginPath } from './support/loginPaths.tsx';
import { trackCoverage } from './support/report.ts';

trackCoverage(loginMachine);

describe('login model', () => {
  for (const path of loginModel().getShortestPaths()) {
    it(`${path.description}`, async () => {
      await checkLoginPath(path);
    });
  }
});
