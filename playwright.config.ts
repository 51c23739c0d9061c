import path from 'node:path';
import { defineConfig } from '@playwright/test';

/**
 * fakeAi: where a browser test runs an OpenAI-format engine, and where the main server looks for one.
 * Below Linux's ephemeral range (32768-60999): a port there can be taken at any moment by some process's
 * outgoing connection or listen(0), and a server of the tests then fails to start (EADDRINUSE).
 */
export const E2E_PORTS = { main: 21731, shortSession: 21732, fakeAi: 21733 } as const;

/** Debian's Chromium, never a downloaded browser; the flags keep it quiet on a machine without internet. */
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  // The microphone is real speech from a WAV file (tests/e2e/global-setup.ts), granted without a prompt.
  '--use-fake-ui-for-media-stream',
  '--use-fake-device-for-media-stream',
  `--use-file-for-fake-audio-capture=${path.resolve('.tmp/e2e-media/speech.wav')}`,
  '--autoplay-policy=no-user-gesture-required',
];

export default defineConfig({
  testDir: 'tests/e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: true,
  reporter: [['list']],
  outputDir: '.tmp/playwright',
  globalSetup: './tests/e2e/global-setup.ts',
  use: {
    baseURL: `http://localhost:${E2E_PORTS.main}`,
    browserName: 'chromium',
    headless: true,
    launchOptions: { executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS },
    locale: 'en-GB',
    trace: 'retain-on-failure',
    permissions: ['microphone'],
  },
  webServer: [
    {
      // The fake record system of the integration test may open this app and send it register_consultation.
      command: `node scripts/e2e-server.mjs main ${E2E_PORTS.main} INTEGRATION_ORIGINS=http://ehr.clinic.test FHIR_ALLOW_PRIVATE_NETWORKS=true AI_DISCOVERY_URLS=http://127.0.0.1:${E2E_PORTS.fakeAi}`,
      url: `http://127.0.0.1:${E2E_PORTS.main}/healthz`,
      timeout: 120_000,
      reuseExistingServer: false,
      stdout: 'pipe',
    },
    {
      // Tokens live 8 seconds here, so the expiry dialog can be seen without waiting hours.
      command: `node scripts/e2e-server.mjs short-session ${E2E_PORTS.shortSession} TOKEN_TTL_SECONDS=8`,
      url: `http://127.0.0.1:${E2E_PORTS.shortSession}/healthz`,
      timeout: 120_000,
      reuseExistingServer: false,
      stdout: 'pipe',
    },
  ],
});
