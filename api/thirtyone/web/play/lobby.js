// Starting a table: the lobby's form, or a link such as
// /play?variant=scat&players=3&bots=1,2&level=strong that starts one at once (the computer
// players' level is one of the engine's, the default one without `level`; `hints=on` or `off`
// sets the table's rule on hints, else the API's default; `turn_seconds=60` a turn clock,
// `public=true` lists it in the lobby). Any other query parameter naming
// one of the variant's options is passed on as that option (?lives=1&rounds=2).
import { claimSeat, createTable, publicTables, variants } from "./api.js";
import { h } from "./dom.js";
import { DEFAULT_LEVEL, LEVELS, t, tn } from "./i18n.js";
import { seatLink } from "./links.js";
import { recallName, remember, rememberName } from "./storage.js";
import { seatWords } from "./words.js";

const RESERVED = new Set(["variant", "players", "bots", "level", "lang", "hints", "public",
  "turn_seconds"]);
/** The longest name the API takes (as its contract says). */
export const NAME_LENGTH = 32;
// The public tables are listed again this often while the lobby is shown.
const LOBBY_REFRESH_MS = 10_000;

/** A contribution to the deal's seed from this browser (the API mixes every seat's in):
kept, so the page can find it in the match's record. */
function entropy() {
  return Array.from(crypto.getRandomValues(new Uint32Array(4)), (word) => word.toString(16))
    .join("");
}

/** Take `seat` of `table` (with its invitation, or none for a free seat of a public table)
under the name given (remembered for next time; none: the seat is shown by its number).
Returns `{table, key}`, the key this browser's alone. */
export async function join(table, seat, { invitation = null, name = "" } = {}) {
  const given = name.trim();
  rememberName(given);
  const contribution = entropy();
  // The API wants the name said, null for none.
  const claimed = await claimSeat(table, seat, { invitation, name: given || null,
    entropy: contribution });
  remember(table, { entropy: contribution, seed_sha256: claimed.seed_sha256 });
  return { table, key: claimed.key };
}

/**
 * Make the table and remember the other seats' invitations (the API gives this browser its
 * own seat's key only, and one invitation per other human seat); the seat of this browser is
 * the first human seat (none at a table of bots alone, which this browser watches). Returns
 * `{table, key}`.
 */
async function start(variant, players, botSeats, level, options, table = {}) {
  const bots = Object.fromEntries(botSeats.map((seat) => [String(seat), level]));
  const contribution = entropy();
  const request = { variant, players, options, bots, entropy: contribution };
  for (const [name, value] of Object.entries(table)) {
    if (value !== null && value !== undefined && value !== "") request[name] = value;
  }
  const answer = await createTable(request);
  const mine = answer.seats.find((seat) => seat.key);
  remember(answer.table, {
    invites: answer.seats.filter((seat) => seat.invitation)
      .map(({ seat, invitation }) => ({ seat, invitation })),
    creator: Boolean(mine),
    entropy: mine ? contribution : null,
    seed_sha256: answer.seed_sha256,
  });
  return { table: answer.table, key: mine?.key ?? null };
}

/** An option's value from its text, by the option's type as the variants list gives it. */
function optionValue(spec, text) {
  if (spec.type === "bool") return text === "true" || text === "1";
  if ((spec.type === "int" || spec.type === "int-or-none") && /^-?\d+$/.test(text)) {
    return Number(text);
  }
  if (spec.type === "int-or-none" && (text === "" || text === "none")) return null;
  return text;
}

export async function startFromQuery(query) {
  const variant = query.get("variant");
  const { variants: list } = await variants();
  const found = list.find((entry) => entry.id === variant);
  const players = Number(query.get("players") ?? found?.players.min ?? 2);
  const botSeats = query.has("bots")
    ? query.get("bots").split(",").filter((seat) => seat.trim() !== "").map(Number)
    : Array.from({ length: players - 1 }, (_, index) => index + 1);
  const options = {};
  for (const spec of found?.options ?? []) {
    if (query.has(spec.name) && !RESERVED.has(spec.name)) {
      options[spec.name] = optionValue(spec, query.get(spec.name));
    }
  }
  // An unknown level goes to the API as it is, which refuses it and says why.
  return start(variant, players, botSeats, query.get("level") ?? DEFAULT_LEVEL, options,
    {
      hints: query.get("hints"), name: recallName() || null,
      public: query.get("public") === "true" || null,
      turn_seconds: query.has("turn_seconds") ? Number(query.get("turn_seconds")) : null,
    });
}

