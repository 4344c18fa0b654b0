// The page's entry: a table named in the URL fragment (its id and this seat's key, never sent
// to the server in a URL it logs; no key to watch it; or a seat's invitation to claim), a
// table to start from the query (/play?variant=scat&players=3&bots=1,2), or the lobby.
import { getTable, variants } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { join, NAME_LENGTH, showLobby, startFromQuery } from "./lobby.js";
import { seatLink } from "./links.js";
import { recallName } from "./storage.js";
import { seatNumber } from "./words.js";
import { applyTheme, settingsPanel } from "./settings.js";
import { TableView } from "./table.js";

const main = document.getElementById("app");
let current = null;

/** The table and seat key of a fragment `#table=...&key=...`, if it names a table; without
a key, the table is watched as a spectator sees it. */
function seatInFragment() {
  const fragment = new URLSearchParams(location.hash.slice(1));
  const table = fragment.get("table");
  return table
    ? { table, key: fragment.get("key"), seat: fragment.get("seat"), invite: fragment.get("invite") }
    : null;
}

function show(content) {
  current?.close();
  current = null;
  main.replaceChildren(content);
}

function openTable(table, key) {
  const view = new TableView(table, key, started);
  show(view.element);
  current = view;
  view.start();
}

/** A table just made here: its address replaces the query that made it, so a reload
resumes the table instead of dealing another. */
function started({ table, key }) {
  history.replaceState(null, "", seatLink(table, key, { own: true }));
  openTable(table, key);
}

/** The invitation's table in words: the game, the host (the first player seated), the number
of players, each option chosen with its value. */
async function invitation(table) {
  const [answer, list] = await Promise.all([getTable(table, null), variants()]);
  const variant = list.variants.find((entry) => entry.id === answer.variant);
  const host = (answer.seats ?? []).find((entry) => entry.claimed && !entry.bot && entry.name);
  const params = { variant: variant?.name ?? answer.variant, players: answer.players,
    host: host?.name };
  const options = Object.entries(answer.options ?? {}).map(([option, value]) => {
    const spec = variant?.options.find((entry) => entry.name === option);
    const shown = value === true ? t("yes") : value === false ? t("no") : String(value);
    return h("li", { "data-option": option },
      `${(spec?.description ?? option).replace(/\.$/, "")}: ${shown}`);
  });
  return [
    h("p", {}, t(host ? "invite_game" : "invite_game_anonymous", params)),
    options.length ? [h("p", {}, t("invite_options")), h("ul", {}, options)] : null,
  ];
}

/** An invitation: the player gives a name and claims the seat, once; the key the API gives
back is this browser's alone and replaces the invitation in the address. */
function claimForm({ table, seat, invite }) {
  const number = Number(seat);
  const name = h("input", { id: "name", type: "text", maxlength: NAME_LENGTH, autocomplete: "nickname",
    value: recallName() });
  const error = h("p", { class: "error", role: "alert" });
  const button = h("button", { type: "submit", class: "primary" }, t("claim"));
  const about = h("div", { class: "invitation", "data-invitation": "" });
  const form = h("form", { class: "claim" },
    h("h2", {}, t("claim_title", { seat: seatNumber(number) })),
    about,
    h("p", {}, h("label", { for: "name" }, t("your_name")), " ", name),
    button, error);
  // What the invitation is to: the game, who invites, the options chosen (as anyone watching
  // the table may see them). Without an answer the form is enough to take the seat.
  invitation(table).then((content) => about.replaceChildren(...content.flat().filter(Boolean)))
    .catch(() => {});
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    button.disabled = true;
    error.textContent = "";
    try {
      started(await join(table, number, { invitation: invite, name: name.value }));
    } catch (failure) {
      error.textContent = failure.message;
      button.disabled = false;
    }
  });
  return form;
}

async function route() {
  const seat = seatInFragment();
  if (seat?.invite) {
    show(claimForm(seat));
    return;
  }
  if (seat) {
    openTable(seat.table, seat.key);
    return;
  }
  const query = new URLSearchParams(location.search);
  try {
    if (query.has("variant")) {
      show(h("p", { class: "loading" }, t("starting")));
      started(await startFromQuery(query));
    } else {
      show(await showLobby(started));
    }
  } catch (error) {
    // A start link the API refused (an unknown variant, a bad option): say why, and offer
    // the lobby to choose again.
    const notice = h("p", { class: "error", role: "alert" }, error.message);
    show(notice);
    show(h("div", {}, notice, await showLobby(started)));
  }
}

// The language switcher keeps the fragment, so a player changes language without losing
// their seat.
document.querySelector(".languages").addEventListener("click", (event) => {
  const link = event.target.closest("a[data-lang]");
  if (!link) return;
  event.preventDefault();
  const url = new URL(location.href);
  url.searchParams.set("lang", link.dataset.lang);
  location.assign(url.href);
});

applyTheme();
document.querySelector(".top").append(settingsPanel());

window.addEventListener("hashchange", route);
// A closed tab (or one the browser puts away) ends its stream at once, so the server stops
// counting the player as here; a page brought back from the back-forward cache opens again.
window.addEventListener("pagehide", () => current?.close());
window.addEventListener("pageshow", (event) => {
  if (event.persisted) route();
});
route();
