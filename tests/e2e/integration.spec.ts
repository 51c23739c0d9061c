import { expect, test } from '@playwright/test';
import { AppFrame } from './pages/app-frame';
import { LoginPage } from './pages/login-page';
import { signUpNewClinician } from './support/accounts';

const EHR = 'http://ehr.clinic.test';

test('a configured record system opens the app and registers a consultation by window message', async ({ page, context, baseURL }) => {
  const { email, password } = await signUpNewClinician(page, 'Dra. Carla Nunes');
  await new AppFrame(page).signOut();
  await new LoginPage(page).login(email, password, { remember: true });
  await new AppFrame(page).expectSignedInAs('Dra. Carla Nunes');

  await context.route(`${EHR}/**`, (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>EHR</title><p>Record system</p>' }));
  const ehr = await context.newPage();
  await ehr.goto(`${EHR}/episode/42`);
  const appOrigin = new URL(baseURL!).origin;
  const [app] = await Promise.all([
    ehr.waitForEvent('popup'),
    ehr.evaluate((url) => void ((window as unknown as { app: Window | null }).app = window.open(url, 'notes')), `${appOrigin}/`),
  ]);
  await new AppFrame(app).expectSignedInAs('Dra. Carla Nunes');

  // A message from an origin that is not configured changes nothing.
  await app.evaluate(() => window.postMessage({ event: 'register_consultation', consultation_type_id: 'dictation' }, '*'));
  await app.waitForTimeout(1000);
  await expect(app).toHaveURL(`${appOrigin}/`);

  const answer = await ehr.evaluate(
    (origin) =>
      new Promise<unknown>((resolve) => {
        window.addEventListener('message', (e) => {
          if (e.origin === origin) resolve(e.data);
        });
        (window as unknown as { app: Window }).app.postMessage(
          { event: 'register_consultation', consultation_type_id: 'dictation', external_id: 'EP-42' },
          origin,
        );
      }),
    appOrigin,
  );
  expect(answer).toMatchObject({ event: 'consultation_registered', external_id: 'EP-42', id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
  const id = (answer as { id: string }).id;
  await expect(app).toHaveURL(`${appOrigin}/dictaphone/consultation/${id}`);
});
