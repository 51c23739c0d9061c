import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { labelledStretches } from '../../contract/speakers';
import { ConsultationPage } from './pages/consultation-page';
import { signUpNewClinician } from './support/accounts';
import { fetchSession } from './support/api';

test.use({ permissions: ['microphone'] });

/**
 * The call's audio: a patient's sentence in another espeak-ng voice, then silence, in a loop. Headless Chromium
 * shares no real tab, so the page's getDisplayMedia plays this file through Web Audio instead; the clinician's
 * microphone is Chromium's fake device playing the clinical sentences, as in every recording test.
 */
const PATIENT_WAV = path.resolve('.tmp/e2e-media/patient.wav');
function patientAudio(): Buffer {
  mkdirSync(path.dirname(PATIENT_WAV), { recursive: true });
  const said = `${PATIENT_WAV}.said.wav`;
  execFileSync('espeak-ng', ['-v', 'en-us+m3', '-s', '150', '-p', '35', '-w', said, 'i have had a sore throat since yesterday']);
  execFileSync('ffmpeg', ['-nostdin', '-loglevel', 'error', '-y', '-i', said, '-af', 'apad=pad_dur=4', '-ar', '16000', '-ac', '1', PATIENT_WAV]);
  return readFileSync(PATIENT_WAV);
}

test('teleconsultation: the microphone and the call recorded as two channels, the transcript says who spoke', async ({ page, request }) => {
  test.setTimeout(150_000);
  const wav = patientAudio();
  await page.route('**/__e2e/patient.wav', (route) => route.fulfill({ body: wav, contentType: 'audio/wav' }));
  await page.addInitScript(() => {
    navigator.mediaDevices.getDisplayMedia = async () => {
      const context = new AudioContext();
      const buffer = await context.decodeAudioData(await (await fetch('/__e2e/patient.wav')).arrayBuffer());
      const source = context.createBufferSource();
      source.buffer = buffer;
      source.loop = true;
      const destination = context.createMediaStreamDestination();
      source.connect(destination);
      source.start();
      const video = document.createElement('canvas').captureStream(1).getVideoTracks();
      return new MediaStream([...destination.stream.getAudioTracks(), ...video]);
    };
  });

  await signUpNewClinician(page, 'Dr. Tiago Neves');
  const consultation = new ConsultationPage(page);
  await consultation.startFromHome('General consultation');
  await page.getByLabel('Audio source').selectOption({ label: "Teleconsultation: my microphone and the call's tab" });
  await consultation.startRecording();
  await page.waitForTimeout(22_000);
  await consultation.finish();
  await expect(page.getByText('Everything recorded has reached the server.')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText('Transcribing…')).toHaveCount(0, { timeout: 60_000 });

  const session = await fetchSession(request, page, consultation.sessionId);
  const transcript = session.transcription;
  const stretches = labelledStretches(transcript);
  const said = (role: 'clinician' | 'patient') =>
    stretches
      .filter((s) => s.role === role)
      .map((s) => transcript.slice(s.start, s.end))
      .join(' ');
  // Both sides are there, each under its label, and the patient's sentence under the patient's.
  expect(said('clinician'), transcript).toMatch(/\w+/);
  expect(said('patient'), transcript).toMatch(/sore throat|since yesterday/);
  expect(said('clinician'), transcript).not.toMatch(/sore throat|since yesterday/);
  await expect(consultation.transcript).toContainText('Patient:');
  await expect(consultation.transcript).toContainText('Clinician:');
});
