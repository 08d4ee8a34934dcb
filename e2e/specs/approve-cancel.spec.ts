import { appUrlAt, expect, test } from '../fixtures';
import { ProjectPage } from '../pages/project-page';
import { createVoiceOver, deliveredVoiceOver, uniqueTitle } from '../support/setup';

test('approve all (confirmed), then PROJECT_ALREADY_APPROVED', async ({ app, sandbox, session }) => {
  const { project } = await deliveredVoiceOver(sandbox, { title: uniqueTitle('E2E approve all') });
  const page = new ProjectPage(app);
  await page.goto(project.id);
  await expect(page.deliverables).toHaveCount(2);

  // A second window on the same project, opened before the approval: it still offers the button.
  const stale = await app.context().newPage();
  await stale.goto(appUrlAt(session, new URL(app.url()).hash));
  const stalePage = new ProjectPage(stale);
  await stalePage.title.waitFor();
  await expect(stalePage.approveAll).toBeVisible();

  await page.approveAll.click();
  await expect(app.getByTestId('approve-all-dialog')).toBeVisible();
  await app.getByTestId('approve-all-dialog-confirm').click();
  for (const item of await page.deliverables.all()) {
    await expect(item.getByTestId('status-badge')).toHaveText(/approved/i);
  }
  // Nothing is left to approve here, so the button is gone (shared/review/actions.ts).
  await expect(page.approveAll).toHaveCount(0);

  // Approving again from the stale window: the service's PROJECT_ALREADY_APPROVED shows where the button is.
  await stalePage.approveAllConfirmed();
  await expect(stalePage.approveAllError).toHaveAttribute('data-error-type', 'PROJECT_ALREADY_APPROVED');
  await expect(stalePage.approveAllError).toBeVisible();
  await stale.close();
});

test('cancel with reason and code (confirmed), then PROJECT_ALREADY_CANCELED', async ({
  app,
  sandbox,
  session,
}) => {
  const project = await createVoiceOver(sandbox, { title: uniqueTitle('E2E cancel') });
  const page = new ProjectPage(app);
  await page.goto(project.id);

  // The dialog can be backed out of without harm. No reason is pre-selected (the service's default one costs
  // 30 % while takes are in review): the button waits for the producer's choice.
  await page.cancel.click();
  await expect(page.cancelDialog).toBeVisible();
  await expect(app.getByTestId('cancel-reason-main')).toHaveValue('');
  await expect(app.getByTestId('cancel-dialog-confirm')).toBeDisabled();
  await app.getByTestId('cancel-dialog-cancel').click();
  await expect(page.cancelDialog).toBeHidden();
  await expect(app.getByTestId('project-status')).toHaveText('In work');

  // A second window on the same project, opened before the cancel: it still offers the button.
  const stale = await app.context().newPage();
  await stale.goto(appUrlAt(session, new URL(app.url()).hash));
  const stalePage = new ProjectPage(stale);
  await stalePage.title.waitFor();
  await expect(stalePage.cancel).toBeEnabled();

  await page.cancelWith('no_longer_needed.duplicated', 'Ordered twice by mistake.');
  await expect(page.cancelDialog).toBeHidden();
  await expect(app.getByTestId('project-status')).toHaveText(/canceled/i);
  await expect(page.cancel).toHaveCount(0); // a canceled project offers no action
  const answer = (await sandbox.api('GET', `/projects/${project.id}`)) as {
    status: string;
    reasonCode?: string;
  };
  expect(answer.status).toBe('canceled');

  // Cancelling again from the stale window: the service's PROJECT_ALREADY_CANCELED shows in the dialog.
  await stalePage.cancelWith('no_longer_needed');
  await expect(stalePage.cancelError).toBeVisible();
  await expect(stalePage.cancelError).toHaveAttribute('data-error-type', 'PROJECT_ALREADY_CANCELED');
  await stale.close();
});
