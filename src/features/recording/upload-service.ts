/**
 * The one uploader of this tab, started at sign-in and when the page loads signed in; kicked when a part is
 * saved and when the browser comes back online.
 */
import { appStore, authAtom } from '../../app-state';
import { requestBackgroundSync } from '../../offline/background-sync';
import { createUploader, type Uploader, type UploadEvent } from '../../offline/uploader';
import { httpAudioTransport, httpSessionOpTransport } from './audio-transport';

const listeners = new Set<(e: UploadEvent) => void>();
let uploader: Uploader | undefined;

export function onUploadEvent(listener: (e: UploadEvent) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function startUploads(): Uploader {
  uploader ??= createUploader({
    transport: httpAudioTransport,
    sendSessionOp: httpSessionOpTransport,
    userId: () => appStore.get(authAtom)?.user?.id,
    onEvent: (e) => listeners.forEach((l) => l(e)),
  });
  uploader.start();
  return uploader;
}

export function kickUploads(): void {
  void startUploads().kick();
  // Should this tab close before everything is sent, the browser can finish the job (where it supports it).
  void requestBackgroundSync();
}

if (typeof window !== 'undefined') window.addEventListener('online', kickUploads);
