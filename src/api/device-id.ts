/**
 * The random id of this browser (localStorage `device_id`, see offline/storage-keys.ts). The server remembers,
 * hashed, the devices an account signed in from, so failed guesses elsewhere never pause the clinician here.
 */
import { STORAGE_KEYS } from '../offline/storage-keys';

const WELL_FORMED = /^[A-Za-z0-9_-]{16,128}$/;

function newDeviceId(): string {
  // getRandomValues, not randomUUID: phones on the clinic network may open the app over plain http.
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** This browser's id, made on first use; undefined when storage is blocked (sign-in then works as from a new device). */
export function deviceId(): string | undefined {
  try {
    const stored = localStorage.getItem(STORAGE_KEYS.deviceId);
    if (stored && WELL_FORMED.test(stored)) return stored;
    const id = newDeviceId();
    localStorage.setItem(STORAGE_KEYS.deviceId, id);
    return id;
  } catch {
    return undefined;
  }
}

/** The header that carries it, for the sign-in and sign-up calls (the app's client adds it to consultation calls). */
export function deviceHeaders(): Record<string, string> {
  const id = deviceId();
  return id ? { 'x-device-id': id } : {};
}
