// One table as one seat sees it: the seats, the cards on the table, this seat's hand, the
// moves the API says are legal now (and only those), the round's result, the invitations and
// the events as they happen. The API decides every rule; this module only shows its answers.
import { ApiError, getAdvice, getTable, openStream, playMove, scoreHand, variants } from "./api.js";
import { h } from "./dom.js";
import { cardName, categoryName, LANGUAGE, t } from "./i18n.js";
import { inviteLink, seatLink } from "./links.js";
import { recall } from "./storage.js";

const LOG_LENGTH = 200;
const RECONNECT_MS = 1000;
const HAND_SIZE = 3;

/** A card as an image: its face (or back) drawn by the server, its name for assistive tools. */
function card(code, extra = "") {
  const name = cardName(code);
  const src = code ? `/play/cards/${code}.svg?lang=${LANGUAGE}` : "/play/cards/back.svg";
  return h("img", {
    class: `card ${extra}`.trim(), src, alt: name, "aria-label": name,
    "data-card": code ?? "", draggable: "false",
  });
}

/** A control that plays `move`, exactly as the API listed it. */
function moveButton(move, label, ...content) {
  return h("button", {
    type: "button", class: content.length ? "card-button" : "move",
    "data-move": JSON.stringify(move), "data-focus": `move:${JSON.stringify(move)}`,
    "aria-label": content.length ? label : null,
  }, content.length ? content : label);
}

const TITLE = document.title;

const sameSet = (list, set) => list.length === set.size && list.every((item) => set.has(item));

/** A move's JSON with its fields in one order, to know the same move from two answers (a
legal move's `description` is words about it, not part of it). */
const moveKey = (move) => JSON.stringify(Object.keys(move).filter((name) => name !== "description")
  .sort().map((name) => [name, move[name]]));

export class TableView {
  constructor(table, key) {
    this.table = table;
    this.key = key;
    this.answer = null;
    this.variant = null;
    this.facts = recall(table);
    this.events = [];
    this.lastEvent = -1;
    this.streamOver = false;
    this.raceTotal = null;
    this.give = new Set();
    this.take = new Set();
    this.busy = false;
    this.error = "";
    this.online = true;
    this.stream = null;
    this.retry = null;
    this.closed = false;
    this.refreshing = null;
    // What the API says of this seat's hand, by the hand's cards.
    this.scores = new Map();
    // The hint asked for at this version: `{version}` while on its way, then its `advice`
    // (the API's answer) or its `error`.
    this.hint = null;
    // The control the keyboard was on, kept while redrawing takes the focus away.
    this.focus = null;
    this.element = h("section", { class: "table", id: "table", "aria-busy": "true" },
      h("p", { class: "loading" }, t("loading")));
    this.element.addEventListener("click", (event) => this.clicked(event));
  }

  async start() {
    try {
      const [answer, list] = await Promise.all([getTable(this.table, this.key), variants()]);
      this.variant = list.variants.find((variant) => variant.id === answer.variant) ?? null;
      this.show(answer);
      this.listen();
    } catch (error) {
      this.fail(error);
    }
  }

  /** Follow the table's stream from the last version seen; from the first one on opening,
  so a reloaded page gets the whole story of the table again. */
  listen() {
    this.stream = openStream(this.table, this.key, Math.max(this.lastEvent, 0), {
      onMessage: (data, id) => this.streamed(data, id),
      onOpen: () => this.connected(true),
      onLost: () => {
        this.stream = null;
        // Once the match is over the server ends the stream: nothing more will come.
        if (this.streamOver || this.answer?.is_over || this.closed) return;
        this.connected(false);
        this.retry = setTimeout(() => this.listen(), RECONNECT_MS);
      },
    });
  }

  close() {
    this.closed = true;
    document.title = TITLE;
    clearTimeout(this.retry);
    this.stream?.close();
    this.stream = null;
  }

  /** A table that is gone (or a key that opens nothing) ends the page's table; any other
  failure (a store briefly down) is shown, and the next push or move tries again. */
  fail(error) {
    const gone = error instanceof ApiError && (error.status === 404 || error.status === 403);
    if (this.answer && !gone) {
      this.error = error.message;
      this.render();
      return;
    }
    this.close();
    this.element.replaceChildren(
      h("p", { class: "error", role: "alert" }, gone ? t("gone") : error.message),
      h("p", {}, h("a", { href: location.pathname + location.search }, t("new_game"))));
  }

