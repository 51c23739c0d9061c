import { expect, type Page } from '@playwright/test';

export class ConsultationPage {
  constructor(readonly page: Page) {}

  async startFromHome(typeName: string) {
    await this.page.getByRole('button', { name: `Start: ${typeName}` }).click();
    await expect(this.page).toHaveURL(/\/(consultation|consultation_v2|dictaphone\/consultation)\/[0-9a-f-]+$/);
    // The screen's own title (level 1), not a card of the same name on home: the consultation screen is mounted, so
    // its leave warning is in place before a test navigates away.
    await expect(this.page.getByRole('heading', { level: 1, name: typeName })).toBeVisible();
  }

  get sessionId(): string {
    return this.page.url().split('/').pop()!;
  }

  async startRecording() {
    await this.page.getByRole('button', { name: /^(Start|Continue) recording$/ }).click();
    await expect(this.page.getByText('Recording', { exact: true }).last()).toBeVisible();
  }

  /** Presses Finish and confirms it; the screen then stops offering to record. */
  async finish() {
    await this.page.getByRole('button', { name: 'Finish consultation' }).click();
    const dialog = this.page.getByRole('alertdialog', { name: 'Finish this consultation?' });
    await dialog.getByRole('button', { name: 'Finish consultation' }).click();
    await expect(dialog).toBeHidden();
    await expect(this.page.getByText('Finished', { exact: true })).toBeVisible({ timeout: 20_000 });
  }

  get transcript() {
    return this.page.getByTestId('transcript');
  }
}
