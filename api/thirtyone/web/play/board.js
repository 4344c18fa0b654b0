// The table drawn from the API's answer: whose turn it is, the seats, the cards in the
// middle, this seat's hand and the moves it may make (only those the API listed), the hint.
// Each function takes the TableView and returns elements; none changes the table's state.
import { card, HAND_SIZE, moveButton, moveKey, sameSet } from "./cards.js";
import { h } from "./dom.js";
import { handTable, handValue } from "./handvalue.js";
import { categoryName, LANGUAGE, pointsNumber, t, tn } from "./i18n.js";
import { clock, presence, seatLabel } from "./life.js";
import { movesText, seatName, winnersText } from "./words.js";

// A sampled hint's worth is shown only from this many sampled deals on: fewer say too little.
const MIN_HINT_SAMPLES = 30;

// The moves made by pressing a card (or choosing cards, for an exchange), or on a hand of
// their own (keep), rather than by a button of their own.
const ON_CARDS = new Set(["draw", "discard", "take", "exchange", "keep"]);

/** Whose turn it is (and on this seat's turn, what it may do, in words), or who won. */
export function status(ui) {
  const { answer } = ui;
  const view = answer.view;
  let text;
  if (answer.is_over) {
    text = [t("match_over"), winnersText(answer)].filter(Boolean).join(" ");
  } else if (answer.to_move === null || answer.to_move === undefined) {
    text = t("between_rounds", { round: view.round });
  } else if (answer.to_move === answer.seat) {
    text = t("your_turn");
  } else {
    text = t("to_move", { name: seatName(answer, answer.to_move) });
  }
  const mine = !answer.is_over && answer.to_move === answer.seat && ui.key;
  const ways = mine ? movesText(answer.legal_moves ?? []) : null;
  return h("header", { class: "status" },
    h("h2", {}, text),
    ways ? h("p", { class: "ways", "data-ways": "" }, ways) : null,
    ui.variant ? h("p", {}, t("game_round", { variant: ui.variant.name, round: view.round }))
      : null);
}

/** The figures that matter for this game's settlement, in words: lives left, the chips
won or lost so far (a balance, with its sign), points. */
export function figures(ui, standing) {
  const settlement = ui.variant?.settlement;
  const shown = [];
  if (settlement === "lives") shown.push(tn("lives_n", standing.lives));
  if (settlement === "pot" || settlement === "escalating" || standing.chips) {
    shown.push(tn("chips_n", standing.chips, { signed: true }));
  }
  if (settlement === "points") shown.push(tn("points_n", standing.points));
  return h("p", { class: "figures" }, shown.join(" · "));
}

export function seats(ui) {
  const { answer } = ui;
  const view = answer.view;
  const last = ui.lastMove?.seat;
  return h("ol", { class: `seats${view.seats.length > 4 ? " many" : ""}`,
    // On a phone the row scrolls sideways: the keyboard can scroll it too.
    tabindex: "0", "aria-label": t("players") },
    view.seats.map((standing, seat) => {
      const badges = [
        ...presence(answer, seat),
        seat === view.dealer && t("dealer"),
        seat === view.knocker && t("knocker"),
        standing.free_ride && t("free_ride"),
        standing.eliminated && t("eliminated"),
      ].filter(Boolean);
      const classes = ["seat",
        seat === answer.to_move && "to-move",
        seat === answer.seat && "mine",
        seat === last && "last-actor",
        standing.eliminated && "out"].filter(Boolean).join(" ");
      const hand = seat === answer.seat ? [] : view.hands[seat] ?? [];
      return h("li", { class: classes, "data-seat-index": seat,
        "aria-current": seat === answer.to_move ? "true" : null },
        h("div", { class: "seat-name" }, seatLabel(answer, seat),
          badges.map((badge) => h("span", { class: "badge" }, badge))),
        figures(ui, standing),
        seat === answer.to_move ? clock(answer, seat) : null,
        hand.length ? h("div", { class: "cards small", "data-hand-seat": seat },
          hand.map((code) => card(code))) : null);
    }));
}