  /** A newer answer replaces the shown one; an older one (a late stream message) is ignored. */
  show(answer) {
    if (this.answer && answer.version < this.answer.version) return;
    if (!this.answer || answer.version !== this.answer.version) {
      this.give.clear();
      this.take.clear();
      this.error = "";
      this.hint = null;
    }
    this.answer = { ...this.answer, ...answer };
    this.render();
  }

  streamed(data, id) {
    const version = data.version ?? Number(id);
    if (version <= this.lastEvent) return;
    this.lastEvent = version;
    this.streamOver = Boolean(data.is_over);
    const total = this.raceTotal;
    for (const event of data.events ?? []) {
      if (event.type === "took") this.raceTotal = event.total;
      this.events.push(event.message);
    }
    this.events.splice(0, Math.max(0, this.events.length - LOG_LENGTH));
    if (version > this.answer.version) {
      // The stream carries the seat's view; the moves it may make come with the table itself.
      if (Array.isArray(data.legal_moves) && "to_move" in data) this.show({ ...data, version });
      else this.refresh();
    } else if (this.raceTotal !== total) {
      this.render();
    } else {
      this.renderLog();
    }
  }

  /** Ask for the table again; asks made while one is on the way share one follow-up. */
  refresh() {
    if (this.refreshing) {
      this.refreshing.again = true;
      return this.refreshing.done;
    }
    const refreshing = { again: false };
    this.refreshing = refreshing;
    refreshing.done = getTable(this.table, this.key)
      .then((answer) => this.show(answer))
      .catch((error) => this.fail(error))
      .finally(() => {
        this.refreshing = null;
        if (refreshing.again) return this.refresh();
        return undefined;
      });
    return refreshing.done;
  }

  connected(open) {
    if (open === this.online) return;
    this.online = open;
    // Moves made while the stream was down arrive when it resumes; the table may have moved on.
    if (open) this.refresh();
    this.render();
  }

  async play(move) {
    if (this.busy) return;
    this.busy = true;
    this.error = "";
    this.render();
    try {
      const answer = await playMove(this.table, this.key, move, this.answer.version);
      // The moves this seat may make next come with the table, if not with the move's answer.
      if (Array.isArray(answer.legal_moves) && "to_move" in answer) this.show(answer);
      else await this.refresh();
    } catch (error) {
      if (error instanceof ApiError && error.problem?.code === "stale_version") {
        await this.refresh();
      } else {
        this.error = t("failed", { detail: error.message });
      }
    }
    this.busy = false;
    this.render();
  }

  clicked(event) {
    const control = event.target.closest("[data-move], [data-select], [data-copy], [data-hint]");
    if (!control || control.disabled) return;
    if (control.hasAttribute("data-hint")) {
      this.askHint();
    } else if (control.dataset.move) {
      this.play(JSON.parse(control.dataset.move));
    } else if (control.dataset.copy) {
      this.copy(control);
    } else {
      const [kind, value] = control.dataset.select.split(":");
      if (kind === "clear") {
        this.give.clear();
        this.take.clear();
        this.render();
        return;
      }
      const chosen = kind === "give" ? this.give : this.take;
      const item = kind === "give" ? value : Number(value);
      if (chosen.has(item)) chosen.delete(item);
      else chosen.add(item);
      this.render();
    }
  }

  /** The seat's own advice for this version, from the API (which sees only this seat's
  view). An exchange advised is chosen on the table, so its Exchange control appears. */
  async askHint() {
    const { version } = this.answer;
    // One question at a time; the button keeps the focus meanwhile.
    if (this.hint?.version === version && !this.hint.advice && !this.hint.error) return;
    this.hint = { version };
    this.render();
    let hint;
    try {
      hint = { version, advice: await getAdvice(this.table, this.key) };
    } catch (error) {
      hint = { version, error: error.message };
    }
    // The table may have moved on while the hint was on its way: that hint is of no use.
    if (this.answer.version !== version) return;
    this.hint = hint;
    const best = hint.advice?.moves[hint.advice.best].move;
    if (best?.type === "exchange") {
      this.give = new Set(best.give);
      this.take = new Set(best.take);
    }
    this.render();
  }

