import { captureScreens, expect, test } from '../fixtures';
import { NewProjectPage } from '../pages/new-project-page';
import { ProjectPage } from '../pages/project-page';
import { SamplesPage } from '../pages/samples-page';
import { uniqueTitle, type ProjectInfo } from '../support/setup';

test('order with this voice: a sample opens a booking with its language and voice, the pro named in the remarks', async ({
  app,
  sandbox,
}) => {
  // Eight axe runs (captureScreens) on a loaded machine.
  test.setTimeout(240_000);
  const samples = new SamplesPage(app);
  const form = new NewProjectPage(app);
  const project = new ProjectPage(app);

  await samples.goto();
  await expect(samples.cards.first()).toBeVisible();
  const card = samples.cards.first();
  const pro = (await samples.cardName(0).textContent())!.trim();
  const language = (await card.getAttribute('data-language'))!;
  const voice = (await card.getAttribute('data-gender-and-age'))!;
  await expect(card.getByTestId('sample-order')).toHaveText('Order with this voice');
  await card.getByTestId('sample-order').click();

  // A booking, prefilled, and the screen says how the pro gets assigned: the create body has no field for a pro.
  await form.root.waitFor();
  const notice = app.getByTestId('np-from-sample');
  await expect(notice).toContainText(pro);
  await expect(notice).toContainText('The service assigns the pro from the request');
  // The sample's booking price is named, with its currency, beside the quote that prices this order (issue 26).
  await expect(notice).toContainText(/booking price of \S+ [A-Z]{3} \(for the length searched\)/);
  await expect(notice).toContainText('The order costs what the service quotes beside the form');
  await expect(form.fulfillment).toHaveValue('booking');
  await expect(form.fulfillment.locator('option:checked')).toHaveText('Booking: a pro you name');
  await expect(form.fulfillment.locator('option', { hasText: 'a pro you pick' })).toHaveCount(0);
  await expect(app.locator('#np-fulfillment-hint')).toContainText(
    'the service assigns them from that request',
  );
  await expect(form.remarks).toHaveValue(new RegExp(pro));
  await expect(app.locator('[data-testid="np-vo-language"]:not([disabled])')).toHaveValue(language);
  await expect(app.locator('[data-testid="np-vo-gender"]:not([disabled])')).toHaveValue(voice);
  await captureScreens(app, 'order-with-voice');

  // Sent as a booking with the request in the remarks.
  const title = uniqueTitle('E2E order with voice');
  await form.title.fill(title);
  await form.scriptPart(0).fill('Fresh bread every morning, delivered warm.');
  await form.quotedPrice();
  await form.create();
  await expect(project.title).toHaveText(title);
  const id = new URL(app.url()).hash.split('/').pop()!;
  const created = (await sandbox.api('GET', `/projects/${id}`)) as ProjectInfo & {
    fulfillmentType: string;
    remarks: string;
    services: Array<{ genderAndAge?: string; language?: string }>;
  };
  expect(created.fulfillmentType).toBe('booking');
  expect(created.remarks).toContain(pro);
  expect(created.services[0]).toMatchObject({ language, genderAndAge: voice });
});
