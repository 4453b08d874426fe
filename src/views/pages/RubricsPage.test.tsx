import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { makeUser, renderSignedIn, resetApp } from '../../test/renderApp.tsx';
import { ONLY_RESEARCHERS_RUBRICS_MESSAGE } from './RubricsPage.tsx';

afterEach(resetApp);

describe('the Rubrics page', () => {
  it('shows a researcher the installation’s rubrics panel, loading on demand', async () => {
    await renderSignedIn('/rubrics', makeUser('researcher'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Rubrics' })).toBeTruthy();
    const panel = screen.getByRole('region', { name: 'Installation-wide rubrics' });
    expect(await within(panel).findByText('Loading the rubrics')).toBeTruthy();
    expect(screen.queryByText(ONLY_RESEARCHERS_RUBRICS_MESSAGE)).toBeNull();
  });

  it.each(['teacher', 'plcLead'] as const)('tells a %s whose page it is, and offers nothing', async (role) => {
    await renderSignedIn('/rubrics', makeUser(role));
    expect(await screen.findByText(ONLY_RESEARCHERS_RUBRICS_MESSAGE)).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Installation-wide rubrics' })).toBeNull();
    expect(within(screen.getByRole('main')).queryByRole('button')).toBeNull();
  });
});