  async copy(button) {
    try {
      await navigator.clipboard.writeText(button.dataset.copy);
      button.textContent = t("copied");
    } catch {
      // Without clipboard access (a page served over plain HTTP), the link stays selectable.
      window.getSelection()?.selectAllChildren(button.previousElementSibling);
    }
  }

  // Rendering: the whole table is drawn again from the answer, and the focus goes back to
  // the control that had it (or to the first move) so the keyboard never loses its place;
  // while a move is on its way the controls are disabled, so the focus waits for the answer.

  render() {
    const { answer } = this;
    if (!answer) return;
    const active = document.activeElement;
    if (this.element.contains(active)) {
      this.focus = active.closest("[data-focus]")?.dataset.focus ?? "";
    } else if (active && active !== document.body) {
      this.focus = null;
    }
    const moves = answer.legal_moves ?? [];
    const table = this.element;
    if (answer.phase === "waiting") {
      // No card is dealt until every invited seat is claimed: the invitations meanwhile.
      table.setAttribute("aria-busy", "false");
      table.dataset.version = answer.version;
      table.replaceChildren(h("p", { class: "status", role: "status" }, t("waiting_players")),
        this.invites());
      return;
    }
    table.setAttribute("aria-busy", String(this.busy));
    table.dataset.seat = answer.seat ?? "";
    table.dataset.version = answer.version;
    table.dataset.toMove = answer.to_move ?? "";
    table.dataset.over = String(Boolean(answer.is_over));
    table.dataset.family = this.variant?.family ?? "";
    // A player in another tab sees from the tab's title that the table waits for them.
    const waiting = !answer.is_over && moves.length > 0;
    document.title = waiting ? `${t("your_turn")} ${TITLE}` : TITLE;
    table.replaceChildren(...[
      this.status(),
      this.error ? h("p", { class: "error", role: "alert" }, this.error) : null,
      this.online ? null : h("p", { class: "warning", role: "status" }, t("offline")),
      h("div", { class: "board" },
        this.seats(),
        this.centre(moves),
        this.hand(moves),
        this.actions(moves)),
      this.result(),
      this.invites(),
      h("section", { class: "log" }, h("h2", {}, t("log")), h("ol", { class: "events" })),
    ].filter(Boolean));
    this.renderLog();
    this.markHint();
    if (this.busy) {
      for (const control of table.querySelectorAll("button[data-move], button[data-select]")) {
        control.disabled = true;
      }
    }
    if (this.focus === null) return;
    const again = [...table.querySelectorAll("[data-focus]")]
      .find((element) => element.dataset.focus === this.focus && !element.disabled)
      ?? table.querySelector("[data-move]:not(:disabled)");
    again?.focus({ preventScroll: true });
  }

  /** The control of the advised move stands out, and says why to assistive tools. */
  markHint() {
    const advice = this.hint?.advice;
    if (!advice) return;
    const best = moveKey(advice.moves[advice.best].move);
    for (const control of this.element.querySelectorAll("[data-move]")) {
      if (moveKey(JSON.parse(control.dataset.move)) !== best) continue;
      control.classList.add("advised");
      control.dataset.advised = "true";
      control.setAttribute("aria-describedby", "advice");
    }
  }

  /** The Hint button on this seat's turn, and the hint once it came. */
  advice(moves) {
    const { answer } = this;
    if (!this.key || answer.is_over || answer.to_move !== answer.seat || !moves.length) {
      return null;
    }
    const asking = this.hint !== null && !this.hint.advice && !this.hint.error;
    const button = h("button", {
      type: "button", class: "move secondary", "data-hint": "", "data-focus": "hint",
      "aria-busy": String(asking), "aria-controls": "advice",
    }, asking ? t("hint_asking") : t("hint"));
    let text = null;
    if (this.hint?.error) {
      text = t("hint_failed", { detail: this.hint.error });
    } else if (this.hint?.advice) {
      const advice = this.hint.advice;
      const best = advice.moves[advice.best];
      const number = new Intl.NumberFormat(LANGUAGE, { maximumFractionDigits: 2 });
      text = [h("strong", { class: "advice-move" }, t("hint_best", { move: best.description })),
        " ", h("span", { class: "advice-value" }, t("hint_value", {
          value: number.format(best.value), stderr: number.format(best.stderr),
          measure: advice.measure_description, samples: advice.samples,
        }))];
    }
    return [button, h("p", { class: "advice", id: "advice", role: "status" }, text)];
  }

