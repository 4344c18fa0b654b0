// The table's pieces as elements: a card, a control that plays a move, and how moves are
// compared.
import { h } from "./dom.js";
import { cardName, currentPack, LANGUAGE } from "./i18n.js";

export { usePack } from "./i18n.js";

/** The cards of a hand (and of each of Switch's table hands). */
export const HAND_SIZE = 3;

/** A card as an image: its face (or back) drawn by the server, its name for assistive tools. */
export function card(code, extra = "") {
  const name = cardName(code);
  const faces = currentPack() === "italian" ? "&pack=italian" : "";
  const src = code ? `/play/cards/${code}.svg?lang=${LANGUAGE}${faces}` : "/play/cards/back.svg";
  return h("img", {
    class: `card ${extra}`.trim(), src, alt: name, "aria-label": name,
    "data-card": code ?? "", draggable: "false",
  });
}

/** A control that plays `move`, exactly as the API listed it, named by the API's own words
for it (`description`); `content` (a card) stands for the words on a card button. */
export function moveButton(move, ...content) {
  return h("button", {
    type: "button", class: content.length ? "card-button" : "move",
    "data-move": JSON.stringify(move), "data-focus": `move:${JSON.stringify(move)}`,
    "aria-label": content.length ? move.description : null,
  }, content.length ? content : move.description);
}

export const sameSet = (list, set) => list.length === set.size && list.every((item) => set.has(item));

/** A move's JSON with its fields in one order, its words left out, to know the same move
from two answers (a hint's move has no description). */
export const moveKey = (move) => JSON.stringify(Object.keys(move)
  .filter((name) => name !== "description").sort().map((name) => [name, move[name]]));
