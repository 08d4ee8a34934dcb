import { expect, type Locator, type Page } from '@playwright/test';

/** Settings (SettingsView.vue): service accounts and preferences. */
export class SettingsPage {
  readonly root: Locator;
  readonly profiles: Locator;
  readonly baseUrl: Locator;
  readonly name: Locator;
  readonly email: Locator;
  readonly password: Locator;
  readonly token: Locator;
  readonly add: Locator;
  readonly addError: Locator;
  readonly libraryDir: Locator;
  readonly librarySave: Locator;
  readonly concurrency: Locator;
  readonly deliveryTarget: Locator;
  readonly notifications: Locator;
  readonly saveError: Locator;
  readonly sandboxBanner: Locator;
  readonly secretsBanner: Locator;
  readonly activeProfile: Locator;

  constructor(readonly page: Page) {
    this.root = page.getByTestId('settings-view');
    this.profiles = page.getByTestId('profile-item');
    this.baseUrl = page.getByTestId('profile-base-url');
    this.name = page.getByTestId('profile-name');
    this.email = page.getByTestId('profile-email');
    this.password = page.getByTestId('profile-password');
    this.token = page.getByTestId('profile-token');
    this.add = page.getByTestId('profile-add');
    this.addError = page.getByTestId('add-profile-error');
    this.libraryDir = page.getByTestId('settings-library-dir');
    this.librarySave = page.getByTestId('settings-library-save');
    this.concurrency = page.getByTestId('settings-concurrency');
    this.deliveryTarget = page.getByTestId('settings-delivery-target');
    this.notifications = page.getByTestId('settings-notifications');
    this.saveError = page.getByTestId('settings-save-error');
    this.sandboxBanner = page.getByTestId('sandbox-banner');
    this.secretsBanner = page.getByTestId('secrets-banner');
    this.activeProfile = page.getByTestId('active-profile');
  }

  async goto(): Promise<void> {
    await this.page.getByTestId('nav-settings').click();
    await this.root.waitFor();
  }

  profile(name: string): Locator {
    return this.profiles.filter({ hasText: name });
  }

  async addWithPassword(baseUrl: string, email: string, password: string, name = ''): Promise<void> {
    await this.baseUrl.fill(baseUrl);
    if (name) await this.name.fill(name);
    await this.page.getByTestId('profile-method-password').check();
    await this.email.fill(email);
    await this.password.fill(password);
    await this.add.click();
  }

  async addWithToken(baseUrl: string, token: string, name = ''): Promise<void> {
    await this.baseUrl.fill(baseUrl);
    if (name) await this.name.fill(name);
    await this.page.getByTestId('profile-method-token').check();
    await this.token.fill(token);
    await this.add.click();
  }

  async activate(name: string): Promise<void> {
    await this.profile(name).getByTestId('profile-activate').click();
  }

  /** Makes the Sandbox profile active again (specs that add accounts leave it active for the others). */
  async activateSandbox(): Promise<void> {
    await this.profiles
      .filter({ hasText: /sandbox/i })
      .getByTestId('profile-activate')
      .click();
  }

  /** Removes an account after confirming in the dialog. */
  async remove(name: string): Promise<void> {
    await this.profile(name).getByTestId('profile-remove').click();
    await this.page.getByTestId('profile-remove-dialog-confirm').click();
  }

  async theme(value: 'system' | 'light' | 'dark'): Promise<void> {
    // The radio is visually hidden inside its segment label, which takes the click.
    const radio = this.page.getByTestId(`settings-theme-${value}`);
    await this.page.locator('label.segment', { has: radio }).click();
    await expect(radio).toBeChecked();
  }

  /** The theme the page applies: 'light' | 'dark' forced, or null when following the OS. */
  async appliedTheme(): Promise<string | null> {
    return this.page.locator('html').getAttribute('data-theme');
  }
}
