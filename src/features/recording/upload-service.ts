/**
 * The one uploader of this tab, started at sign-in and when the page loads signed in; kicked when a part is
 * saved and when the browser comes back online.
 */
import { appStore, authAtom } from '../../app-state';
import { createUploader, type Uploader, type UploadEvent } from '../../offline/uploader';
import { httpAudioTransport } from './audio-transport';

const listeners = new Set<(e: UploadEvent) => void>();
let uploader: Uploader | undefined;

export function onUploadEvent(listener: (e: UploadEvent) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function startUploads(): Uploader {
  uploader ??= createUploader({
    transport: httpAudioTransport,
    userId: () => appStore.get(authAtom)?.user?.id,
    onEvent: (e) => listeners.forEach((l) => l(e)),
  });
  uploader.start();
  return uploader;
}

export function kickUploads(): void {
  void startUploads().kick();
}

if (typeof window !== 'undefined') window.addEventListener('online', kickUploads);
