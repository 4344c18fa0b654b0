// Cards in the notations people type, as the engine reads them (thirtyone.cards.parse_card):
// canonical codes (AS, 10H, X1), T for ten, lower case, suit symbols (A♠), and the Russian
// (Т К Д В) and Italian (A R D F) rank letters before a suit symbol.
/** Suit letters in canonical order: clubs, diamonds, hearts, spades. */
export const SUITS = ["C", "D", "H", "S"];
/** Ranks from lowest to highest; jokers are X1 and X2. */
export const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
const SYMBOLS = {
    "♣": "C", "♧": "C", "♦": "D", "♢": "D", "♥": "H", "♡": "H", "♠": "S", "♤": "S",
};
const LETTERS = {
    en: { J: "J", Q: "Q", K: "K", A: "A" },
    ru: { J: "В", Q: "Д", K: "К", A: "Т" },
    it: { J: "F", Q: "D", K: "R", A: "A" },
};
const LOCAL_RANKS = {
    Т: "A", К: "K", Д: "Q", В: "J", R: "K", D: "Q", F: "J", A: "A",
};
const SUIT_SYMBOL = { C: "♣", D: "♦", H: "♥", S: "♠" };
/** The canonical code of a card typed in any notation the API reads, or an error naming it. */
export function parseCard(text) {
    const upper = text.normalize("NFC").trim().toUpperCase();
    if (upper === "X1" || upper === "X2")
        return upper;
    const rankText = upper.slice(0, -1);
    const suitText = upper.slice(-1);
    let suit;
    let rank;
    if (suitText in SYMBOLS) {
        suit = SYMBOLS[suitText];
        rank = LOCAL_RANKS[rankText] ?? canonicalRank(rankText);
    }
    else if (SUITS.includes(suitText)) {
        suit = suitText;
        rank = canonicalRank(rankText);
    }
    if (suit === undefined || rank === undefined)
        throw new Error(`not a card: ${JSON.stringify(text)}`);
    return rank + suit;
}
function canonicalRank(text) {
    if (text === "T")
        return "10";
    return RANKS.includes(text) ? text : undefined;
}
/** Several cards: a list, or one string of codes separated by spaces or commas. */
export function parseCards(cards) {
    const items = typeof cards === "string" ? cards.replace(/,/g, " ").split(/\s+/).filter(Boolean) : cards;
    return items.map(parseCard);
}
/** A card's short label in a language's notation: "Д♠" (ru), "R♦" (it), "10♥". */
export function cardLabel(code, language = "en") {
    const card = parseCard(code);
    if (card.startsWith("X"))
        return "🃏";
    const rank = card.slice(0, -1);
    return (LETTERS[language][rank] ?? rank) + SUIT_SYMBOL[card.slice(-1)];
}
