// The page's texts, card names and categories, in the page's language: the server puts them
// in the page as a JSON data block, from the same catalogs as the API's answers.
import { format } from "./dom.js";

const DATA = JSON.parse(document.getElementById("play-data").textContent);

export const LANGUAGE = DATA.language;
export const LANGUAGES = DATA.languages;
/** The computer players' levels, by id, each with its localized name; and the default one. */
export const LEVELS = DATA.levels;
export const DEFAULT_LEVEL = DATA.default_level;
/** The label `thirtyone.record` derives a deal's seed with, to check a record by its formula. */
export const SEED_LABEL = DATA.seed_label;
/** The events' sentences as templates (play.py `event_templates`). */
export const EVENT_TEMPLATES = DATA.events ?? { messages: {}, plurals: {}, sources: {} };

const PLURAL_RULES = new Intl.PluralRules(LANGUAGE);
const NUMBER = new Intl.NumberFormat(LANGUAGE);
const SIGNED = new Intl.NumberFormat(LANGUAGE, { signDisplay: "exceptZero" });

/** The interface text `key`, its `{placeholders}` filled from `params`. */
export function t(key, params = {}) {
  return format(DATA.texts[key] ?? key, params);
}

/**
 * The counted text `key` ("2 lives", «2 жизни») in the form the language's plural rules give
 * for `count`; `signed` writes a change or a balance with its sign ("+3 chips", "−1 chip").
 */
export function tn(key, count, { signed = false, ...params } = {}) {
  const forms = DATA.plurals[key];
  const category = PLURAL_RULES.select(Math.abs(count));
  const template = forms[category] ?? forms.many ?? forms.other;
  const shown = signed ? SIGNED.format(count) : NUMBER.format(count);
  return format(template, { ...params, count: shown });
}

/** A hand's points as a number: "27", a half as "30½". */
export function pointsNumber(points) {
  const whole = Math.trunc(points);
  return points - whole === 0.5 ? `${NUMBER.format(whole)}½` : NUMBER.format(points);
}

/** A hand's points as words: whole numbers by the plural rules, a half as "30½ points". */
export function pointsText(points) {
  if (Number.isInteger(points)) return tn("points_n", points);
  return format(DATA.fraction, { points: pointsNumber(points) });
}

// The pack the table's cards are named by: the Italian regional pack (coppe, denari, bastoni,
// spade) for the deck italian40 of "Il 31", the French pack otherwise.
let pack = "french";

/** Name and draw the cards of `deck` (a deck id) by its pack from now on. */
export function usePack(deck) {
  pack = deck === "italian40" ? "italian" : "french";
}

/** The pack the cards are named and drawn by: "italian" or "french". */
export const currentPack = () => pack;

/** A card's localized name ("туз пик"; "cavallo di coppe" in the Italian pack), or
"face-down card" for a hidden card. */
export function cardName(code) {
  if (!code) return t("hidden_card");
  const names = pack === "italian" ? DATA.italian_cards : DATA.cards;
  return names[code] ?? DATA.cards[code] ?? code;
}

/** A hand category's localized name ("Cards of one suit"). */
export function categoryName(category) {
  return DATA.categories[category] ?? "";
}
