// Starting a table: the lobby's form, or a link such as
// /play?variant=scat&players=3&bots=1,2&level=strong that starts one at once (the computer
// players' level is one of the engine's, the default one without `level`; `hints=on` or `off`
// sets the table's rule on hints, else the API's default). Any other query parameter naming
// one of the variant's options is passed on as that option (?lives=1&rounds=2).
import { createTable, variants } from "./api.js";
import { h } from "./dom.js";
import { DEFAULT_LEVEL, LEVELS, t } from "./i18n.js";
import { remember } from "./storage.js";

const RESERVED = new Set(["variant", "players", "bots", "level", "lang", "hints"]);

/**
 * Make the table and remember the other seats' invitations (the API gives this browser its
 * own seat's key only); the seat of this browser is the first human seat (none at a table of
 * bots alone, which this browser watches). Returns `{table, key}`.
 */
async function start(variant, players, botSeats, level, options, hints = null) {
  const bots = Object.fromEntries(botSeats.map((seat) => [String(seat), level]));
  const answer = await createTable({ variant, players, options, bots, ...(hints ? { hints } : {}) });
  const mine = answer.seats.find((seat) => seat.key);
  remember(answer.table, {
    invites: answer.seats.filter((seat) => seat.invitation)
      .map(({ seat, invitation }) => ({ seat, invitation })),
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
    query.get("hints"));
}

// The options the lobby offers: numbers and yes-or-no, each labelled by the API's localized
// description (a choice's values are ids, which the API does not translate).
const OFFERED = new Set(["int", "int-or-none", "bool"]);

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
  let fields = [];
  const error = h("p", { class: "error", role: "alert" });
  const button = h("button", { type: "submit", class: "primary" }, t("start"));

  const chosen = () => list.find((variant) => variant.id === select.value);
  function layOutSeats() {
    const players = Number(count.value);
    const kept = [...seats.querySelectorAll("select")].map((choice) => choice.value);
    seats.replaceChildren(...Array.from({ length: players }, (_, seat) => {
      const label = t("seat", { seat });
      if (seat === 0) return h("li", {}, h("span", {}, label), " ", h("strong", {}, t("seat_you")));
      const choice = h("select", { "aria-label": label, "data-seat-choice": seat },
        h("option", { value: "bot" }, t("seat_bot")),
        h("option", { value: "friend" }, t("seat_friend")));
      choice.value = kept[seat] ?? "bot";
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
    h("p", {}, h("label", { for: "variant" }, t("variant")), " ", select),
    summary,
    h("p", {}, h("label", { for: "players" }, t("players")), " ", count),
    h("fieldset", {}, h("legend", {}, t("seats")), seats,
      h("p", {}, h("label", { for: "level" }, t("level")), " ", level)),
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
      onStarted(await start(select.value, Number(count.value), botSeats, level.value, changed));
    } catch (failure) {
      error.textContent = failure.message;
      button.disabled = false;
      button.textContent = t("start");
    }
  });
  return form;
}
