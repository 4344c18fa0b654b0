// The words the page builds (api/thirtyone/web/play/words.js): seats counted from 1, players
// named, the cards of a move named. The page's texts come from its data block, as the server
// writes it; here a few of the English ones stand in for it.
import assert from "node:assert/strict";
import { before, test } from "node:test";

const DATA = {
  language: "en", languages: {}, levels: {}, plurals: {}, categories: {},
  cards: { AS: "ace of spades", TH: "ten of hearts", "7C": "seven of clubs" },
  // As play.py's event_templates gives them in English.
  events: {
    messages: {
      shown: "Seat {seat} shows {points} points.", dealt: "Round {round}: seat {dealer} dealt.",
      hand_swapped: "Seat {seat} swapped their hand with table hand {hand}.",
      paid: "Seat {seat} paid {chips} chips into the pot.",
    },
    plurals: { paid: ["chips", { one: "Seat {seat} paid {chips} chip into the pot.",
      other: "Seat {seat} paid {chips} chips into the pot." }] },
    sources: { stock: "stock", discard: "discard pile" },
  },
  texts: {
    seat: "Seat {seat}", seat_you: "You", hidden_card: "face-down card",
    bot_names: "Ada, Ben, Cleo",
    you_won: "You won!", winner: "Winner: {name}.", winners: "Winners: {names}.",
    winners_you: "Winners: you and {names}.",
    mv_discarded: "{name} discards {card}.", mv_discarded_you: "You discard {card}.",
    mv_drew_stock: "{name} draws from the stock.",
    mv_drew_discard: "{name} takes {card} from the discard pile.",
    mv_exchanged: "{name} gives {gave} and takes {took}.",
    mv_knocked_you: "You knock.",
    seat_bot_played: "{name} (the computer played the seat)",
    your_seat_bot: "the computer in your seat",
  },
};

let words;
before(async () => {
  globalThis.document = { getElementById: () => ({ textContent: JSON.stringify(DATA) }) };
  words = await import("../../../api/thirtyone/web/play/words.js");
});

const table = {
  seat: 0,
  seats: [{ seat: 0, name: "Ann" }, { seat: 1, name: "Bea" }, { seat: 2, name: null, bot: "greedy" }],
  view: { winners: [] },
};

test("seats are counted from 1", () => {
  assert.equal(words.seatNumber(0), 1);
  assert.equal(words.seatWords(2), "Seat 3");
});

test("a seat is named: you, the player's name, else its number from 1", () => {
  assert.equal(words.seatName(table, 0), "You");
  assert.equal(words.seatName(table, 1), "Bea");
  // A computer player has a name of its own (the language's names, by seat).
  assert.equal(words.seatName(table, 2), "Cleo");
  assert.equal(words.botName(4), "Ben");
  assert.equal(words.seatName({ seat: null, seats: [] }, 2), "Seat 3");
  // A spectator has no seat of their own.
  assert.equal(words.seatName({ ...table, seat: null }, 0), "Ann");
});

test("a move names its player and its cards", () => {
  assert.equal(words.moveWords({ type: "discarded", seat: 1, card: "AS" }, table),
    "Bea discards ace of spades.");
  assert.equal(words.moveWords({ type: "discarded", seat: 0, card: "AS" }, table),
    "You discard ace of spades.");
  assert.equal(words.moveWords({ type: "drew", seat: 2, source: "stock" }, table),
    "Cleo draws from the stock.");
  assert.equal(words.moveWords({ type: "drew", seat: 1, source: "discard", card: "TH" }, table),
    "Bea takes ten of hearts from the discard pile.");
  assert.equal(words.moveWords({ type: "exchanged", seat: 1, count: 2, gave: ["AS", "7C"],
    took: ["TH", null] }, table),
  "Bea gives ace of spades, seven of clubs and takes ten of hearts, face-down card.");
  assert.equal(words.moveWords({ type: "knocked", seat: 0 }, table), "You knock.");
  // What is not a seat's move is said by the server's own message.
  assert.equal(words.moveWords({ type: "dealt", round: 1, dealer: 0 }, table), null);
  assert.equal(words.moveWords({ type: "shown", seat: 1, points: 31 }, table), null);
});

test("the winners: you are never a name in 'Winner: {name}'", () => {
  const over = (winners, seat = 0) => ({ ...table, seat, view: { winners } });
  assert.equal(words.winnersText(over([0])), "You won!");
  assert.equal(words.winnersText(over([0, 1])), "Winners: you and Bea.");
  assert.equal(words.winnersText(over([1])), "Winner: Bea.");
  assert.equal(words.winnersText(over([1, 2])), "Winners: Bea, Cleo.");
  assert.equal(words.winnersText(over([0], null)), "Winner: Ann.");
  assert.equal(words.winnersText(over([])), null);
});

test("a seat its player left is the computer's: it never wins for its player", () => {
  const left = {
    seat: 0,
    seats: [{ seat: 0, name: "Ann", bot: "greedy", claimed: true },
      { seat: 1, name: "Bea", bot: null, claimed: true },
      { seat: 2, name: null, bot: "greedy", claimed: false }],
    view: { winners: [0] },
  };
  assert.equal(words.departed(left, 0), true);
  assert.equal(words.departed(left, 1), false);
  // A computer player from the start left nothing.
  assert.equal(words.departed(left, 2), false);
  assert.equal(words.winnersText(left), "Winner: the computer in your seat.");
  assert.equal(words.winnersText({ ...left, seat: 1 }), "Winner: Ann (the computer played the seat).");
  assert.equal(words.winnersText({ ...left, seat: 1, view: { winners: [0, 1] } }),
    "Winners: you and Ann (the computer played the seat).");
});

test("the server's events say their seats counted from 1, in the page's templates", () => {
  assert.equal(words.eventText({ type: "shown", seat: 1, points: 30.5 }), "Seat 2 shows 30½ points.");
  assert.equal(words.eventText({ type: "dealt", round: 2, dealer: 0 }), "Round 2: seat 1 dealt.");
  assert.equal(words.eventText({ type: "paid", seat: 2, chips: 1 }), "Seat 3 paid 1 chip into the pot.");
  assert.equal(words.eventText({ type: "paid", seat: 2, chips: 3 }), "Seat 3 paid 3 chips into the pot.");
  assert.equal(words.eventText({ type: "hand_swapped", seat: 0, hand: 0 }),
    "Seat 1 swapped their hand with table hand 1.");
  // A template needing what the event lacks, or no template: the server's message stays.
  assert.equal(words.eventText({ type: "shown", seat: 1 }), null);
  assert.equal(words.eventText({ type: "unknown", seat: 1 }), null);
});