/** Stock, discard pile, widow, table hands or the race's layout, and the pot. */
export function centre(ui, moves) {
  const view = ui.answer.view;
  const family = ui.variant?.family;
  const parts = [];
  const drawStock = moves.find((move) => move.type === "draw" && move.source === "stock");
  const drawDiscard = moves.find((move) => move.type === "draw" && move.source === "discard");
  if (family !== "race" && (view.stock || drawStock)) {
    const pile = card(null, "pile");
    parts.push(h("figure", { class: "stock" },
      drawStock ? moveButton(drawStock, pile) : pile,
      h("figcaption", {}, `${t("stock")}: ${view.stock}`)));
  }
  if (family === "race") {
    parts.push(h("figure", { class: "taken" },
      h("div", { class: "cards small" }, view.discard.map((code) => card(code))),
      h("figcaption", {}, `${t("taken")} · ${t("total")}: ${
        view.result?.total ?? ui.raceTotal ?? 0}`)));
  } else if (view.discard.length || drawDiscard) {
    const top = view.discard.at(-1) ?? null;
    const marked = ui.lastMove?.type === "discarded" && ui.lastMove.card === top;
    const face = top ? card(top, marked ? "pile last" : "pile")
      : h("span", { class: "empty" }, t("empty"));
    parts.push(h("figure", { class: "discard" },
      drawDiscard ? moveButton(drawDiscard, face) : face,
      h("figcaption", {}, t("discard_pile"))));
  }
  if (view.table.length) parts.push(tableCards(ui, moves));
  if (ui.variant?.settlement === "pot" || ui.variant?.settlement === "escalating" || view.pot) {
    parts.push(h("p", { class: "pot" }, `${t("pot")}: ${tn("chips_n", view.pot)}`));
  }
  parts.push(h("p", { class: "last-move", "data-last-move": ui.lastMove ? "" : null },
    ui.lastMove ? `${t("last_move")}: ${ui.lastMove.words}` : null));
  return h("div", { class: "centre" }, parts);
}

/** The exchanges made by choosing cards: all but the whole hand's, which has a button of its
own (at Schwimmen's dealer choice it is the only one, and no card may be chosen then). */
function chosenExchanges(ui, moves) {
  const held = ui.answer.view.hands[ui.answer.seat]?.length ?? 0;
  return moves.filter((move) => move.type === "exchange" && move.give.length !== held);
}

/** The cards on the table: a widow, Switch's two table hands, the race's layout. */
export function tableCards(ui, moves) {
  const view = ui.answer.view;
  const family = ui.variant?.family;
  const takeable = new Set(chosenExchanges(ui, moves).flatMap((move) => move.take));
  // The cards the last exchange laid on the table keep its mark.
  const arrived = new Set(ui.lastMove?.type === "exchanged" ? ui.lastMove.gave ?? [] : []);
  const cell = (code, position) => {
    if (family === "race") {
      const take = moves.find((move) => move.type === "take" && move.card === code);
      return take ? moveButton(take, card(code)) : card(code);
    }
    const moved = arrived.has(code) ? "last" : "";
    if (!takeable.has(position)) return card(code, moved);
    const chosen = ui.take.has(position);
    return h("button", {
      type: "button", class: "card-button", "data-select": `take:${position}`,
      "data-focus": `take:${position}`, "aria-pressed": String(chosen),
    }, card(code, chosen ? "chosen" : moved));
  };
  const cells = view.table.map(cell);
  if (family === "switch") {
    // Two table hands of three: positions 0-2 and 3-5.
    const hands = [];
    for (let start = 0; start < cells.length; start += HAND_SIZE) {
      hands.push(h("figure", { class: "table-hand" },
        h("div", { class: "cards" }, cells.slice(start, start + HAND_SIZE)),
        h("figcaption", {}, t("table_hand", { hand: start / HAND_SIZE + 1 }))));
    }
    return h("div", { class: "table-hands" }, hands);
  }
  const caption = family === "race" ? t("layout")
    : family === "widow" || family === "draw" ? t("widow") : t("table_cards");
  return h("figure", { class: family === "race" ? "layout" : "widow" },
    h("div", { class: "cards" }, cells), h("figcaption", {}, caption));
}

/** This seat's cards: discards and exchange choices on them, Switch's two hands to keep. */
export function hand(ui, moves) {
  const { answer } = ui;
  if (answer.seat === null || answer.seat === undefined) return null;
  const cards = answer.view.hands[answer.seat] ?? [];
  if (!cards.length) return null;
  const giveable = new Set(chosenExchanges(ui, moves).flatMap((move) => move.give));
  // The cards this seat's last exchange took keep its mark.
  const last = ui.lastMove;
  const taken = new Set(last?.type === "exchanged" && last.seat === answer.seat ? last.took ?? [] : []);
  const cell = (code) => {
    const moved = taken.has(code) ? "last" : "";
    const discard = moves.find((move) => move.type === "discard" && move.card === code);
    if (discard) return moveButton(discard, card(code, moved));
    if (!giveable.has(code)) return card(code, moved);
    const chosen = ui.give.has(code);
    return h("button", {
      type: "button", class: "card-button", "data-select": `give:${code}`,
      "data-focus": `give:${code}`, "aria-pressed": String(chosen),
    }, card(code, chosen ? "chosen" : moved));
  };
  const keeps = moves.filter((move) => move.type === "keep");
  let content;
  if (keeps.length) {
    // Switch's dealer holds two hands of three, the first then the second, and keeps one.
    content = h("div", { class: "hand-choices" }, keeps.map((move) => {
      const hand = cards.slice(move.hand * HAND_SIZE, (move.hand + 1) * HAND_SIZE);
      return h("figure", {},
        h("div", { class: "cards" }, hand.map(cell)),
        h("figcaption", {}, t("hand_n", { hand: move.hand + 1 }), describe(ui, hand), " ",
          moveButton(move)));
    }));
  } else {
    content = h("div", { class: "cards", "data-hand-seat": answer.seat }, cards.map(cell));
  }
  return h("figure", { class: "hand" }, content,
    h("figcaption", {}, t("your_hand"), describe(ui, cards)));
}