// The options the lobby offers: numbers, yes-or-no and choices, each labelled by the API's
// localized description; a choice's values are ids, which the description names and explains
// (so the house rules of RULES.md §4.15, deal_passes or fire, can be chosen here too).
const OFFERED = new Set(["int", "int-or-none", "bool", "choice"]);

/** A field for one option, showing its default; `read()` gives its value when changed. */
function optionField(spec) {
  const id = `option-${spec.name}`;
  if (spec.type === "bool") {
    const box = h("input", { id, type: "checkbox", checked: spec.default });
    return {
      name: spec.name,
      element: h("p", { class: "option" }, box, " ", h("label", { for: id }, spec.description)),
      read: () => (box.checked === spec.default ? undefined : box.checked),
    };
  }
  if (spec.type === "choice") {
    const select = h("select", { id, "data-option": spec.name },
      spec.choices.map((value) => h("option", { value }, value)));
    select.value = spec.default;
    return {
      name: spec.name,
      element: h("p", { class: "option" }, h("label", { for: id }, spec.description), " ", select),
      read: () => (select.value === spec.default ? undefined : select.value),
    };
  }
  const input = h("input", {
    id, type: "number", inputmode: "numeric", min: spec.minimum, max: spec.maximum,
    value: spec.default, "data-option": spec.name,
  });
  return {
    name: spec.name,
    element: h("p", { class: "option" }, h("label", { for: id }, spec.description), " ", input),
    read: () => {
      if (input.value === "") return spec.default === null ? undefined : null;
      const value = Number(input.value);
      return value === spec.default ? undefined : value;
    },
  };
}

