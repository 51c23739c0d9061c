/**
 * Every name this app uses in the browser's storage, in one place.
 *
 * localStorage  `token`, `user`   the session when "remember me" was ticked; removed at logout or expiry.
 *               `locale`          the chosen interface language; kept until changed.
 *               `v2_home`         mirror of the account setting, so the first paint picks the right home.
 *               `device_id`       a random id of this browser, sent (x-device-id) with sign-in and sign-up so the
 *                                 server lets a device that signed in before through while strangers' failed guesses
 *                                 pause the account, and with the calls about recording so only one device records a
 *                                 consultation at a time; no credential by itself. Kept at logout, gone with the site data.
 *               `web_font`        the app's typeface was loaded once, so it is used from the first screen on
 *                                 (src/ui/web-font.ts). No personal data.
 *               `dismissed_omissions`  per consultation and document, where in the transcript the things said but
 *                                 left out of the notes that the clinician dismissed lie (offsets only, no text);
 *                                 the 100 most recent documents are kept (src/features/documents/omission-dismissals.ts).
 *               `recordings_in_progress`  per consultation this browser is recording: the account, the time recorded so
 *                                 far and how the page went away, so a page that reloaded, crashed or was left says
 *                                 that recording stopped and when (src/features/recording/interrupted-recording.ts).
 *                                 Ids and durations only; removed when the recording is finished, handed over or the
 *                                 notice is dismissed.
 *               `audio_test_suggestion`  the first consultation's suggestion of the audio test was taken, dismissed or
 *                                 is not needed (done / dismissed / not_first); kept until the site data is cleared.
 *               `deprecated_reload_done`  the outdated app version already reloaded once, in any tab; a later
 *                                 outdated version reloads once again (src/features/pwa/outdated-client-reload.ts).
 *               `pending_consents`  per consultation, a patient's consent to recording given on this device that the
 *                                 server has not acknowledged yet: how and when (no names); removed once sent.
 *               `consent_rules`  per account, the organization's consent rule last seen, for a consultation begun
 *                                 offline.
 *               `consultation_types.<locale>`  the last list of consultation types in that language, so a
 *                                 consultation can be chosen with no network. No patient data.
 * sessionStorage `token`, `user`  the session without "remember me"; gone when the tab closes.
 *               `draft.<user>.<what>`  text being typed (a change asked of a document, a custom document
 *                                 request), kept until it is sent or the clinician signs out, so an expired session
 *                                 does not lose it (src/offline/session-drafts.ts).
 */
export const STORAGE_KEYS = {
  token: 'token',
  user: 'user',
  locale: 'locale',
  v2Home: 'v2_home',
  deviceId: 'device_id',
  deprecatedReloadDone: 'deprecated_reload_done',
  webFont: 'web_font',
  dismissedOmissions: 'dismissed_omissions',
  recordingsInProgress: 'recordings_in_progress',
  audioTestSuggestion: 'audio_test_suggestion',
  draftPrefix: 'draft.',
  pendingConsents: 'pending_consents',
  consentRules: 'consent_rules',
  consultationTypes: (locale: string) => `consultation_types.${locale}`,
} as const;