/** The hand's value ("value: 27 (Cards of one suit)"), scored in the page from the table's
hand table (handvalue.js): no request per hand; nothing until the table is loaded, and only
for a whole hand of three known cards. */
export function describe(ui, cards) {
  if (cards.length !== HAND_SIZE || cards.includes(null)) return null;
  const table = handTable(ui.answer.view.rules, () => ui.render());
  const value = table && handValue(table, cards);
  if (!value) return null;
  const text = t("hand_value", { points: pointsNumber(value.points),
    category: categoryName(value.category) });
  return h("span", { class: "worth", "data-points": value.points,
    "data-category": value.category }, ` · ${text}`);
}

/** Every other legal move as a button; an exchange once the chosen cards make one. */
export function actions(ui, moves) {
  const buttons = [];
  const exchanges = moves.filter((move) => move.type === "exchange");
  const cards = ui.answer.view.hands[ui.answer.seat] ?? [];
  const whole = exchanges.find((move) => move.give.length === cards.length);
  if (whole) buttons.push(moveButton(whole));
  const chosen = exchanges.find((move) => sameSet(move.give, ui.give)
    && sameSet(move.take, ui.take));
  if (chosen && chosen !== whole) buttons.push(moveButton(chosen));
  // Every move not made on a card or by choosing cards is a button of its own.
  for (const move of moves) {
    if (!ON_CARDS.has(move.type)) buttons.push(moveButton(move));
  }
  const hint = exchanges.length && exchanges.some((move) => move !== whole)
    ? h("p", { class: "hint" }, t("choose_exchange"),
      ui.give.size || ui.take.size
        ? h("button", { type: "button", class: "link", "data-select": "clear:" }, t("clear"))
        : null)
    : null;
  return h("div", { class: "actions" }, hint, buttons, advice(ui, moves));
}

/** The Hint button on this seat's turn, and the hint once it came. */
export function advice(ui, moves) {
  const { answer } = ui;
  if (!ui.key || answer.is_over || answer.to_move !== answer.seat || !moves.length) {
    return null;
  }
  // The table's rule: no Hint where its seats may not ask (the API would refuse it).
  if (answer.hints === "off" || ui.hintsOff) return null;
  const asking = ui.hint !== null && !ui.hint.advice && !ui.hint.error;
  const button = h("button", {
    type: "button", class: "move secondary", "data-hint": "", "data-focus": "hint",
    "aria-busy": String(asking), "aria-controls": "advice",
  }, asking ? t("hint_asking") : t("hint"));
  let text = null;
  if (ui.hint?.error) {
    text = t("hint_failed", { detail: ui.hint.error });
  } else if (ui.hint?.advice) {
    const advice = ui.hint.advice;
    const best = advice.moves[advice.best];
    const number = new Intl.NumberFormat(LANGUAGE, { maximumFractionDigits: 2 });
    // Exact values (the race's solver, a last turn after a knock) say so; sampled ones
    // give their standard error and their number of deals, and none from too few.
    let worth;
    if (advice.exact) {
      worth = t("hint_exact", { value: number.format(best.value),
        measure: advice.measure_description });
    } else if (advice.samples < MIN_HINT_SAMPLES) {
      worth = tn("hint_few", advice.samples);
    } else {
      const stderr = number.format(best.stderr);
      worth = t(stderr === number.format(0) ? "hint_value_even" : "hint_value", {
        value: number.format(best.value), stderr,
        measure: advice.measure_description, samples: advice.samples,
      });
    }
    text = [h("strong", { class: "advice-move" }, t("hint_best", { move: best.description })),
      " ", h("span", { class: "advice-value", "data-exact": String(Boolean(advice.exact)) },
        worth)];
  }
  return [button, h("p", { class: "advice", id: "advice" }, text)];
}

/** The control of the advised move stands out, and says why to assistive tools. */
export function markHint(ui) {
  const advice = ui.hint?.advice;
  if (!advice) return;
  const best = moveKey(advice.moves[advice.best].move);
  for (const control of ui.element.querySelectorAll("[data-move]")) {
    if (moveKey(JSON.parse(control.dataset.move)) !== best) continue;
    control.classList.add("advised");
    control.dataset.advised = "true";
    control.setAttribute("aria-describedby", "advice");
  }
}

/** While the stream is lost: that it is, and a control to try again without waiting. */
export function offline(ui) {
  if (ui.online) return null;
  return h("p", { class: "warning", "data-offline": "" }, t("offline"), " ",
    h("button", { type: "button", class: "link", "data-retry": "" }, t("retry_now")));
}
