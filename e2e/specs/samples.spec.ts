import { captureScreens, expect, expectAccessible, screenshot, test } from '../fixtures';
import { PlayerBar } from '../pages/player-bar';
import { SamplesPage } from '../pages/samples-page';

/** Prices shown on the cards, as numbers. */
async function cardPrices(samples: SamplesPage): Promise<number[]> {
  const texts = await samples.cards.getByTestId('sample-price').allTextContents();
  return texts.map((t) => Number(t.replace(/[^\d.]/g, '')));
}

test('samples: filters, page 2, audition one then another in the player bar, empty state', async ({
  app,
}) => {
  const samples = new SamplesPage(app);
  const player = new PlayerBar(app);
  await samples.goto();
  await samples.language.locator('option[value="eng-us"]').waitFor({ state: 'attached' });
  await samples.language.selectOption('eng-us');
  await samples.searchWith({ currency: 'EUR', minimumPrice: 1, maximumPrice: 1000 });
  await expect(samples.cards.first()).toBeVisible();
  await expect(samples.pageLabel).toHaveText(/Page 1 of [2-9]/);
  const firstPage = await samples.cards.locator('.name').allTextContents();
  await expect(samples.cards.first().getByTestId('sample-price')).toContainText('€');

  // Page 2: other samples, same filters.
  await samples.next.click();
  await expect(samples.pageLabel).toHaveText(/Page 2 of/);
  await expect(samples.cards.first()).toBeVisible();
  const secondPage = await samples.cards.locator('.name').allTextContents();
  expect(secondPage).not.toEqual(firstPage);
  // Languages by name, prices labelled and with their currency (issue 26 item 6).
  for (const card of await samples.cards.all()) {
    await expect(card).toContainText('English (United States)');
    await expect(card).not.toContainText('eng-us');
  }
  const card = samples.cards.first();
  await expect(card).toContainText('Booking price');
  await expect(card.getByTestId('sample-price')).toContainText('EUR');
  await expect(card).not.toContainText('per word');
  await expect(app.getByTestId('samples-price-key')).toContainText('does not say what it covers');
  await captureScreens(app, 'samples-prices');
  await screenshot(app, 'samples');
  await expectAccessible(app, 'samples');

  // Audition one, then another: the shared bar switches to the second and plays it.
  const firstName = (await samples.cardName(0).textContent())!.trim();
  await samples.audition(0);
  await expect(player.root).toBeVisible();
  await player.expectPlaying(firstName);
  const secondName = (await samples.cardName(1).textContent())!.trim();
  await samples.audition(1);
  await player.expectPlaying(secondName);
  await expect(samples.cards.nth(1).getByTestId('sample-play')).toHaveAttribute('aria-pressed', 'true');
  await expect(samples.cards.nth(0).getByTestId('sample-play')).toHaveAttribute('aria-pressed', 'false');
  // The playing sample's button shows ⏸ (no spinner once it plays) and pauses it; the others show ▶.
  await expect(samples.cards.nth(1).getByTestId('sample-play')).toHaveAttribute('aria-busy', 'false');
  await expect(samples.cards.nth(1).getByTestId('sample-play')).toHaveAttribute('data-icon', 'pause');
  await expect(samples.cards.nth(1).getByTestId('sample-play')).toHaveAccessibleName(/^Pause sample by /);
  await expect(samples.cards.nth(0).getByTestId('sample-play')).toHaveAttribute('data-icon', 'play');
  await screenshot(app, 'samples-player-bar');
  await samples.audition(1);
  await expect(player.waveform).not.toHaveAttribute('data-state', 'playing');
  await expect(samples.cards.nth(1).getByTestId('sample-play')).toHaveAttribute('data-icon', 'play');
  await player.stop();

  // Gender and age plus a price range narrow the results; every card respects them.
  await samples.genderAndAge.selectOption('youngAdultFemale');
  await samples.searchWith({ minimumPrice: 10, maximumPrice: 400 });
  await expect(samples.pageLabel).toHaveText(/Page 1 of/);
  await expect(samples.cards.first()).toBeVisible();
  for (const price of await cardPrices(samples)) {
    expect(price).toBeGreaterThanOrEqual(10);
    expect(price).toBeLessThanOrEqual(400);
  }

  // An impossible price range: the service's SEARCH_NOT_RESULTS is an empty state, not an error.
  await samples.searchWith({ minimumPrice: 99_000, maximumPrice: 99_001 });
  await expect(samples.empty).toBeVisible();
  await expect(samples.cards).toHaveCount(0);
  await expect(samples.error).toHaveCount(0);
  await screenshot(app, 'samples-empty');
});

test('samples: a refusal about one filter stands under that filter, marked invalid', async ({ app }) => {
  const samples = new SamplesPage(app);
  await samples.goto();

  // The form's own check: a minimum above the maximum is said under the price, and nothing is searched.
  await samples.searchWith({ minimumPrice: 50, maximumPrice: 10 });
  await expect(samples.root.locator('#s-price-error')).toHaveText('The minimum is above the maximum.');
  await expect(samples.minPrice).toHaveAttribute('aria-invalid', 'true');
  await expect(samples.maxPrice).toHaveAttribute('aria-invalid', 'true');

  // The service's: audio ads have no sample search (SEARCH_NOT_AVAILABLE), said under the category.
  await samples.searchWith({ categoryId: 'audio_ads', minimumPrice: 1, maximumPrice: 1000 });
  await expect(samples.categoryError.getByRole('alert')).toHaveAttribute(
    'data-error-type',
    'SEARCH_NOT_AVAILABLE',
  );
  await expect(samples.category).toHaveAttribute('aria-invalid', 'true');
  await expect(samples.minPrice).toHaveAttribute('aria-invalid', 'false');
  await expect(samples.error).toHaveCount(0);

  // Back to voice over: the error goes with the search that answers.
  await samples.searchWith({ categoryId: 'voice_over' });
  await expect(samples.cards.first()).toBeVisible();
  await expect(samples.categoryError.getByRole('alert')).toHaveCount(0);
  await expect(samples.category).toHaveAttribute('aria-invalid', 'false');
});
