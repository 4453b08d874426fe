import { describe, it } from 'vitest';
import { loginMachine } from '../../src/machines/login/loginMachine.ts';
import { trackMachine } from './support/coverage.ts';
import { loginModel, checkLoginPath } from './support/loginPaths.tsx';
import { reportCoverageAfterAll } from './support/report.ts';

const coverage = trackMachine(loginMachine);
reportCoverageAfterAll(coverage);

describe('login model', () => {
  for (const path of loginModel().getShortestPaths()) {
    it(`${path.description}`, async () => {
      await checkLoginPath(path);
    });
  }
});
