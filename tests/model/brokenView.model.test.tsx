/**
 * The paths catch a broken view. The login page is rendered with a deliberately broken field (a
 * mutant that never shows its error message); every generated path through a state with a field
 * error must then fail, and the paths that never show one must still pass.
 */
import { describe, expect, it, vi } from 'vitest';
import type * as FieldModule from '../../src/views/components/Field.tsx';
import { loginModel, checkLoginPath } from './support/loginPaths.tsx';

vi.mock('../../src/views/components/Field.tsx', async (importOriginal) => {
  const actual = await importOriginal<typeof FieldModule>();
  /** The mutant: the field takes its error and drops it. */
  function TextField({ error: _dropped, ...props }: Parameters<typeof actual.TextField>[0]) {
    return <actual.TextField {...props} />;
  }
  return { ...actual, TextField };
});

type Step = { state: { context: { fieldErrors: Record<string, unknown> } } };
const showsFieldError = (steps: readonly Step[]) =>
  steps.some((step) => Object.values(step.state.context.fieldErrors).some(Boolean));

describe('a deliberately broken view', () => {
  const paths = loginModel().getShortestPaths();
  const broken = paths.filter((path) => showsFieldError(path.steps as unknown as Step[]));
  const untouched = paths.filter((path) => !showsFieldError(path.steps as unknown as Step[]));

  it('leaves paths of both kinds to check', () => {
    expect(broken.length).toBeGreaterThan(0);
    expect(untouched.length).toBeGreaterThan(0);
  });

  for (const path of broken) {
    it(`fails the path ${path.description}`, async () => {
      await expect(checkLoginPath(path)).rejects.toThrow(/required/);
    });
  }

  it('still passes a path that never shows a field error', async () => {
    await checkLoginPath(untouched[0]!);
  });
});
