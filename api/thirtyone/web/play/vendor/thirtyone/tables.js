// Scoring and comparing hands from a portable hand table (GET /v1/hand-tables/{variant},
// `thirtyone tables export`): one lookup per hand, no request, no dependency.
import { parseCard } from "./cards.js";
const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++)
        c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
});
/** CRC-32 (ISO-HDLC, as zlib computes it). */
export function crc32(bytes) {
    let crc = 0xffffffff;
    for (const byte of bytes)
        crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
    return (crc ^ 0xffffffff) >>> 0;
}
export class HandTable {
    header;
    index;
    values;
    classOf;
    constructor(header, classOf) {
        this.header = header;
        this.classOf = classOf;
        this.index = new Map(header.deck.map((code, i) => [code, i]));
        this.values = header.classes.map(([points, category, rank]) => Object.freeze({ points, category, rank }));
    }
    /** Read the binary format: magic T31H, version 1, id width, header, ids, CRC-32. */
    static fromBinary(data) {
        const bytes = data instanceof Uint8Array ? data : new Uint8Array(data);
        const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
        const magic = String.fromCharCode(...bytes.subarray(0, 4));
        if (magic !== "T31H" || bytes[4] !== 1)
            throw new Error("not a hand table of format 1");
        if (crc32(bytes.subarray(0, -4)) !== view.getUint32(bytes.length - 4, true)) {
            throw new Error("damaged hand table: the checksum differs");
        }
        const width = bytes[5];
        const size = view.getUint32(6, true);
        const header = JSON.parse(new TextDecoder().decode(bytes.subarray(10, 10 + size)));
        const start = 10 + size;
        return new HandTable(header, width === 1
            ? (i) => bytes[start + i]
            : (i) => view.getUint16(start + 2 * i, true));
    }
    static fromJSON(table) {
        return new HandTable(table, (i) => table.hand_classes[i]);
    }
    /** The colex position of three distinct cards of the deck (any notation). */
    position(cards) {
        if (cards.length !== 3)
            throw new Error(`a hand has 3 cards, not ${cards.length}`);
        let a = this.indexOf(cards[0]);
        let b = this.indexOf(cards[1]);
        let c = this.indexOf(cards[2]);
        if (a > b)
            [a, b] = [b, a];
        if (b > c)
            [b, c] = [c, b];
        if (a > b)
            [a, b] = [b, a];
        if (a === b || b === c)
            throw new Error("a card appears twice in the hand");
        return (c * (c - 1) * (c - 2)) / 6 + (b * (b - 1)) / 2 + a;
    }
    /** A card's deck index: canonical codes at once, other notations parsed first. */
    indexOf(card) {
        const index = this.index.get(card) ?? this.index.get(parseCard(card));
        if (index === undefined)
            throw new Error(`the card ${card} is not in the deck`);
        return index;
    }
    /** What a hand of three cards is worth under the table's rules (a shared, frozen value). */
    score(cards) {
        const value = this.values[this.classOf(this.position(cards))];
        if (value === undefined)
            throw new Error("damaged hand table: no such class");
        return value;
    }
    /** Hands ranked best first; tied hands share a group (indices ascending). */
    compare(hands) {
        const ranks = hands.map((hand) => this.score(hand).rank);
        const order = [];
        const indices = ranks.map((_, i) => i).sort((x, y) => ranks[y] - ranks[x] || x - y);
        for (const index of indices) {
            const group = order[order.length - 1];
            if (group !== undefined && ranks[group[0]] === ranks[index])
                group.push(index);
            else
                order.push([index]);
        }
        return order;
    }
}
const CATEGORY_NAMES = {
    en: {
        blitz: "Blitz", "three-aces": "Three aces", "three-of-a-kind": "Three of a kind",
        suit: "Cards of one suit", "same-rank": "Cards of one rank", "high-card": "High card",
        "running-flush": "Running flush", run: "Run", flush: "Flush", pair: "Pair",
    },
    ru: {
        blitz: "Блиц", "three-aces": "Три туза", "three-of-a-kind": "Тройка",
        suit: "Карты одной масти", "same-rank": "Карты одного достоинства", "high-card": "Старшая карта",
        "running-flush": "Стрит-флеш", run: "Стрит", flush: "Флеш", pair: "Пара",
    },
    it: {
        blitz: "Blitz", "three-aces": "Tre assi", "three-of-a-kind": "Tris",
        suit: "Carte dello stesso seme", "same-rank": "Carte dello stesso valore", "high-card": "Carta alta",
        "running-flush": "Scala colore", run: "Scala", flush: "Colore", pair: "Coppia",
    },
};
/** A category's name as the API's catalogs say it (an unknown category: its id). */
export function categoryName(category, language = "en") {
    return CATEGORY_NAMES[language][category] ?? category;
}
