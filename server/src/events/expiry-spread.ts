/**
 * 75–125 % of `ms`, for answers kept in memory until an event drops them (or this long, should the event be lost):
 * after a restart every phone's answer is read at once, and must not all expire at once again.
 */
export const spreadExpiry = (ms: number) => Math.round(ms * (0.75 + Math.random() / 2));
