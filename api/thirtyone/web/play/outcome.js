// How rounds and the match end, and what surrounds the table: a round's result, the history
// of the rounds and the match's summary, the seed's check, the invitations, the controls at
// the match's end, and Leave.
import { recordAddress } from "./api.js";
import { card } from "./cards.js";
import { figures, offline } from "./board.js";
import { h } from "./dom.js";
import { categoryName, pointsText, t, tn } from "./i18n.js";
import { presence, seatLabel } from "./life.js";
import { departed, resultName, seatWords, winnersText } from "./words.js";
import { inviteLink, seatLink } from "./links.js";
import { sha256 } from "./vendor/noble-hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "./vendor/noble-hashes/utils.js";

/** The settled round: why it ended, the hands shown with their points, what each lost. */
export function result(ui) {
  const view = ui.answer.view;
  const result = view.result;
  if (!result || (view.phase !== "round_over" && view.phase !== "game_over")) return null;
  const reasonKey = `reason_${result.reason}`;
  const reason = t(reasonKey);
  const rows = (result.hands ?? []).map((shown, seat) => shown && h("li", {},
    h("strong", {}, resultName(ui.answer, seat)), " ",
    h("span", { class: "cards small" }, shown.cards.map((code) => card(code))), " ",
    h("span", { class: "score" }, pointsText(shown.score.points),
      categoryName(shown.score.category) ? ` · ${categoryName(shown.score.category)}` : ""),
    result.lives_lost?.[seat] ? ` · ${tn("lives_n", -result.lives_lost[seat], { signed: true })}`
      : ""));
  const out = ui.history.current?.out ?? [];
  return h("section", { class: "result", "aria-labelledby": "result-heading" },
    h("h2", { id: "result-heading" }, t("result", { round: result.round ?? view.round })),
    reason !== reasonKey ? h("p", {}, reason) : null,
    h("ul", { class: "shown" }, rows),
    out.length ? h("p", { class: "went-out" },
      t("went_out", { seats: out.map((seat) => resultName(ui.answer, seat)).join(", ") })) : null,
    // The server's seed is the one whose SHA-256 was published; the deal's derives from it.
    view.seed === null || view.seed === undefined ? null
      : seed(ui, ui.answer.server_seed ?? view.seed));
}

/** What each seat lost or won in a round, in words: lives, a chip balance, points. */
export function changes(ui, entry, seat) {
  const settlement = ui.variant?.settlement;
  const parts = [];
  const lives = entry.lives.get(seat);
  if (lives) parts.push(tn("lives_n", lives, { signed: true }));
  const ante = entry.ante && !entry.outBefore.has(seat) ? entry.ante : 0;
  const chips = (entry.chips.get(seat) ?? 0) - ante;
  if (chips || settlement === "pot" || settlement === "escalating") {
    parts.push(tn("chips_n", chips, { signed: true }));
  }
  const points = entry.points.get(seat);
  if (points) parts.push(tn("points_n", points, { signed: true }));
  if (entry.knocker === seat) parts.push(t("knocker"));
  if (entry.out.includes(seat)) parts.push(t("eliminated"));
  return parts.join(" · ");
}

/** The history of the rounds, kept through the match, and the match's summary at its end. */
export function rounds(ui) {
  const finished = ui.history.finished;
  if (!finished.length) return null;
  const seats = ui.answer.view.seats.map((_, seat) => seat);
  const reason = (key) => {
    const text = t(`reason_${key}`);
    return text === `reason_${key}` ? "" : text;
  };
  const over = ui.answer.is_over;
  // Under the match's summary the table says what it is; otherwise the heading does.
  const table = h("table", { class: "rounds", "aria-labelledby": over ? null : "history-heading" },
    over ? h("caption", {}, t("history")) : null,
    h("thead", {}, h("tr", {},
      h("th", { scope: "col" }, t("history_round")),
      seats.map((seat) => h("th", { scope: "col" }, resultName(ui.answer, seat))),
      h("th", { scope: "col" }, t("history_end")))),
    h("tbody", {}, finished.map((entry) => h("tr", { "data-round": entry.round },
      h("th", { scope: "row" }, entry.round),
      seats.map((seat) => h("td", {}, changes(ui, entry, seat),
        entry.shown.has(seat) ? h("span", { class: "cards small", "aria-label": t("history_shown") },
          entry.shown.get(seat).map((code) => card(code))) : null)),
      h("td", {}, reason(entry.reason))))));
  return h("section", { class: "history", "aria-labelledby": "history-heading" },
    h("h2", { id: "history-heading" }, over ? t("summary") : t("history")),
    over ? summary(ui, finished.length) : null,
    // A wide table scrolls on its own; the keyboard can scroll it too.
    h("div", { class: "scroll", tabindex: "0", role: "region", "aria-label": t("history") },
      table));
}

/** The match at its end: how many rounds, who won, where every seat stands. */
export function summary(ui, rounds) {
  const view = ui.answer.view;
  const won = winnersText(ui.answer);
  return h("div", { class: "summary-match", "data-summary": "" },
    h("p", {}, tn("rounds_n", rounds), won ? " " : null, won),
    h("ul", {}, view.seats.map((standing, seat) => h("li", {},
      h("strong", {}, resultName(ui.answer, seat)), " ", figures(ui, standing)))));
}

/** The seed, revealed at the end, checked against the fingerprint published at the start
(hashed here, so the check needs no `crypto.subtle`, which plain http does not give). */
export function seed(ui, seed) {
  const line = h("p", { class: "seed" }, t("seed", { seed }));
  const published = ui.facts.seed_sha256 ?? ui.answer.seed_sha256;
  if (published) {
    const hex = bytesToHex(sha256(utf8ToBytes(String(seed))));
    line.append(" ", t(hex === published ? "seed_ok" : "seed_bad"));
  }
  return line;
}

