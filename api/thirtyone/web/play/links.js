// The page's address for one seat of a table (or for watching it, without a key): the seat
// key rides in the fragment, which a browser never sends to a server. A link for someone
// else names no language, so it opens in the invitee's own browser language; only this
// browser's own address keeps the language chosen here (`own`).

export function seatLink(table, key, { own = false } = {}) {
  const url = new URL(location.pathname, location.origin);
  const language = new URLSearchParams(location.search).get("lang");
  if (own && language) url.searchParams.set("lang", language);
  url.hash = new URLSearchParams(key ? { table, key } : { table }).toString();
  return url.href;
}

/** The page's address that claims `seat` of `table` with its single-use invitation. */
export function inviteLink(table, seat, invitation) {
  const url = new URL(seatLink(table, null));
  url.hash = new URLSearchParams({ table, seat: String(seat), invite: invitation }).toString();
  return url.href;
}