  renderLog() {
    const list = this.element.querySelector(".events");
    if (!list) return;
    list.replaceChildren(...this.events.map((message) => h("li", {}, message)));
    list.scrollTop = list.scrollHeight;
  }

  status() {
    const { answer } = this;
    const view = answer.view;
    let text;
    if (answer.is_over) {
      const winners = view.winners ?? [];
      if (winners.includes(answer.seat)) text = `${t("match_over")} ${t("you_won")}`;
      else if (winners.length === 1) text = `${t("match_over")} ${t("winner", { seat: winners[0] })}`;
      else text = `${t("match_over")} ${t("winners", { seats: winners.join(", ") })}`;
    } else if (answer.to_move === null || answer.to_move === undefined) {
      text = t("between_rounds", { round: view.round });
    } else if (answer.to_move === answer.seat) {
      text = t("your_turn");
    } else {
      text = t("to_move", { seat: answer.to_move });
    }
    return h("header", { class: "status" },
      h("h2", { role: "status" }, text),
      this.variant ? h("p", {}, t("game_round", { variant: this.variant.name, round: view.round }))
        : null);
  }

  isBot(seat) {
    const entry = (this.answer.seats ?? []).find((item) => item.seat === seat);
    return Boolean(entry?.bot);
  }

  /** The figures that matter for this game's settlement: lives, chips or points. */
  figures(standing) {
    const settlement = this.variant?.settlement;
    const shown = [];
    if (settlement === "lives") shown.push(["lives", standing.lives]);
    if (settlement === "pot" || settlement === "escalating" || standing.chips) {
      shown.push(["chips", standing.chips]);
    }
    if (settlement === "points") shown.push(["points", standing.points]);
    return h("dl", { class: "figures" }, shown.map(([name, value]) =>
      h("div", {}, h("dt", {}, t(name)), h("dd", {}, value))));
  }

  seats() {
    const { answer } = this;
    const view = answer.view;
    return h("ol", { class: "seats", start: 0 }, view.seats.map((standing, seat) => {
      const badges = [
        seat === answer.seat && t("you"),
        this.isBot(seat) && t("bot"),
        seat === view.dealer && t("dealer"),
        seat === view.knocker && t("knocker"),
        standing.free_ride && t("free_ride"),
        standing.eliminated && t("eliminated"),
      ].filter(Boolean);
      const classes = ["seat",
        seat === answer.to_move && "to-move",
        seat === answer.seat && "mine",
        standing.eliminated && "out"].filter(Boolean).join(" ");
      const hand = seat === answer.seat ? [] : view.hands[seat] ?? [];
      return h("li", { class: classes, "data-seat-index": seat,
        "aria-current": seat === answer.to_move ? "true" : null },
        h("div", { class: "seat-name" }, h("strong", {}, t("seat", { seat })),
          badges.map((badge) => h("span", { class: "badge" }, badge))),
        this.figures(standing),
        hand.length ? h("div", { class: "cards small", "data-hand-seat": seat },
          hand.map((code) => card(code))) : null);
    }));
  }

  /** Stock, discard pile, widow, table hands or the race's layout, and the pot. */
  centre(moves) {
    const view = this.answer.view;
    const family = this.variant?.family;
    const parts = [];
    const drawStock = moves.find((move) => move.type === "draw" && move.source === "stock");
    const drawDiscard = moves.find((move) => move.type === "draw" && move.source === "discard");
    if (family !== "race" && (view.stock || drawStock)) {
      const pile = card(null, "pile");
      parts.push(h("figure", { class: "stock" },
        drawStock ? moveButton(drawStock, t("move_draw_stock"), pile) : pile,
        h("figcaption", {}, `${t("stock")}: ${view.stock}`)));
    }
    if (family === "race") {
      parts.push(h("figure", { class: "taken" },
        h("div", { class: "cards small" }, view.discard.map((code) => card(code))),
        h("figcaption", {}, `${t("taken")} · ${t("total")}: ${
          view.result?.total ?? this.raceTotal ?? 0}`)));
    } else if (view.discard.length || drawDiscard) {
      const top = view.discard.at(-1) ?? null;
      const face = top ? card(top, "pile") : h("span", { class: "empty" }, t("empty"));
      parts.push(h("figure", { class: "discard" },
        drawDiscard ? moveButton(drawDiscard, t("move_draw_discard", { card: cardName(top) }), face)
          : face,
        h("figcaption", {}, t("discard_pile"))));
    }
    if (view.table.length) parts.push(this.tableCards(moves));
    if (this.variant?.settlement === "pot" || this.variant?.settlement === "escalating" || view.pot) {
      parts.push(h("p", { class: "pot" }, `${t("pot")}: ${view.pot}`));
    }
    return h("div", { class: "centre" }, parts);
  }