export function invites(ui) {
  // An invitation once its seat is taken is of no more use: it is no longer listed.
  const invites = (ui.facts.invites ?? []).filter(({ seat }) =>
    !(ui.answer.seats ?? []).some((entry) => entry.seat === seat && entry.claimed));
  const link = (url, seat, hook = null) => h("li", {},
    seat === null ? null : h("span", {}, `${seatWords(seat)}: `),
    h("a", { href: url, "data-invite": seat === null ? null : url, class: "invite",
      ...(hook ? { [hook]: url } : {}) }, url), " ",
    h("button", { type: "button", class: "link", "data-copy": url }, t("copy")));
  return h("section", { class: "invites" },
    invites.length ? [
      h("h2", {}, t("invites")),
      h("p", {}, t("invite_hint")),
      h("ul", {}, invites.map(({ seat, invitation }) =>
        link(inviteLink(ui.table, seat, invitation), seat))),
    ] : null,
    ui.key ? [h("p", {}, t("your_link")),
      h("ul", {}, link(seatLink(ui.table, ui.key, { own: true }), null))] : null,
    // Anyone may watch: the link without a key shows what a spectator sees.
    h("p", {}, t("watch_link")),
    h("ul", {}, link(seatLink(ui.table, null), null, "data-watch")),
    // The fingerprint of the seed, published before the first move, so the seed revealed
    // at the end can be checked against it.
    ui.answer.seed_sha256 ? h("p", { class: "fingerprint" },
      t("fingerprint", { sha256: ui.answer.seed_sha256 })) : null);
}

/** At the match's end: a rematch (for a seat), a new game from the lobby, the match's
record to download and to check here. */
export function ending(ui) {
  if (!ui.answer.is_over) return null;
  return h("div", { class: "ending" },
    h("p", { class: "ending-actions" },
      // A player who left is not taken into a rematch.
      ui.key && !departed(ui.answer, ui.answer.seat) ? h("button", { type: "button",
        class: "primary", "data-rematch": "", disabled: ui.rematching }, t("rematch")) : null,
      // A spectator may follow the players to their rematch, watching it too.
      !ui.key && ui.answer.rematch ? h("a", { class: "button primary",
        href: seatLink(ui.answer.rematch, null), "data-watch-rematch": "" }, t("rematch"))
        : null, " ",
      h("a", { class: "button", href: location.pathname, "data-new-game": "" }, t("new_game")),
      " ",
      h("a", { href: recordAddress(ui.table), download: `thirtyone-${ui.table}.json`,
        "data-record": "" }, t("record_download")), " ",
      h("button", { type: "button", class: "link", "data-check-record": "" },
        t("record_check"))),
    // A record kept elsewhere (the file downloaded here, or one sent by another player)
    // is checked against what this page saw of the table.
    h("p", { class: "record-file" }, h("label", { for: "record-file" }, t("record_file")), " ",
      h("input", { type: "file", id: "record-file", accept: "application/json,.json",
        "data-record-file": "" })),
    ui.record ? h("ul", { class: "record-checks" }, ui.record.map((check) =>
      h("li", { "data-check": check.ok ? "ok" : "bad", "data-check-code": check.code },
        check.text)),
    h("li", {}, t("record_replay"))) : null);
}

/** Leave, in two steps: the second press hands the seat to the computer. */
export function leave(ui) {
  const { answer } = ui;
  if (!ui.key || answer.is_over || answer.seat === null || answer.seat === undefined) return null;
  // Out of the match, or left already (the computer plays the seat): nothing to hand over,
  // and no reason to watch the rest: the lobby at once, for a new game or not.
  if (answer.view?.seats?.[answer.seat]?.eliminated || ui.isBot(answer.seat)) {
    // Left, but still in the match: the seat can be taken back from the computer.
    const back = departed(answer, answer.seat) && !answer.view?.seats?.[answer.seat]?.eliminated
      ? [h("button", { type: "button", "data-return": "" }, t("take_seat_back")), " "] : [];
    return [...back, h("a", { class: "button", href: location.pathname, "data-new-game": "" },
      t("new_game")), " ",
    h("a", { class: "leave", href: location.pathname, "data-leave-table": "" }, t("leave_table"))];
  }
  return h("button", { type: "button", class: `link leave${ui.leaving ? " confirm" : ""}`,
    "data-leave": "", "aria-pressed": ui.leaving ? "true" : null },
  ui.leaving ? t("leave_confirm") : t("leave"));
}

/** A table waiting for its players: who has taken a seat, the invitations, and for the one
who made it a Start that deals now (the computer takes the free seats). */
export function waitingRoom(ui) {
  const { answer } = ui;
  const waiting = (answer.seats ?? []).map((entry) => h("li", { "data-seat-index": entry.seat },
    h("div", { class: "seat-name" }, seatLabel(answer, entry.seat),
      presence(answer, entry.seat).map((badge) => h("span", { class: "badge" }, badge)))));
  return [
    h("header", { class: "status" }, h("h2", {}, t("waiting_room")),
      h("p", {}, t("waiting_players"))),
    ui.error ? h("p", { class: "error", role: "alert" }, ui.error) : null,
    offline(ui),
    h("ul", { class: "waiting-seats" }, waiting),
    ui.facts.creator && ui.key ? h("p", {}, h("button", {
      type: "button", class: "primary", "data-start": "", disabled: ui.busy,
    }, t("start_now"))) : null,
    invites(ui)].filter(Boolean);
}
