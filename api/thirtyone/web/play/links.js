// The page's address for one seat of a table (or for watching it, without a key): the seat
// key rides in the fragment, which a browser never sends to a server, and the language of the
// address is kept.

export function seatLink(table, key) {
  const url = new URL(location.pathname, location.origin);
  const language = new URLSearchParams(location.search).get("lang");
  if (language) url.searchParams.set("lang", language);
  url.hash = new URLSearchParams(key ? { table, key } : { table }).toString();
  return url.href;
}

/** The page's address that claims `seat` of `table` with its single-use invitation. */
export function inviteLink(table, seat, invitation) {
  const url = new URL(seatLink(table, null));
  url.hash = new URLSearchParams({ table, seat: String(seat), invite: invitation }).toString();
  return url.href;
}
