// What a shown event leaves on the page: its line in the log with the public cards it names,
// and on the table drawn before it, the seat that moved marked and a discarded card flying
// from the hand or the seat onto the pile.
import { card } from "./cards.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { arrive, GLIDE_MS, still } from "./motion.js";
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

// An exchange's cards arrive on the table one after the other, this long apart.
const EXCHANGE_STEP_MS = 250;

/** The move `event` just shown (its `words` as the page says it), on the table `root` drawn
before it. Returns how long its cards take to move (ms), for the page to wait before it
draws the table again. */
export function markMove(root, event) {
  for (const marked of root.querySelectorAll(".last-actor")) marked.classList.remove("last-actor");
  const seat = root.querySelector(`[data-seat-index="${event.seat}"]`);
  seat?.classList.add("last-actor");
  const caption = root.querySelector(".last-move");
  if (caption && ACTIONS.has(event.type)) {
    caption.replaceChildren(`${t("last_move")}: ${event.words}`);
  }
  if (event.type === "exchanged") return exchange(root, event, seat);
  if (event.type !== "discarded") return 0;
  const top = root.querySelector(".discard img.card");
  if (!top) return 0;
  const held = root.querySelector(`.hand img[data-card="${event.card}"]`);
  const from = (held ?? seat)?.getBoundingClientRect();
  (held?.closest(".card-button") ?? held)?.remove();
  top.replaceWith(card(event.card, "pile last"));
  arrive(root.querySelector(".discard img.card"), from);
  // One card: it flies during the pause before the next move, and no redraw moves the pile.
  return 0;
}

/** An exchange card by card: each card given comes from the hand (this seat's) or the seat
onto the place of the table card it was swapped for, marked as the last move's. */
function exchange(root, event, seat) {
  const pairs = (event.gave ?? []).map((code, index) => [code, event.took?.[index]])
    .filter(([gave, took]) => gave && took);
  const steps = [];
  for (const [gave, took] of pairs) {
    const place = root.querySelector(`.centre img[data-card="${took}"]`);
    if (!place) continue;
    const held = root.querySelector(`.hand img[data-card="${gave}"]`);
    steps.push(() => {
      const from = (held ?? seat)?.getBoundingClientRect();
      const arrived = card(gave, "last");
      (place.closest(".card-button") ?? place).replaceWith(arrived);
      if (held) held.replaceWith(card(took, "last"));
      arrive(arrived, from);
    });
  }
  if (still()) {
    for (const step of steps) step();
    return 0;
  }
  steps.forEach((step, index) => setTimeout(step, index * EXCHANGE_STEP_MS));
  return steps.length ? (steps.length - 1) * EXCHANGE_STEP_MS + GLIDE_MS : 0;
}
