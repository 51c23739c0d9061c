import { afterEach, describe, expect, it, vi } from 'vitest';
import { classifyMediaError, isTeleconsultationSupported, MicrophoneError, openTeleconsultation } from './microphone';

const UA = {
  chrome: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36',
  edge: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36 Edg/156.0.0.0',
  opera: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/150.0.0.0 Safari/537.36 OPR/120.0.0.0',
  firefox: 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0',
  safari: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Safari/605.1.15',
  chromeAndroid: 'Mozilla/5.0 (Linux; Android 15) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Mobile Safari/537.36',
};

describe('teleconsultation support (Chrome, Opera and Edge only)', () => {
  it.each([
    ['chrome', true],
    ['edge', true],
    ['opera', true],
    ['firefox', false],
    ['safari', false],
    ['chromeAndroid', false],
  ] as const)('%s → %s', (browser, supported) => expect(isTeleconsultationSupported(UA[browser])).toBe(supported));
});

describe('microphone failures (spec §8)', () => {
  it.each([
    ['NotAllowedError', 'access'],
    ['SecurityError', 'access'],
    ['NotFoundError', 'no_device'],
    ['OverconstrainedError', 'no_device'],
    ['NotReadableError', 'start'],
    ['AbortError', 'start'],
  ])('%s → %s', (name, failure) => expect(classifyMediaError({ name })).toBe(failure));
});

describe('teleconsultation failures name the tab, not the microphone', () => {
  const track = () => ({ stop: vi.fn() });
  function stubMedia(display: () => Promise<unknown>) {
    vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(UA.chrome);
    const mic = { getTracks: () => [track()], getAudioTracks: () => [track()] };
    Object.defineProperty(navigator, 'mediaDevices', { configurable: true, value: { getUserMedia: async () => mic, getDisplayMedia: display } });
  }
  afterEach(() => {
    vi.restoreAllMocks();
    Reflect.deleteProperty(navigator, 'mediaDevices');
  });

  it('the picker closed without a tab → tab_cancelled', async () => {
    stubMedia(async () => {
      throw Object.assign(new Error('cancelled'), { name: 'NotAllowedError' });
    });
    await expect(openTeleconsultation()).rejects.toEqual(new MicrophoneError('tab_cancelled'));
  });

  it('a tab shared without its audio → tab_without_audio', async () => {
    stubMedia(async () => ({ getVideoTracks: () => [track()], getAudioTracks: () => [], getTracks: () => [track()] }));
    await expect(openTeleconsultation()).rejects.toEqual(new MicrophoneError('tab_without_audio'));
  });
});
