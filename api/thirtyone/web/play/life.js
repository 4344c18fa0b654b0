// A table's life around its match, as the API tells it: each seat's name and presence, the
// turn clock, the match record and its check in the page (the server's seed against the
// fingerprint published before the first move, and the deal's seed derived from it and the
// players' contributions, by the formula of `thirtyone.record`).
import { serverNow } from "./api.js";
import { h } from "./dom.js";
import { SEED_LABEL, t } from "./i18n.js";
import { departed, seatEntry, seatName, seatWords } from "./words.js";
import { sha256 } from "./vendor/noble-hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "./vendor/noble-hashes/utils.js";

const hex = (text) => bytesToHex(sha256(utf8ToBytes(text)));

/** The seat as its place shows it: its name, and its number too when it has a name. */
export function seatLabel(answer, seat) {
  const name = seatName(answer, seat);
  const number = seatWords(seat);
  return [h("strong", {}, name),
    name === number ? null : h("span", { class: "seat-number" }, number)];
}

/** What the seat's badges say of who plays it: the computer, or whether the player is here
now, or that nobody has taken it yet. */
export function presence(answer, seat) {
  const entry = seatEntry(answer, seat);
  if (!entry) return [];
  // A seat its player left says so: what it does now is the computer's, not the player's.
  if (entry.bot) return [departed(answer, seat) ? t("departed") : t("bot")];
  if (entry.claimed === false) return [t("free_seat")];
  if (seat === answer.seat) return [];
  return [entry.connected ? t("online") : t("away")];
}

/** The time left before `deadline` (an ISO date, the server's time), as m:ss. */
function timeLeft(deadline, now = serverNow()) {
  const seconds = Math.max(0, Math.ceil((Date.parse(deadline) - now) / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

/** The seat's clock while it is to move at a clocked table: its countdown (in `words`,
"0:42 left to move", or as the time alone where the seat's place says whose it is),
refreshed by `tick` every second. */
export function clock(answer, seat, { words = false } = {}) {
  const deadline = seatEntry(answer, seat)?.deadline;
  if (!deadline) return null;
  const shown = h("p", { class: "clock", role: "timer", "data-clock": deadline,
    "data-clock-words": words ? "" : null });
  showTime(shown);
  return shown;
}

function showTime(shown) {
  const text = t("clock", { time: timeLeft(shown.dataset.clock) });
  if (shown.hasAttribute("data-clock-words")) {
    shown.textContent = text;
  } else {
    shown.textContent = timeLeft(shown.dataset.clock);
    shown.setAttribute("aria-label", text);
  }
}

/** Every clock of `root` shows the time left now. */
export function tick(root) {
  for (const shown of root.querySelectorAll("[data-clock]")) showTime(shown);
}

const FORMAT = "thirtyone-record";
const FORMAT_VERSION = 1;

/** JSON text of `value` with every object's keys in one order, to compare two documents. */
const canonical = (value) => JSON.stringify(value, (_, item) => (
  item && typeof item === "object" && !Array.isArray(item)
    ? Object.fromEntries(Object.keys(item).sort().map((name) => [name, item[name]])) : item));

const check = (code, ok) => ({ code, ok, text: t(`record_${code}_${ok ? "ok" : "bad"}`) });

/**
 * The checks a page can make of a match record without the engine, each `{code, ok, text}`:
 * that it is one; that its game, seats and names are this table's (`answer`, the table as
 * this page has it, over); the seed's commit-reveal (the server's seed has the SHA-256
 * `published` before the first move, and the deal's seed is the one `thirtyone.record`
 * derives from it and every seat's contribution); that this seat's own contribution
 * (`mine`, when this browser gave one) is in it as given; and that its last round and
 * winners are the ones the table showed. Replaying every move is the engine's part.
 */
export function checkRecord(record, { answer, published, mine }) {
  const seed = record?.seed;
  const contributions = seed?.contributions;
  if (record?.format !== FORMAT || record.format_version !== FORMAT_VERSION
      || typeof seed?.server !== "string" || !Array.isArray(contributions)
      || !Array.isArray(record.seats) || !Array.isArray(record.rounds)) {
    return [{ code: "format", ok: false, text: t("record_format_bad") }];
  }
  const seats = answer.seats ?? [];
  const sameTable = record.variant === answer.variant && record.players === seats.length
    && seats.every((entry) => record.seats[entry.seat]?.name === entry.name);
  const commitment = hex(seed.server);
  const checks = [
    check("table", sameTable),
    check("commitment", commitment === seed.sha256 && commitment === published),
    // The server's seed may not hold the separator (the engine refuses one that does).
    check("deal", !seed.server.includes(":") && seed.deal === hex([SEED_LABEL, seed.server,
      ...contributions.map((text) => hex(typeof text === "string" ? text : ""))].join(":"))),
  ];
  if (mine && answer.seat !== null && answer.seat !== undefined) {
    checks.push(check("yours", contributions[answer.seat] === mine));
  }
  const view = answer.view ?? {};
  checks.push(check("result", record.is_over === true && answer.is_over === true
    && canonical(record.winners) === canonical(view.winners ?? [])
    && canonical(record.rounds.at(-1) ?? null) === canonical(view.result ?? null)));
  return checks;
}
