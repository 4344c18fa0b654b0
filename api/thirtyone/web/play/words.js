// The words the page builds of the API's answers: how a seat is named and numbered, who won.
// No DOM here: `node --test` runs it (with the page's texts given as its data block).
import { format } from "./dom.js";
import { cardName, EVENT_TEMPLATES, LANGUAGE, t } from "./i18n.js";

/** The seat's entry of the table's answer (name, bot, presence, deadline), if any. */
export const seatEntry = (answer, seat) => (answer.seats ?? []).find((entry) => entry.seat === seat);

/** The number a person reads for a seat: the API counts from 0, people from 1. */
export const seatNumber = (seat) => seat + 1;

/** "Seat 3" for the API's seat 2. */
export const seatWords = (seat) => t("seat", { seat: seatNumber(seat) });

/** Whether the seat's player left it (or missed three turns): the computer plays it now,
under the player's key. A seat the computer played from the start holds no key. */
export function departed(answer, seat) {
  const entry = seatEntry(answer, seat);
  return Boolean(entry?.bot && entry.claimed);
}

/** The seat as a result names it: a seat the computer took over says so, so that its
result is never read as its player's. */
export function resultName(answer, seat) {
  if (!departed(answer, seat)) return seatName(answer, seat);
  return seat === answer.seat ? t("your_seat_bot") : t("seat_bot_played", { name: seatName(answer, seat) });
}

/** The computer player's name at `seat` (the API's seat, from 0): one of the language's own
names, the same at that seat at every table. */
export function botName(seat) {
  const names = t("bot_names").split(",").map((name) => name.trim()).filter(Boolean);
  return names.length ? names[seat % names.length] : seatWords(seat);
}

/** How the page names a seat: "You" for this browser's, else the player's name, a computer
player's own name, else its number. */
export function seatName(answer, seat) {
  const mine = answer.seat !== null && answer.seat !== undefined && seat === answer.seat;
  if (mine) return t("seat_you");
  const entry = seatEntry(answer, seat);
  return entry?.name || (entry?.bot ? botName(seat) : seatWords(seat));
}

/** Who won the match, in a sentence ("You won!", "Winner: Anna.", "Winners: you and Anna."),
or null while nobody has. A seat the computer took over wins for the computer, never for
its player ("Winner: the computer in your seat."). */
export function winnersText(answer) {
  const winners = answer.view?.winners ?? [];
  if (!winners.length) return null;
  const mine = (seat) => seat === answer.seat && !departed(answer, seat);
  const others = winners.filter((seat) => !mine(seat)).map((seat) => resultName(answer, seat));
  // "You" is not a name to put in "Winner: {name}" (Italian would read "Vince Tu.").
  if (others.length < winners.length) {
    return others.length ? t("winners_you", { names: others.join(", ") }) : t("you_won");
  }
  return others.length > 1 ? t("winners", { names: others.join(", ") })
    : t("winner", { name: others[0] });
}

/** A list of cards by their names ("ace of spades, ten of hearts"). */
export const cardList = (codes) => codes.map((code) => cardName(code)).join(", ");

/**
 * A seat's move in words, the player named and the cards that moved named ("Anna takes the
 * ace of spades from the discard pile."), for the last-move line and the log; null for an
 * event the server's own message says better (a deal, a result).
 */
export function moveWords(event, answer) {
  if (event.seat === null || event.seat === undefined) return null;
  // This browser's own move has sentences of its own ("You discard", not "You discards").
  const mine = event.seat === answer.seat;
  const say = (kind, params = {}) => t(`mv_${kind}${mine ? "_you" : ""}`,
    { name: seatName(answer, event.seat), ...params });
  switch (event.type) {
    case "drew":
      return event.card ? say("drew_discard", { card: cardName(event.card) }) : say("drew_stock");
    case "discarded":
      return say("discarded", { card: cardName(event.card) });
    case "exchanged":
      return say("exchanged", { gave: cardList(event.gave ?? []), took: cardList(event.took ?? []) });
    case "took":
      return say("took", { card: cardName(event.card), total: event.total });
    case "knocked":
      return say("knocked");
    case "passed":
      return say("passed");
    default:
      return null;
  }
}

/** The kind of each legal move, as the page names it (`ways_<kind>`). */
const wayOf = (move) => (move.type === "draw" ? `draw_${move.source}` : move.type);

/** What this seat may do now, in one sentence ("You may draw from the stock, take the top
card of the discard pile or knock."), each kind of move once, in the API's order; null with
no move, or a kind the page has no words for. */
export function movesText(moves) {
  const ways = [...new Set(moves.map(wayOf))];
  const texts = ways.map((way) => t(`ways_${way}`));
  if (!texts.length || texts.some((text, index) => text === `ways_${ways[index]}`)) return null;
  const list = new Intl.ListFormat(LANGUAGE, { type: "disjunction" }).format(texts);
  return t("your_moves", { moves: list });
}

/** An event's parameter as its sentence shows it: seats and table hands counted from 1,
cards by their names, the source of a draw in words, a half point as ½. */
function eventParam(key, value, event) {
  if ((key === "seat" || key === "dealer") && Number.isInteger(value)) return seatNumber(value);
  if (key === "hand" && Number.isInteger(value)) return value + 1;
  if (key === "card" && typeof value === "string") return cardName(value);
  if (key === "cards" && Array.isArray(value)) return cardList(value);
  if (key === "source") return EVENT_TEMPLATES.sources[value] ?? value;
  if (key === "points" && typeof value === "number" && !Number.isInteger(value)) {
    return value % 1 === 0.5 ? `${Math.trunc(value)}½` : String(value);
  }
  // A seat claimed by a player who gave no name.
  if (key === "name" && !value && Number.isInteger(event.seat)) return `#${seatNumber(event.seat)}`;
  return value;
}

/** What an event says, as the server's message does but with seats counted from 1 (the
API's messages say its seat numbers, from 0); null for an event the page has no template
for, or one whose template needs what the event lacks (the server's message is shown then). */
export function eventText(event) {
  let template = EVENT_TEMPLATES.messages[event.type];
  const counted = EVENT_TEMPLATES.plurals[event.type];
  if (counted && Number.isInteger(event[counted[0]])) {
    const forms = counted[1];
    const category = new Intl.PluralRules(LANGUAGE).select(Math.abs(event[counted[0]]));
    template = forms[category] ?? forms.many ?? forms.other ?? template;
  }
  if (!template) return null;
  const params = Object.fromEntries(Object.entries(event)
    .map(([key, value]) => [key, eventParam(key, value, event)]));
  const text = format(template, params);
  return /\{\w+\}/.test(text) ? null : text;
}
