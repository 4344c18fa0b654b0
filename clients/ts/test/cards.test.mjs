import { test } from "node:test";
import assert from "node:assert/strict";
import { cardLabel, categoryName, parseCard, parseCards } from "../dist/index.js";

test("cards are read in the three languages' notations", () => {
  assert.deepEqual(parseCards(["as", "K♠", "x1", "td", "10h"]), ["AS", "KS", "X1", "10D", "10H"]);
  assert.deepEqual(parseCards("Т♥ К♣ Д♠ В♦"), ["AH", "KC", "QS", "JD"]);
  assert.deepEqual(parseCards("A♥, R♦, D♣, F♠"), ["AH", "KD", "QC", "JS"]);
  // D is diamonds in the canonical notation, the Italian queen only before a symbol
  assert.equal(parseCard("7D"), "7D");
  for (const bad of ["11S", "ZZ", "", "Д", "ДS"]) assert.throws(() => parseCard(bad), /not a card/);
});

test("labels and category names in each language", () => {
  assert.equal(cardLabel("QS", "ru"), "Д♠");
  assert.equal(cardLabel("KD", "it"), "R♦");
  assert.equal(cardLabel("10H"), "10♥");
  assert.equal(categoryName("three-of-a-kind", "it"), "Tris");
  assert.equal(categoryName("blitz", "ru"), "Блиц");
  assert.equal(categoryName("a-new-category", "ru"), "a-new-category");
});
