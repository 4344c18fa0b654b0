// The reader of conformance/readers/hand-table.ts (the docs' standalone reader), compiled by
// `npm run check`, against every hand vector.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { readHandTable } from "../build/reader/hand-table.js";

const tables = new URL("../build/tables/", import.meta.url);
const vectors = JSON.parse(readFileSync(new URL("../../../conformance/hands.json", import.meta.url), "utf8"));
const index = JSON.parse(readFileSync(new URL("index.json", tables), "utf8"));

test("the standalone reader gives every hand vector's value and rank", () => {
  assert.equal(index.length, vectors.cases.length);
  vectors.cases.forEach((rules, number) => {
    assert.deepEqual([index[number].variant, index[number].options], [rules.variant, rules.options]);
    const score = readHandTable(new Uint8Array(readFileSync(new URL(index[number].file, tables))));
    for (const hand of rules.hands) {
      assert.deepEqual(score(hand.cards), { points: hand.points, category: hand.category, rank: hand.rank });
    }
  });
});
