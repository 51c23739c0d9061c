import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { labelledStretches } from '../../contract/speakers';
import { ConsultationPage } from './pages/consultation-page';
import { signUpNewClinician } from './support/accounts';
import { fetchSession } from './support/api';
import { OwnServer } from './support/own-server';

/**
 * Who said what is decided by the channels, whatever the model: this test pins the clinical language model, whose
 * vocabulary holds its two sentences, so that each side's words are recognisable enough to be checked. (The
 * product's default is Debian's general model: bench/speech-dialogues.ts measured the clinical one inventing
 * medicines.)
 */
const server = new OwnServer('teleconsultation', 21737, ['LOCAL_SPEECH_MODEL=clinical']);
test.use({ baseURL: server.url, permissions: ['microphone'] });
test.afterAll(() => server.stop());

/**
 * A call's two sides taking turns, as one stereo file: the clinician's question on the left, then the patient's
 * answer on the right, with a pause after each. Headless Chromium shares no real tab, so the page's getUserMedia
 * and getDisplayMedia play the left and the right channel of one looping Web Audio source: the two sides stay in
 * step whenever the recorder asks for each, and nobody speaks over the other (that is a different question from
 * whether each side's words get its label).
 */
const CONVERSATION_WAV = path.resolve('.tmp/e2e-media/conversation.wav');
function conversationAudio(): Buffer {
  mkdirSync(path.dirname(CONVERSATION_WAV), { recursive: true });
  const voice = (name: string, args: string[], text: string) => {
    const file = `${CONVERSATION_WAV}.${name}.wav`;
    execFileSync('espeak-ng', [...args, '-w', `${file}.raw.wav`, text]);
    execFileSync('ffmpeg', ['-nostdin', '-loglevel', 'error', '-y', '-i', `${file}.raw.wav`, '-ar', '16000', '-ac', '1', file]);
    return { file, seconds: (readFileSync(file).length - 44) / 2 / 16_000 };
  };
  const clinician = voice('clinician', ['-v', 'en-us', '-s', '140'], 'do you have any allergies to medicines');
  const patient = voice('patient', ['-v', 'en-us+m3', '-s', '150', '-p', '35'], 'i have had a sore throat since yesterday');
  const answerAt = Math.round((clinician.seconds + 1) * 1000);
  const total = clinician.seconds + 1 + patient.seconds + 1.5;
  const filter = [
    `[0:a]apad=whole_dur=${total}[left]`,
    `[1:a]adelay=${answerAt},apad=whole_dur=${total}[right]`,
    '[left][right]join=inputs=2:channel_layout=stereo[out]',
  ].join(';');
  execFileSync('ffmpeg', [
    '-nostdin',
    '-loglevel',
    'error',
    '-y',
    '-i',
    clinician.file,
    '-i',
    patient.file,
    '-filter_complex',
    filter,
    '-map',
    '[out]',
    '-ar',
    '16000',
    '-c:a',
    'pcm_s16le',
    CONVERSATION_WAV,
  ]);
  return readFileSync(CONVERSATION_WAV);
}

test('teleconsultation: the microphone and the call recorded as two channels, the transcript says who spoke', async ({ page, request }) => {
  test.setTimeout(180_000);
  await server.start({ fresh: true });
  const wav = conversationAudio();
  await page.route('**/__e2e/conversation.wav', (route) => route.fulfill({ body: wav, contentType: 'audio/wav' }));
  await page.addInitScript(() => {
    let sides: Promise<MediaStreamAudioDestinationNode[]> | undefined;
    const conversation = () =>
      (sides ??= (async () => {
        const context = new AudioContext();
        const buffer = await context.decodeAudioData(await (await fetch('/__e2e/conversation.wav')).arrayBuffer());
        const source = context.createBufferSource();
        source.buffer = buffer;
        source.loop = true;
        const split = context.createChannelSplitter(2);
        source.connect(split);
        const left = context.createMediaStreamDestination();
        const right = context.createMediaStreamDestination();
        split.connect(left, 0);
        split.connect(right, 1);
        source.start();
        return [left, right];
      })());
    navigator.mediaDevices.getUserMedia = async () => new MediaStream((await conversation())[0]!.stream.getAudioTracks());
    navigator.mediaDevices.getDisplayMedia = async () => {
      const video = document.createElement('canvas').captureStream(1).getVideoTracks();
      return new MediaStream([...(await conversation())[1]!.stream.getAudioTracks(), ...video]);
    };
  });

  await signUpNewClinician(page, 'Dr. Tiago Neves', server);
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
  // Both sides are there, each sentence under its speaker's label and never under the other's.
  expect(said('clinician'), transcript).toMatch(/allerg|medicine/);
  expect(said('patient'), transcript).not.toMatch(/allerg|medicine/);
  expect(said('patient'), transcript).toMatch(/sore throat|since yesterday/);
  expect(said('clinician'), transcript).not.toMatch(/sore throat|since yesterday/);
  await expect(consultation.transcript).toContainText('Patient:');
  await expect(consultation.transcript).toContainText('Clinician:');
});
