// The page's texts, card names and categories, in the page's language: the server puts them
// in the page as a JSON data block, from the same catalogs as the API's answers.
import { format } from "./dom.js";

const DATA = JSON.parse(document.getElementById("play-data").textContent);

export const LANGUAGE = DATA.language;
export const LANGUAGES = DATA.languages;
/** The computer players' levels, by id, each with its localized name; and the default one. */
export const LEVELS = DATA.levels;
export const DEFAULT_LEVEL = DATA.default_level;

/** The interface text `key`, its `{placeholders}` filled from `params`. */
export function t(key, params = {}) {
  return format(DATA.texts[key] ?? key, params);
}

/** A card's localized name ("туз пик"), or "face-down card" for a hidden card. */
export function cardName(code) {
  return code ? DATA.cards[code] ?? code : t("hidden_card");
}

/** A hand category's localized name ("Cards of one suit"). */
export function categoryName(category) {
  return DATA.categories[category] ?? "";
}
