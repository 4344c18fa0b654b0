// The package's hand scoring against the conformance vectors: every hand and comparison of
// conformance/hands.json, and every hand shown in the conformance games, from the tables
// that `thirtyone tables vectors build/tables` writes (make clients does).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { HandTable } from "../dist/index.js";

const root = new URL("../../../conformance/", import.meta.url);
const tables = new URL("../build/tables/", import.meta.url);
const vectors = JSON.parse(readFileSync(new URL("hands.json", root), "utf8"));
const index = JSON.parse(readFileSync(new URL("index.json", tables), "utf8"));
const key = (variant, options) => JSON.stringify([variant, Object.entries(options).sort()]);
const byRules = new Map(index.map((entry) => [key(entry.variant, entry.options),
  HandTable.fromBinary(readFileSync(new URL(entry.file, tables)))]));
const tableFor = (variant, options) => {
  const table = byRules.get(key(variant, options));
  assert.ok(table, `no table for ${variant} ${JSON.stringify(options)}`);
  return table;
};

test("every hand vector has its points, category and rank", () => {
  let checked = 0;
  for (const rules of vectors.cases) {
    const table = tableFor(rules.variant, rules.options);
    for (const hand of rules.hands) {
      assert.deepEqual(table.score(hand.cards),
        { points: hand.points, category: hand.category, rank: hand.rank },
        `${rules.variant} ${JSON.stringify(rules.options)} ${hand.cards.join(" ")}`);
      checked++;
    }
  }
  assert.ok(checked >= 1000, `only ${checked} hands`);
});

test("every comparison vector ranks its hands in order", () => {
  for (const rules of vectors.cases) {
    const table = tableFor(rules.variant, rules.options);
    for (const comparison of rules.comparisons) {
      assert.deepEqual(table.compare(comparison.hands), comparison.order);
    }
  }
});

test("every hand shown in the conformance games has its value", () => {
  const games = new URL("games/", root);
  let shown = 0;
  for (const name of readdirSync(games)) {
    const game = JSON.parse(gunzipSync(readFileSync(new URL(name, games))).toString("utf8"));
    const table = index.find((entry) => entry.variant === game.variant
      && Object.keys(entry.options).length === 0);
    const judge = byRules.get(key(table.variant, {}));
    for (const step of game.steps) {
      for (const event of step.events) {
        if (event.type !== "shown" || event.cards.length !== 3) continue;
        const value = judge.score(event.cards);
        assert.equal(value.points, event.points, `${name}: ${event.cards}`);
        assert.equal(value.category, event.category, `${name}: ${event.cards}`);
        shown++;
      }
    }
  }
  assert.ok(shown > 100, `only ${shown} hands shown`);
});

test("a damaged table is refused", () => {
  const bytes = new Uint8Array(readFileSync(new URL(index[0].file, tables)));
  bytes[bytes.length >> 1] ^= 1;
  assert.throws(() => HandTable.fromBinary(bytes), /checksum/);
});

test("hands that are not three cards of the deck are refused", () => {
  const table = tableFor("trentuno", {});
  assert.throws(() => table.score(["2S", "AS", "KS"]), /not in the deck/);
  assert.throws(() => table.score(["AS", "AS", "KS"]), /twice/);
  assert.throws(() => table.score(["AS", "KS"]), /3 cards/);
});
