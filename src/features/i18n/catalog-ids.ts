import type { Messages } from '@lingui/core';

/**
 * @lingui/swc-plugin 6 (the one that runs with our SWC) hashes message ids in URL-safe base64, while the
 * lingui 5 catalog compiler writes standard base64: "cpE88+" in the catalog is "cpE88-" in the code.
 * Every id with + or / is therefore also offered under its URL-safe spelling.
 */
export function withUrlSafeIds(messages: Messages): Messages {
  const out: Messages = { ...messages };
  for (const [id, message] of Object.entries(messages)) {
    const safe = id.replace(/\+/g, '-').replace(/\//g, '_');
    if (safe !== id) out[safe] = message;
  }
  return out;
}
