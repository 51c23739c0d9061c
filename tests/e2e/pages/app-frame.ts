import { expect, type Page } from '@playwright/test';

export class AppFrame {
  constructor(readonly page: Page) {}

  async expectSignedInAs(name: string) {
    await expect(this.page.getByText(`Welcome, ${name}.`)).toBeVisible();
  }

  async signOut() {
    await this.page.getByRole('button', { name: 'Account menu' }).click();
    await this.page.getByRole('menuitem', { name: 'Sign out' }).click();
    await expect(this.page).toHaveURL(/\/login$/);
  }
}
