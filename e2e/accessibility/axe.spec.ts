import { beforeAll, describe, expect, it } from 'vitest';
import { api, DEMO, tokenFor } from '../fixtures.ts';
import { type Demo, findDemo, settle, auditor, signedIn, artifactsTable, setupAudits } from './support.ts';

const browser = setupAudits();

describe('axe-core: WCAG 2.1 AA on every route, for every role', () => {
  let demo: Demo;
  beforeAll(async () => {
    demo = await findDemo();
  });

  it('anonymous: public pages, login, forgot, reset, viewers', async () => {
    const page = await browser.newPage('/');
    await page.waitForURL('**/home');
    const a = auditor(() => page);
    await a.scan('/ → /home');
    for (const pathname of ['/about', '/privacy', '/login', '/forgot-password', '/reset-password/not-a-real-code'])
      await a.visit(pathname);

    await page.goto('/login');
    await page.getByLabel('Email').fill(DEMO.teacher2.email);
    await page.getByLabel('Password', { exact: true }).fill('not the password');
    await page.getByRole('button', { name: 'LOGIN' }).click();
    await page.getByRole('alert').filter({ hasText: 'Incorrect email or password.' }).waitFor();
    await a.scan('/login with a refused password');

    await page.goto('/login');
    await page.getByRole('button', { name: 'LOGIN' }).click();
    await a.scan('/login with empty fields');

    await a.visit('/no-such-page', 'not found');

    // A file's address is its capability: whoever holds it sees the file (the mobile apps open
    // these pages in the phone's browser); an expired or tampered one shows why not. The browser
    // reports the refused file itself; that is expected here, anything else is not.
    const unexpected: string[] = [];
    page.removeAllListeners('console');
    page.on('console', (m) => {
      if (
        m.type() === 'error' &&
        !(
          m.text().startsWith('Failed to load resource: the server responded with a status of 40') &&
          /status of 40[14]/.test(m.text()) &&
          (m.location().url.includes('/uploads/') || m.location().url.includes('/viewer-files/'))
        )
      )
        unexpected.push(m.text());
    });
    const expired = (address: string) => address.replace(/^[^/]+\//, 'x.y.zzzzzzzzzzzzzzzzzzzzzz/');
    await page.goto(`/images/uploads/${demo.imageFile}.html`);
    await expect
      .poll(() => page.locator('[data-file] img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBeGreaterThan(0);
    await a.scan('/images/uploads/{capability}/{file}.html (visitor)');
    await page.goto(`/images/uploads/${expired(demo.imageFile)}.html`);
    await page.getByText('This image could not be shown.').waitFor();
    await a.scan('/images/uploads/{capability}/{file}.html (visitor, expired address)');
    await page.goto(`/videos/uploads/${expired(demo.videoFile)}.html`);
    await page.getByText('This video could not be shown.').waitFor();
    await a.scan('/videos/uploads/{capability}/{file}.html (visitor, expired address)');
    expect(unexpected).toEqual([]);
    a.assertClean();
  });

  it('teacher: dashboard, my portfolios, artifacts, shared portfolios, invitation, dialogs', async () => {
    const page = await signedIn(DEMO.teacher.email);
    const a = auditor(() => page);
    await a.scan('teacher /dashboard');

    await page.getByRole('button', { name: DEMO.teacher.username }).click();
    await page.getByRole('menuitem', { name: 'Log Out' }).waitFor();
    await a.scan('teacher user menu open');
    await page.keyboard.press('Escape');

    await a.visit('/my-portfolios', 'teacher /my-portfolios');
    await a.visit(`/my-portfolios/${demo.forces}`, 'teacher /my-portfolios/{id}');
    await a.visit(
      `/my-portfolios/${demo.forces}/artifacts/${demo.ramp}`,
      'teacher /my-portfolios/{id}/artifacts/{completed}',
    );
    await a.visit(
      `/my-portfolios/${demo.forces}/artifacts/${demo.tugOfWar}`,
      'teacher /my-portfolios/{id}/artifacts/{parking lot, video, document}',
    );

    await page.getByRole('button', { name: 'Filter By' }).click();
    await page.getByRole('dialog', { name: 'Filter By' }).waitFor();
    await a.scan('teacher Filter By dialog');
    await page.getByRole('dialog', { name: 'Filter By' }).getByRole('checkbox', { name: 'Assessment' }).check();
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('button', { name: 'Remove filter Assessment' }).waitFor();
    await a.scan('teacher active filters');
    await page.getByRole('button', { name: 'Remove filter Assessment' }).click();

    await page.getByRole('checkbox', { name: 'Compare', exact: true }).check();
    await page.getByRole('checkbox', { name: 'Compare Ramp races: predicting speed' }).check();
    await page.getByRole('checkbox', { name: 'Compare Balanced forces exit ticket' }).check();
    await page.getByRole('heading', { name: 'Balanced forces exit ticket', exact: true }).waitFor();
    // With both sides read, their differences too (scanned with them).
    await page.getByRole('heading', { name: /^Differences from “Ramp races/ }).waitFor();
    await a.scan('teacher compare mode with two artifacts');
    await page.getByRole('checkbox', { name: 'Compare', exact: true }).uncheck();

    await page.goto(`/my-portfolios/${demo.forces}/artifacts/${demo.exitTicket}`);
    await page.getByRole('button', { name: 'Delete Artifact' }).click();
    await page.getByRole('alertdialog').waitFor();
    await a.scan('teacher Delete Artifact confirmation');
    await page.getByRole('alertdialog').getByRole('button', { name: 'NO' }).click();

    await a.visit(`/my-portfolios/${demo.forces}/edit`, 'teacher /my-portfolios/{id}/edit');
    await a.visit(
      `/my-portfolios/${demo.forces}/artifacts/${demo.ramp}/edit`,
      'teacher /my-portfolios/{id}/artifacts/{id}/edit',
    );
    await a.visit(`/my-portfolios/${demo.forces}/artifacts/${demo.tugOfWar}/edit`, 'teacher parking-lot artifact edit');
    await page.getByRole('button', { name: 'Submit to Portfolio' }).click();
    await page.getByText('There were errors in your form, please review and resubmit').waitFor();
    await a.scan('teacher artifact edit with form errors');
    await a.visit(
      `/my-portfolios/${demo.forces}/artifacts/${demo.ramp}/copy`,
      'teacher /my-portfolios/{id}/artifacts/{id}/copy',
    );

    await page.goto(`/images/uploads/${demo.imageFile}.html`);
    // Opened by its address (as the mobile apps do), the viewer asks the server for the file's name and artifact.
    await expect
      .poll(() => page.locator('[data-file] img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBeGreaterThan(0);
    await page.getByRole('link', { name: /^← Back to Ramp races/ }).waitFor();
    await a.scan('teacher /images/uploads/{file}.html');
    await page.goto(`/videos/uploads/${demo.videoFile}.html`);
    await expect
      .poll(() => page.locator('video').evaluate((video: HTMLVideoElement) => video.readyState))
      .toBeGreaterThan(0);
    await a.scan('teacher /videos/uploads/{file}.html');

    await a.visit('/shared-portfolios', 'teacher /shared-portfolios');
    await a.visit(`/shared-portfolios/${demo.plc}`, 'teacher /shared-portfolios/{id}');
    await a.visit(
      `/shared-portfolios/${demo.plc}/artifacts/${demo.sharedRamp}`,
      'teacher /shared-portfolios/{id}/artifacts/{id}',
    );
    await page.getByRole('button', { name: 'Add reaction' }).click();
    await page.getByRole('dialog', { name: 'ADD REACTION' }).waitFor();
    await a.scan('teacher reaction picker open');
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: 'Filter By' }).click();
    await page.getByRole('dialog', { name: 'Filter By' }).waitFor();
    await a.scan('teacher shared Filter By dialog');
    await page.getByRole('button', { name: 'Done' }).click();

    await page.getByRole('button', { name: /^Leave/ }).click();
    await page.getByRole('alertdialog').waitFor();
    await a.scan('teacher Leave confirmation');
    await page.getByRole('alertdialog').getByRole('button', { name: 'NO' }).click();

    await a.visit(
      `/shared-portfolios/${demo.plc}/artifacts/${demo.sharedFoodWeb}`,
      'teacher shared artifact with own comment',
    );
    await page.getByRole('button', { name: 'Edit comment' }).click();
    await a.scan('teacher editing a comment');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: 'Delete comment' }).click();
    await page.getByRole('alertdialog').waitFor();
    await a.scan('teacher Delete Comment confirmation');
    await page.getByRole('alertdialog').getByRole('button', { name: 'NO' }).click();

    await a.visit(
      `/shared-portfolios/${demo.plc}/artifacts/${demo.sharedRamp}/edit`,
      'teacher /shared-portfolios/{id}/artifacts/{id}/edit',
    );
    await a.visit(
      `/shared-portfolios/${demo.plc}/artifacts/${demo.sharedRamp}/copy`,
      'teacher /shared-portfolios/{id}/artifacts/{id}/copy',
    );
    await a.visit(`/invitation/${demo.invitation}`, 'teacher /invitation/{id}');
    await page.getByRole('button', { name: 'Delete Invitation' }).click();
    await page.getByRole('alertdialog').waitFor();
    await a.scan('teacher Delete Invitation confirmation');
    await page.getByRole('alertdialog').getByRole('button', { name: 'NO' }).click();

    // The Edit Conflict dialog: someone else changes the title while the form is open, and so does the teacher.
    await page.goto(`/shared-portfolios/${demo.plc}/artifacts/${demo.sharedRamp}/edit`);
    await settle(page);
    const lee = await tokenFor(DEMO.lead.email);
    const current = await api<{ responses: Record<string, unknown>; updated_at: string }>(
      'GET',
      `/shared-artifacts/${demo.sharedRamp}`,
      undefined,
      lee,
    );
    const title = String(current.body.responses['artifactName']);
    // The save moves the version strictly forward (`next_stamp`), however soon it follows.
    const saved = await api<{ updated_at: string }>(
      'PUT',
      `/shared-artifacts/${demo.sharedRamp}`,
      {
        responses: { ...current.body.responses, artifactName: `${title} (lead)` },
        updated_at: current.body.updated_at,
      },
      lee,
    );
    expect(saved.status).toBe(200);
    expect(saved.body.updated_at).not.toBe(current.body.updated_at);
    await page.getByRole('textbox', { name: 'Artifact Name', exact: true }).fill(`${title} (teacher)`);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const conflict = page.getByRole('alertdialog', { name: 'Edit Conflict' });
    await conflict.waitFor();
    await a.scan('teacher Edit Conflict dialog');
    await conflict.getByRole('radio', { name: 'Edit' }).click();
    await a.scan('teacher Edit Conflict dialog, an answer written anew');
    await conflict.getByRole('button', { name: 'Cancel' }).click();
    // The demo artifact gets its title back for the journeys after this one.
    const restored = await api(
      'PUT',
      `/shared-artifacts/${demo.sharedRamp}`,
      { responses: current.body.responses, updated_at: saved.body.updated_at },
      lee,
    );
    expect(restored.status).toBe(200);
    a.assertClean();
  });

  it('PLC lead: dashboard, own portfolio, shared portfolio form and participants', async () => {
    const page = await signedIn(DEMO.lead.email);
    const a = auditor(() => page);
    await a.scan('lead /dashboard');
    await a.visit(`/my-portfolios/${demo.leeNotebook}`, 'lead /my-portfolios/{id}');
    await a.visit(
      `/shared-portfolios/${demo.plc}/artifacts/${demo.sharedFoodWeb}`,
      'lead /shared-portfolios/{id}/artifacts/{id}',
    );
    await a.visit('/shared-portfolios/new', 'lead /shared-portfolios/new');
    await page.getByRole('button', { name: 'SAVE' }).click();
    await page.getByText('A name is required.').first().waitFor();
    await a.scan('lead new shared portfolio with form errors');
    await a.visit(`/shared-portfolios/${demo.plc}/edit`, 'lead /shared-portfolios/{id}/edit');
    await page.getByRole('button', { name: 'Edit Participants' }).click();
    await page.getByRole('dialog', { name: 'Edit Participants' }).getByText('Theo Teacher').waitFor();
    await a.scan('lead Edit Participants dialog');
    await page.getByRole('button', { name: 'Remove Theo Teacher' }).click();
    await page.getByRole('alertdialog').waitFor();
    await a.scan('lead remove participant confirmation');
    await page.getByRole('alertdialog').getByRole('button', { name: 'NO' }).click();
    await page.keyboard.press('Escape');
    await a.visit(`/shared-portfolios/${demo.engineering}/edit`, 'lead shared portfolio with a pending invitation');
    await page.getByRole('button', { name: 'Edit Participants' }).click();
    await page.getByRole('dialog', { name: 'Edit Participants' }).getByText('(Pending)').waitFor();
    await a.scan('lead Edit Participants with a pending participant');
    a.assertClean();
  });

  it('researcher: dashboard, teacher portfolios, shared portfolios, research export, users', async () => {
    const page = await signedIn(DEMO.researcher.email);
    const a = auditor(() => page);
    await a.scan('researcher /dashboard');
    await a.visit('/teacher-portfolios', 'researcher /teacher-portfolios');
    await page.getByLabel('Select Teacher').selectOption({ label: 'Teacher, Tess' });
    await a.scan('researcher teacher selected');
    await page.getByLabel('Select Portfolio').selectOption({ label: 'Forces and Motion' });
    await artifactsTable(page).getByText('Ramp races: predicting speed').waitFor();
    await a.scan('researcher portfolio selected');
    await artifactsTable(page).getByText('Ramp races: predicting speed').click();
    await page.getByRole('heading', { name: 'Ramp races: predicting speed' }).waitFor();
    await a.scan('researcher artifact selected');
    await page.getByRole('checkbox', { name: 'Compare', exact: true }).check();
    await page.getByRole('checkbox', { name: 'Compare Ramp races: predicting speed' }).check();
    await page.getByRole('checkbox', { name: 'Compare Balanced forces exit ticket' }).check();
    await page.getByRole('heading', { name: 'Balanced forces exit ticket', exact: true }).waitFor();
    // With both sides read, their differences too (scanned with them).
    await page.getByRole('heading', { name: /^Differences from “Ramp races/ }).waitFor();
    await a.scan('researcher compare mode');
    await page.getByRole('checkbox', { name: 'Compare', exact: true }).uncheck();
    await page.getByRole('button', { name: 'Filter By' }).click();
    await page.getByRole('dialog', { name: 'Filter By' }).waitFor();
    await a.scan('researcher Filter By dialog');
    await page.getByRole('button', { name: 'Done' }).click();

    await a.visit('/shared-portfolios', 'researcher /shared-portfolios');
    await a.visit(
      `/shared-portfolios/${demo.plc}/artifacts/${demo.sharedRamp}`,
      'researcher /shared-portfolios/{id}/artifacts/{id}',
    );
    await a.visit('/shared-portfolios/new', 'researcher /shared-portfolios/new');
    await a.visit(`/shared-portfolios/${demo.plc}/edit`, 'researcher /shared-portfolios/{id}/edit');
    await a.visit(
      `/shared-portfolios/${demo.plc}/artifacts/${demo.sharedRamp}/edit`,
      'researcher /shared-portfolios/{id}/artifacts/{id}/edit',
    );

    await page.goto('/research-export');
    await page.getByRole('form', { name: 'Research export filters' }).waitFor();
    await a.scan('researcher /research-export');
    await page.getByRole('radio', { name: /^Include identities/ }).check();
    await page.getByRole('button', { name: 'Download package' }).click();
    await page.getByText('Confirm that the people in this export consented to being identified.').waitFor();
    await a.scan('researcher /research-export, consent not confirmed');

    await a.visit('/users', 'researcher /users');
    await page.getByRole('button', { name: 'Create New User' }).click();
    await page.getByRole('dialog', { name: 'Create New User' }).waitFor();
    await a.scan('researcher Create New User dialog');
    await page
      .getByRole('dialog')
      .getByRole('button', { name: /create/i })
      .click();
    await page
      .getByText(/Field .* is required\./)
      .first()
      .waitFor();
    await a.scan('researcher Create New User with errors');
    a.assertClean();
  });
});
