import type { Page } from '@playwright/test';
import { E2E_PORTS } from '../../../playwright.config';
import { AppFrame } from '../pages/app-frame';
import { SignupPage } from '../pages/signup-page';
import { createOrganizationWithCli, uniqueEmail } from './admin';

/** A new clinician, signed in on `page` (through the CLI invitation and the signup screen), of the main server unless told. */
export async function signUpNewClinician(
  page: Page,
  name: string,
  server: { name: string; port: number } = { name: 'main', port: E2E_PORTS.main },
): Promise<{ email: string; password: string }> {
  const email = uniqueEmail('clinician');
  const password = 'clinic-secret';
  const link = createOrganizationWithCli(server.name, server.port, `Clinic of ${name}`, email);
  const signup = new SignupPage(page);
  await signup.open(link);
  await signup.fill({ name, email, password });
  await signup.submit();
  await new AppFrame(page).expectSignedInAs(name);
  return { email, password };
}
