// What only this browser knows: for a table it made, the other seats' invitations and that it
// made it (it may start it); for a table it sits at, its own contribution to the deal's seed
// and the seed's fingerprint as first seen; and the player's name.
const PREFIX = "thirtyone.table.";
const NAME = "thirtyone.name";

/** Keep `facts` of `table` with those kept before; all of them, as now kept. */
export function remember(table, facts) {
  const kept = { ...recall(table), ...facts };
  try {
    localStorage.setItem(PREFIX + table, JSON.stringify(kept));
  } catch {
    // Private browsing may refuse storage: the facts then live as long as the page.
  }
  return kept;
}

export function recall(table) {
  try {
    return JSON.parse(localStorage.getItem(PREFIX + table)) ?? {};
  } catch {
    return {};
  }
}

/** The name this browser's player gave last time, to offer it again. */
export function recallName() {
  try {
    return localStorage.getItem(NAME) ?? "";
  } catch {
    return "";
  }
}

export function rememberName(name) {
  try {
    localStorage.setItem(NAME, name);
  } catch {
    // Without storage the name is asked again next time.
  }
}
