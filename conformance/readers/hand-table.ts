// A reader of the portable hand tables (format 1) with nothing but the platform: copy it into
// any TypeScript or JavaScript project. Tables: `thirtyone tables export VARIANT` or
// GET /v1/hand-tables/{variant}. Tested against conformance/hands.json (clients/ts/test).
export type Value = { points: number; category: string; rank: number };

export function readHandTable(bytes: Uint8Array): (cards: string[]) => Value {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const magic = String.fromCharCode(...bytes.subarray(0, 4));
  if (magic !== "T31H" || bytes[4] !== 1) throw new Error("not a hand table of format 1");
  if (crc32(bytes.subarray(0, bytes.length - 4)) !== view.getUint32(bytes.length - 4, true)) {
    throw new Error("damaged hand table");
  }
  const width = bytes[5]!;
  const size = view.getUint32(6, true);
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(10, 10 + size)));
  const deck = new Map<string, number>(header.deck.map((card: string, i: number) => [card, i]));
  const classes: [number, string, number][] = header.classes;
  const start = 10 + size;
  return (cards) => {
    // canonical codes (AS, 10H, X1); three distinct cards of the table's deck
    const [a, b, c] = cards.map((card) => {
      const index = deck.get(card);
      if (index === undefined) throw new Error(`${card} is not in the deck`);
      return index;
    }).sort((x, y) => x - y) as [number, number, number];
    if (cards.length !== 3 || a === b || b === c) throw new Error("not three distinct cards");
    const position = (c * (c - 1) * (c - 2)) / 6 + (b * (b - 1)) / 2 + a;
    const id = width === 1 ? bytes[start + position]! : view.getUint16(start + 2 * position, true);
    const [points, category, rank] = classes[id]!;
    return { points, category, rank };
  };
}

function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? 0xedb88320 ^ (crc >>> 1) : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}