  tableCards(moves) {
    const view = this.answer.view;
    const family = this.variant?.family;
    const takeable = new Set(moves.filter((move) => move.type === "exchange")
      .flatMap((move) => move.take));
    const cell = (code, position) => {
      if (family === "race") {
        const take = moves.find((move) => move.type === "take" && move.card === code);
        return take ? moveButton(take, t("move_take", { card: cardName(code) }), card(code))
          : card(code);
      }
      if (!takeable.has(position)) return card(code);
      const chosen = this.take.has(position);
      return h("button", {
        type: "button", class: "card-button", "data-select": `take:${position}`,
        "data-focus": `take:${position}`, "aria-pressed": String(chosen),
      }, card(code, chosen ? "chosen" : ""));
    };
    const cells = view.table.map(cell);
    if (family === "switch") {
      // Two table hands of three: positions 0-2 and 3-5.
      const hands = [];
      for (let start = 0; start < cells.length; start += HAND_SIZE) {
        hands.push(h("figure", { class: "table-hand" },
          h("div", { class: "cards" }, cells.slice(start, start + HAND_SIZE)),
          h("figcaption", {}, t("table_hand", { hand: start / HAND_SIZE }))));
      }
      return h("div", { class: "table-hands" }, hands);
    }
    const caption = family === "race" ? t("layout")
      : family === "widow" || family === "draw" ? t("widow") : t("table_cards");
    return h("figure", { class: family === "race" ? "layout" : "widow" },
      h("div", { class: "cards" }, cells), h("figcaption", {}, caption));
  }

  /** This seat's cards: discards and exchange choices on them, Switch's two hands to keep. */
  hand(moves) {
    const { answer } = this;
    if (answer.seat === null || answer.seat === undefined) return null;
    const cards = answer.view.hands[answer.seat] ?? [];
    if (!cards.length) return null;
    const giveable = new Set(moves.filter((move) => move.type === "exchange")
      .flatMap((move) => move.give));
    const cell = (code) => {
      const discard = moves.find((move) => move.type === "discard" && move.card === code);
      if (discard) return moveButton(discard, t("move_discard", { card: cardName(code) }), card(code));
      if (!giveable.has(code)) return card(code);
      const chosen = this.give.has(code);
      return h("button", {
        type: "button", class: "card-button", "data-select": `give:${code}`,
        "data-focus": `give:${code}`, "aria-pressed": String(chosen),
      }, card(code, chosen ? "chosen" : ""));
    };
    const keeps = moves.filter((move) => move.type === "keep");
    let content;
    if (keeps.length) {
      // Switch's dealer holds two hands of three, the first then the second, and keeps one.
      content = h("div", { class: "hand-choices" }, keeps.map((move) => {
        const hand = cards.slice(move.hand * HAND_SIZE, (move.hand + 1) * HAND_SIZE);
        return h("figure", {},
          h("div", { class: "cards" }, hand.map(cell)),
          h("figcaption", {}, t("hand_n", { hand: move.hand }), this.describe(hand), " ",
            moveButton(move, t("move_keep"))));
      }));
    } else {
      content = h("div", { class: "cards", "data-hand-seat": answer.seat }, cards.map(cell));
    }
    return h("figure", { class: "hand" }, content,
      h("figcaption", {}, t("your_hand"), this.describe(cards)));
  }

  /** The hand's worth in words ("27 points in hearts"), as the API scores it by this table's
  rules; asked once per hand, and only of a whole hand of three known cards. */
  describe(cards) {
    if (cards.length !== HAND_SIZE || cards.includes(null)) return null;
    const hand = cards.join(" ");
    if (!this.scores.has(hand)) {
      this.scores.set(hand, null);
      scoreHand(this.answer.view.rules, cards)
        .then((score) => {
          this.scores.set(hand, score.description);
          this.render();
        })
        .catch(() => this.scores.delete(hand));
    }
    const description = this.scores.get(hand);
    return description ? h("span", { class: "worth" }, ` · ${description}`) : null;
  }

