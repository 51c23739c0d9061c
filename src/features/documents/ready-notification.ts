/**
 * "The document is ready", told by the browser when a document finishes while its tab is in the background. The
 * browser's permission is asked only when the clinician asks for it (a click): never on load. What a notification
 * says can show on a locked screen, so it names the document and at most the patient label the screen shows, never
 * the document's text.
 */

export type NotifyPermission = NotificationPermission | 'unsupported';

export function notifyPermission(): NotifyPermission {
  return typeof Notification === 'undefined' ? 'unsupported' : Notification.permission;
}

/** Asks the browser; call it from a user's gesture only. */
export async function askToNotify(): Promise<NotifyPermission> {
  if (typeof Notification === 'undefined') return 'unsupported';
  try {
    return await Notification.requestPermission();
  } catch {
    // Older browsers take a callback and return nothing: read the answer as it now stands.
    return Notification.permission;
  }
}

/** Shows the notification when the tab is hidden and notifications are allowed; a click brings the tab back. */
export function notifyDocumentReady(message: { title: string; body: string; tag: string }): boolean {
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted' || document.visibilityState !== 'hidden') return false;
  try {
    const notification = new Notification(message.title, { body: message.body, tag: message.tag });
    notification.onclick = () => {
      window.focus();
      notification.close();
    };
    return true;
  } catch {
    // Some mobile browsers allow notifications only through a service worker: the screen shows the document anyway.
    return false;
  }
}
