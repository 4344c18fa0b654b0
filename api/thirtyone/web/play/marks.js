// What a shown event leaves on the page: its line in the log with the public cards it names,
// and on the table drawn before it, the seat that moved marked and a discarded card flying
// from the hand or the seat onto the pile.
import { card } from "./cards.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { arrive } from "./motion.js";
import { ACTIONS } from "./pacing.js";

/** The log's line for `event` (`text`: what it says), the page's `number`th; `live` when it
happened while the page was open (not the table's story before it). */
export function logEntry(event, text, number, live) {
  const cards = (codes) => h("span", { class: "cards small" }, codes.map((code) => card(code)));
  const facts = [];
  if (event.type === "drew" && event.card) facts.push(cards([event.card]));
  if (event.gave?.length) facts.push(h("span", { class: "fact" }, `${t("gave")}: `, cards(event.gave)));
  if (event.took?.length) facts.push(h("span", { class: "fact" }, `${t("took")}: `, cards(event.took)));
  const shownCards = event.cards ?? event.laid;
  if (Array.isArray(shownCards) && shownCards.length) facts.push(cards(shownCards));
  return h("li", {
    "data-event": number, "data-event-type": event.type, "data-event-seat": event.seat,
    "data-live": live ? "true" : null,
    // When it was shown (ms since the page opened): the pace can be read off the log.
    "data-at": Math.round(performance.now()),
  }, text, facts.length ? " " : null, facts);
}

/** The move `event` just shown (its `words` as the page says it), on the table `root` drawn
before it. */
export function markMove(root, event) {
  for (const marked of root.querySelectorAll(".last-actor")) marked.classList.remove("last-actor");
  const seat = root.querySelector(`[data-seat-index="${event.seat}"]`);
  seat?.classList.add("last-actor");
  const caption = root.querySelector(".last-move");
  if (caption && ACTIONS.has(event.type)) {
    caption.replaceChildren(`${t("last_move")}: ${event.words}`);
  }
  if (event.type !== "discarded") return;
  const top = root.querySelector(".discard img.card");
  if (!top) return;
  const held = root.querySelector(`.hand img[data-card="${event.card}"]`);
  const from = (held ?? seat)?.getBoundingClientRect();
  (held?.closest(".card-button") ?? held)?.remove();
  top.replaceWith(card(event.card, "pile last"));
  arrive(root.querySelector(".discard img.card"), from);
}
