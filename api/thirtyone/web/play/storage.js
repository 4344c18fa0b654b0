// What only the creator's browser knows about a table: the other seats' invitation keys and
// the seed's fingerprint published when the table was made.
const PREFIX = "thirtyone.table.";

export function remember(table, facts) {
  try {
    localStorage.setItem(PREFIX + table, JSON.stringify(facts));
  } catch {
    // Private browsing may refuse storage: the invitations then live as long as the page.
  }
}

export function recall(table) {
  try {
    return JSON.parse(localStorage.getItem(PREFIX + table)) ?? {};
  } catch {
    return {};
  }
}
