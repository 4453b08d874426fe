import { describe, it } from 'vitest';
import { loginMachine } from '../../src/machines/login/loginMachine.ts';
import { loginModel, checkLoginPath, METHODS, PROVIDER_LOGOUT } from './support/loginPaths.tsx';
import { trackCoverage } from './support/report.ts';

trackCoverage(loginMachine);

describe('login model', () => {
  for (const path of loginModel().getShortestPaths()) {
    it(`${path.description}`, async () => {
      await checkLoginPath(path);
    });
  }
});

describe('login model, after a logout that offered the provider’s sign-out', () => {
  const input = { providerLogout: PROVIDER_LOGOUT };
  // The shortest paths that follow the offer, before and after the ways to sign in are known (the
  // others are the ones above, with the offer shown all along).
  const paths = loginModel(input)
    .getShortestPaths()
    .filter((path) => path.steps.some((step) => step.event.type === 'providerLogout.follow') && path.steps.length <= 3);
  for (const path of paths) {
    it(`${path.description}`, async () => {
      await checkLoginPath(path, input);
    });
  }
});

describe('login model, on a page that came with the ways to sign in', () => {
  const input = { methods: METHODS };
  // Known from the start: the shortest paths of up to two events (a school account's button at once,
  // the password form), each without a request for the ways to sign in.
  const paths = loginModel(input)
    .getShortestPaths()
    .filter((path) => path.steps.length <= 3);
  for (const path of paths) {
    it(`${path.description}`, async () => {
      await checkLoginPath(path, input);
    });
  }
});
