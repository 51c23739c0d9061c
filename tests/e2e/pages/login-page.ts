import { expect, type Page } from '@playwright/test';

export class LoginPage {
  constructor(readonly page: Page) {}

  async goto() {
    await this.page.goto('/login');
    await expect(this.heading).toBeVisible();
  }

  get heading() {
    return this.page.getByRole('heading', { name: 'Sign in' });
  }

  async login(email: string, password: string, { remember }: { remember: boolean }) {
    await this.page.getByLabel('E-mail').fill(email);
    await this.page.getByLabel('Password').fill(password);
    const box = this.page.getByLabel('Remember me on this device');
    if ((await box.isChecked()) !== remember) await box.click();
    await this.page.getByRole('button', { name: 'Sign in' }).click();
  }
}
