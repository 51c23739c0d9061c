import { expect, type Page } from '@playwright/test';

export class SignupPage {
  constructor(readonly page: Page) {}

  async open(link: string) {
    await this.page.goto(link);
    await expect(this.page.getByRole('heading', { name: 'Create your account' })).toBeVisible();
  }

  async fill(values: { name: string; email: string; password: string; confirmation?: string }) {
    await this.page.getByLabel('Full name').fill(values.name);
    await this.page.getByLabel('E-mail').fill(values.email);
    await this.page.getByLabel('Password', { exact: true }).fill(values.password);
    await this.page.getByLabel('Confirm password').fill(values.confirmation ?? values.password);
  }

  async submit() {
    await this.page.getByRole('button', { name: 'Create account' }).click();
  }
}
