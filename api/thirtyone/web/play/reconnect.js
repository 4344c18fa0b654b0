// When to open a lost event stream again. No DOM here: `node --test` runs it.

// The wait doubles from the first to the last, each drawn at random in its upper half, so
// that pages a restart cut off do not all come back at once; a server that says how long to
// wait (Retry-After) is obeyed. A page always offers "Try again now" meanwhile.
export const RECONNECT_MS = 500;
export const RECONNECT_MAX_MS = 10_000;

/** The ms to wait after `failures` failed attempts in a row (0 for the first), at least
`retryAfter` seconds when a refusal for load said so; `random()` draws in [0, 1). */
export function reconnectWait(failures, retryAfter = null, random = Math.random) {
  const ceiling = Math.min(RECONNECT_MAX_MS, RECONNECT_MS * 2 ** failures);
  const wait = ceiling / 2 + random() * (ceiling / 2);
  return retryAfter === null ? wait : Math.max(wait, retryAfter * 1000);
}