/** The lobby: choose a game, the number of players, who plays each seat, and options. */
export async function showLobby(onStarted) {
  const { variants: list } = await variants();
  const select = h("select", { id: "variant", name: "variant" },
    list.map((variant) => h("option", { value: variant.id }, variant.name)));
  const count = h("input", { id: "players", name: "players", type: "number", inputmode: "numeric" });
  const summary = h("p", { class: "summary" });
  const seats = h("ul", { class: "seat-choices" });
  const level = h("select", { id: "level", name: "level" },
    Object.entries(LEVELS).map(([id, name]) => h("option", { value: id }, name)));
  level.value = DEFAULT_LEVEL;
  const options = h("div", { class: "option-fields" });
  const name = h("input", { id: "name", name: "name", type: "text", maxlength: NAME_LENGTH,
    autocomplete: "nickname", value: recallName() });
  const listed = h("input", { id: "public", type: "checkbox" });
  // The API's range for a turn's clock: 2 s to a day.
  const clock = h("input", { id: "turn-seconds", type: "number", inputmode: "numeric", min: 2,
    max: 86_400 });
  let fields = [];
  const error = h("p", { class: "error", role: "alert" });
  const button = h("button", { type: "submit", class: "primary" }, t("start"));

  const chosen = () => list.find((variant) => variant.id === select.value);
  function layOutSeats() {
    const players = Number(count.value);
    // Each seat keeps its choice, by its seat (the first seat, this browser's, has none).
    const kept = new Map([...seats.querySelectorAll("select")]
      .map((choice) => [Number(choice.dataset.seatChoice), choice.value]));
    seats.replaceChildren(...Array.from({ length: players }, (_, seat) => {
      const label = seatWords(seat);
      if (seat === 0) return h("li", {}, h("span", {}, label), " ", h("strong", {}, t("seat_you")));
      const choice = h("select", { "aria-label": label, "data-seat-choice": seat },
        h("option", { value: "bot" }, t("seat_bot")),
        h("option", { value: "friend" }, t("seat_friend")));
      choice.value = kept.get(seat) ?? "bot";
      return h("li", {}, h("label", {}, label, " ", choice));
    }));
  }
  function choose() {
    const variant = chosen();
    summary.textContent = variant.summary;
    count.min = variant.players.min;
    count.max = variant.players.max;
    const players = Math.min(Math.max(Number(count.value) || 3, variant.players.min),
      variant.players.max);
    count.value = players;
    layOutSeats();
    fields = variant.options.filter((spec) => OFFERED.has(spec.type)).map(optionField);
    options.replaceChildren(...fields.map((field) => field.element));
  }
  select.addEventListener("change", choose);
  count.addEventListener("change", () => {
    const variant = chosen();
    count.value = Math.min(Math.max(Number(count.value) || variant.players.min,
      variant.players.min), variant.players.max);
    layOutSeats();
  });
  choose();

  const form = h("form", { class: "lobby" },
    h("h2", {}, t("new_table")),
    h("p", {}, h("label", { for: "name" }, t("your_name")), " ", name),
    h("p", {}, h("label", { for: "variant" }, t("variant")), " ", select),
    summary,
    h("p", {}, h("label", { for: "players" }, t("players")), " ", count),
    h("fieldset", {}, h("legend", {}, t("seats")), seats,
      h("p", {}, h("label", { for: "level" }, t("level")), " ", level)),
    h("p", { class: "option" }, listed, " ", h("label", { for: "public" }, t("public"))),
    h("p", { class: "option" }, h("label", { for: "turn-seconds" }, t("turn_seconds")), " ", clock),
    h("details", { class: "options" }, h("summary", {}, t("options")), options),
    button, error);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    button.disabled = true;
    button.textContent = t("starting");
    error.textContent = "";
    const botSeats = [...seats.querySelectorAll("select")]
      .filter((choice) => choice.value === "bot")
      .map((choice) => Number(choice.dataset.seatChoice));
    try {
      const changed = {};
      for (const field of fields) {
        const value = field.read();
        if (value !== undefined) changed[field.name] = value;
      }
      rememberName(name.value.trim());
      onStarted(await start(select.value, Number(count.value), botSeats, level.value, changed, {
        name: name.value.trim() || null, public: listed.checked || null,
        turn_seconds: clock.value === "" ? null : Number(clock.value),
      }));
    } catch (failure) {
      error.textContent = failure.message;
      button.disabled = false;
      button.textContent = t("start");
    }
  });
  // The form comes at once; the public tables when the API has listed them, and again
  // every little while the lobby is shown.
  const page = h("div", { class: "lobby-page" }, form);
  const section = h("section", { class: "waiting-tables", "aria-labelledby": "waiting-heading" },
    h("h2", { id: "waiting-heading" }, t("lobby_tables")));
  const names = Object.fromEntries(list.map((variant) => [variant.id, variant.name]));
  const listing = () => waitingTables(names, name, onStarted, error);
  listing().then((tables) => {
    section.append(tables);
    page.append(section);
    const timer = setInterval(async () => {
      if (!section.isConnected) {
        clearInterval(timer);
        return;
      }
      const fresh = await listing();
      const shown = section.lastElementChild;
      // The same list stays (and the keyboard's place in it); a join on its way keeps the
      // list it was pressed in.
      if (fresh.textContent === shown.textContent || shown.querySelector("[data-join]:disabled")) {
        return;
      }
      shown.replaceWith(fresh);
    }, LOBBY_REFRESH_MS);
  });
  return page;
}

/** The public tables waiting for players (`names`: each variant's name): join one (a free
seat, with the name above) or watch it. A lobby the API cannot list now shows none. */
async function waitingTables(names, name, onStarted, error) {
  let tables = [];
  try {
    tables = (await publicTables()).tables;
  } catch {
    return h("p", {}, t("lobby_empty"));
  }
  if (!tables.length) return h("p", {}, t("lobby_empty"));
  return h("ul", { class: "public-tables" }, tables.map((table) => {
    const free = table.seats.find((seat) => seat.free);
    const button = h("button", { type: "button", class: "move", "data-join": table.table },
      t("join"));
    button.addEventListener("click", async () => {
      button.disabled = true;
      try {
        onStarted(await join(table.table, free.seat, { name: name.value }));
      } catch (failure) {
        error.textContent = failure.message;
        button.disabled = false;
      }
    });
    const who = table.seats.filter((seat) => !seat.free)
      .map((seat) => seat.name || (seat.bot ? LEVELS[seat.bot] ?? seat.bot : seatWords(seat.seat)));
    return h("li", { "data-public-table": table.table },
      h("strong", {}, names[table.variant] ?? table.variant), " · ",
      tn("free_n", table.free), who.length ? ` · ${who.join(", ")}` : null, " ",
      free ? button : null, " ",
      h("a", { href: seatLink(table.table, null), "data-watch": table.table }, t("watch")));
  }));
}
