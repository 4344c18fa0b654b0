// This seat's hand's value, scored in the page with the npm package's HandTable (clients/ts,
// its two runtime modules vendored: vendor/README.md) from the table's hand table,
// GET /v1/hand-tables/{variant} with the table's options: one request per rule set, then no
// request per hand.
import { HandTable } from "./vendor/thirtyone/tables.js";
import { LANGUAGE } from "./i18n.js";

// The hand tables asked for, by address: a HandTable once loaded, null while on its way or
// when the server has none for these rules (the page then shows no value).
const loaded = new Map();

/** The address of the hand table of `rules` (a table view's `{variant, options}`): each
option one query parameter, as the API reads them (`none` for an empty number). */
export function handTableAddress(rules) {
  const url = new URL(`/v1/hand-tables/${encodeURIComponent(rules.variant)}`, location.origin);
  url.searchParams.set("lang", LANGUAGE);
  for (const [name, value] of Object.entries(rules.options ?? {}).sort()) {
    url.searchParams.set(name, value === null ? "none" : String(value));
  }
  return url.href;
}

async function load(address) {
  const response = await fetch(address, { headers: { Accept: "application/octet-stream" } });
  if (!response.ok) throw new Error(`hand table: ${response.status}`);
  return HandTable.fromBinary(await response.arrayBuffer());
}

/**
 * The HandTable of `rules` when it is loaded, else null; the first call for a rule set starts
 * loading it and calls `onLoaded()` once it is there. A failed load is not asked again until
 * the page is reloaded (the hand is then shown without its value).
 */
export function handTable(rules, onLoaded) {
  if (!rules?.variant) return null;
  const address = handTableAddress(rules);
  if (!loaded.has(address)) {
    loaded.set(address, null);
    load(address).then((table) => {
      loaded.set(address, table);
      onLoaded();
    }).catch(() => {});
  }
  return loaded.get(address);
}

/** What `cards` (three known cards) are worth under `table`, or null when it cannot say. */
export function handValue(table, cards) {
  try {
    return table.score(cards);
  } catch {
    // A card the table's deck does not hold: the API's table and the page disagree on the
    // rules, and a wrong value is worse than none.
    return null;
  }
}
