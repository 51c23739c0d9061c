import { expect, test } from '@playwright/test';
import { E2E_PORTS } from '../../playwright.config';
import { AppFrame } from './pages/app-frame';
import { SignupPage } from './pages/signup-page';
import { createOrganizationWithCli, uniqueEmail } from './support/admin';
import { expectNoAxeViolations } from './support/axe';
import { screenshotBothWidths } from './support/screenshots';

// This server issues tokens that live 8 seconds (playwright.config.ts).
test.use({ baseURL: `http://localhost:${E2E_PORTS.shortSession}` });

test('the expiry dialog appears when the token expires, and confirming goes to login', async ({ browser }) => {
  const context = await browser.newContext({ locale: 'pt-PT' });
  const page = await context.newPage();
  const email = uniqueEmail('short');
  const link = createOrganizationWithCli('short-session', E2E_PORTS.shortSession, 'Clínica Curta', email);
  const signup = new SignupPage(page);
  await page.goto(link);
  await page.getByLabel('Nome completo').fill('Dr. Paulo Reis');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Palavra-passe', { exact: true }).fill('secret-pass');
  await page.getByLabel('Confirmar palavra-passe').fill('secret-pass');
  await page.getByRole('button', { name: 'Criar conta' }).click();
  await expect(page.getByText('Bem-vindo(a), Dr. Paulo Reis.')).toBeVisible();
  expect(signup).toBeTruthy();

  const dialog = page.getByRole('alertdialog', { name: 'A sua sessão expirou' });
  await expect(dialog).toBeVisible({ timeout: 15_000 });
  await expect(dialog).toContainText('Inicie sessão novamente para continuar a utilizar a app.');
  await expectNoAxeViolations(page);
  await screenshotBothWidths(page, 'session-expired');
  await dialog.getByRole('button', { name: 'OK' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('heading', { name: 'Iniciar sessão' })).toBeVisible();
  expect(new AppFrame(page)).toBeTruthy();
  await context.close();
});