  /** Every other legal move as a button; an exchange once the chosen cards make one. */
  actions(moves) {
    const buttons = [];
    const exchanges = moves.filter((move) => move.type === "exchange");
    const cards = this.answer.view.hands[this.answer.seat] ?? [];
    const whole = exchanges.find((move) => move.give.length === cards.length);
    if (whole) buttons.push(moveButton(whole, t("move_exchange_all")));
    const chosen = exchanges.find((move) => sameSet(move.give, this.give)
      && sameSet(move.take, this.take));
    if (chosen && chosen !== whole) buttons.push(moveButton(chosen, t("move_exchange")));
    for (const move of moves) {
      const label = {
        knock: () => t("move_knock"),
        stand: () => t("move_stand"),
        next_round: () => t("move_next_round"),
        declare: () => t("move_declare"),
        pass: () => t("move_pass"),
        join: () => t("move_join"),
        reveal: () => t("move_reveal"),
        swap_hand: () => t("move_swap_hand", { hand: move.hand }),
        renew: () => t(move.face_up ? "move_renew_up" : "move_renew_down", { hand: move.hand }),
      }[move.type];
      if (label) buttons.push(moveButton(move, label()));
    }
    const hint = exchanges.length && exchanges.some((move) => move !== whole)
      ? h("p", { class: "hint" }, t("choose_exchange"),
        this.give.size || this.take.size
          ? h("button", { type: "button", class: "link", "data-select": "clear:" }, t("clear"))
          : null)
      : null;
    return h("div", { class: "actions" }, hint, buttons, this.advice(moves));
  }

  /** The settled round: why it ended, the hands shown with their points, what each lost. */
  result() {
    const view = this.answer.view;
    const result = view.result;
    if (!result || (view.phase !== "round_over" && view.phase !== "game_over")) return null;
    const reasonKey = `reason_${result.reason}`;
    const reason = t(reasonKey);
    const rows = (result.hands ?? []).map((shown, seat) => shown && h("li", {},
      h("strong", {}, t("seat", { seat })), " ",
      h("span", { class: "cards small" }, shown.cards.map((code) => card(code))), " ",
      h("span", { class: "score" }, `${t("points")}: ${shown.score.points}`,
        categoryName(shown.score.category) ? ` · ${categoryName(shown.score.category)}` : ""),
      result.lives_lost?.[seat] ? ` · ${t("lives_lost")}: ${result.lives_lost[seat]}` : ""));
    return h("section", { class: "result" },
      h("h2", {}, t("result", { round: result.round ?? view.round })),
      reason !== reasonKey ? h("p", {}, reason) : null,
      h("ul", { class: "shown" }, rows),
      // The server's seed is the one whose SHA-256 was published; the deal's derives from it.
      view.seed === null || view.seed === undefined ? null
        : this.seed(this.answer.server_seed ?? view.seed));
  }

  /** The seed, revealed at the end, checked against the fingerprint published at the start. */
  seed(seed) {
    const line = h("p", { class: "seed" }, t("seed", { seed }));
    const published = this.facts.seed_sha256 ?? this.answer.seed_sha256;
    if (published && crypto.subtle) {
      crypto.subtle.digest("SHA-256", new TextEncoder().encode(String(seed))).then((digest) => {
        const hex = [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0"))
          .join("");
        line.append(" ", t(hex === published ? "seed_ok" : "seed_bad"));
      });
    }
    return line;
  }

  invites() {
    const invites = this.facts.invites ?? [];
    const link = (url, seat) => h("li", {},
      seat === null ? null : h("span", {}, `${t("seat", { seat })}: `),
      h("a", { href: url, "data-invite": seat === null ? null : url, class: "invite" }, url), " ",
      h("button", { type: "button", class: "link", "data-copy": url }, t("copy")));
    return h("section", { class: "invites" },
      invites.length ? [
        h("h2", {}, t("invites")),
        h("p", {}, t("invite_hint")),
        h("ul", {}, invites.map(({ seat, invitation }) =>
          link(inviteLink(this.table, seat, invitation), seat))),
      ] : null,
      h("p", {}, t("your_link")),
      h("ul", {}, link(seatLink(this.table, this.key), null)));
  }
}
