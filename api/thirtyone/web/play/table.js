// One table as one seat sees it: the seats, the cards on the table, this seat's hand, the
// moves the API says are legal now (and only those), the round's result, the invitations and
// the events as they happen. The API decides every rule; this module only shows its answers.
import {
  ApiError, getAdvice, getRecord, getTable, leaveTable, openStream, playMove, recordAddress, rematch,
  scoreHand, startTable, variants,
} from "./api.js";
import { announce, h } from "./dom.js";
import { RoundHistory } from "./history.js";
import { cardName, categoryName, LANGUAGE, pointsText, t, tn } from "./i18n.js";
import { checkRecord, clock, presence, seatLabel, seatName, tick } from "./life.js";
import { inviteLink, seatLink } from "./links.js";
import { arrive, glide, positions } from "./motion.js";
import { recall, remember } from "./storage.js";
import { sha256 } from "./vendor/noble-hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "./vendor/noble-hashes/utils.js";

const LOG_LENGTH = 200;
const HAND_SIZE = 3;
// A lost stream is opened again after a wait that doubles from the first to the last, each
// drawn at random in its upper half, so that pages a restart cut off do not all come back
// at once; a server that says how long to wait (Retry-After) is obeyed.
const RECONNECT_MS = 1000;
const RECONNECT_MAX_MS = 30_000;
// A computer player's move is shown this long after the one before, so a person can follow;
// a long run of them at once (the rest of a match the humans are out of) is shown faster,
// in this much time at most.
const BOT_PAUSE_MS = 600;
const BOT_RUN_MS = 6000;
// A sampled hint's worth is shown only from this many sampled deals on: fewer say too little.
const MIN_HINT_SAMPLES = 30;

// The events that are a seat's own move (the others are what followed from it): a computer
// player's move is shown after a pause.
const ACTIONS = new Set(["drew", "discarded", "knocked", "stood", "exchanged", "passed",
  "joined", "sat_out", "declared", "took", "hand_swapped", "hand_kept", "renewed",
  "widow_revealed"]);

// The moves made by pressing a card (or choosing cards, for an exchange), or on a hand of
// their own (keep), rather than by a button of their own.
const ON_CARDS = new Set(["draw", "discard", "take", "exchange", "keep"]);

const pause = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });

/** A card as an image: its face (or back) drawn by the server, its name for assistive tools. */
function card(code, extra = "") {
  const name = cardName(code);
  const src = code ? `/play/cards/${code}.svg?lang=${LANGUAGE}` : "/play/cards/back.svg";
  return h("img", {
    class: `card ${extra}`.trim(), src, alt: name, "aria-label": name,
    "data-card": code ?? "", draggable: "false",
  });
}

/** A control that plays `move`, exactly as the API listed it, named by the API's own words
for it (`description`); `content` (a card) stands for the words on a card button. */
function moveButton(move, ...content) {
  return h("button", {
    type: "button", class: content.length ? "card-button" : "move",
    "data-move": JSON.stringify(move), "data-focus": `move:${JSON.stringify(move)}`,
    "aria-label": content.length ? move.description : null,
  }, content.length ? content : move.description);
}

const TITLE = document.title;

const sameSet = (list, set) => list.length === set.size && list.every((item) => set.has(item));

/** A move's JSON with its fields in one order, its words left out, to know the same move
from two answers (a hint's move has no description). */
const moveKey = (move) => JSON.stringify(Object.keys(move).filter((name) => name !== "description")
  .sort().map((name) => [name, move[name]]));

export class TableView {
  /** `onMoved({table, key})` takes the page to another table (a rematch). */
  constructor(table, key, onMoved) {
    this.table = table;
    this.key = key;
    this.onMoved = onMoved;
    // Leave asks once more before it hands the seat to the computer; a rematch is asked once.
    this.leaving = false;
    this.rematching = false;
    this.record = null;
    this.clockTimer = null;
    this.answer = null;
    this.variant = null;
    this.facts = recall(table);
    // Events are shown one by one, each version's in order: `queue` holds the versions not
    // shown yet, `queued` the last version taken in (from a move's answer or the stream),
    // `opened` the version the page opened at (the events up to it are the table's story,
    // shown at once), `shown` how many events the page has shown.
    this.queue = [];
    this.queued = -1;
    // Answers to this seat's moves that came before the stream's earlier versions, by version.
    this.early = new Map();
    this.opened = null;
    // One more each time the stream resets the table: what was queued before is of a
    // timeline that is gone.
    this.epoch = 0;
    this.playing = false;
    this.shown = 0;
    this.lastMove = null;
    this.history = new RoundHistory();
    this.failures = 0;
    this.streamOver = false;
    this.playingVersion = -1;
    this.ahead = null;
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
    // The API said this table's rule turns hints off (its answer says it too, once it does).
    this.hintsOff = false;
    // The control the keyboard was on, kept while redrawing takes the focus away.
    this.focus = null;
    this.element = h("section", { class: "table", id: "table", "aria-busy": "true" },
      h("p", { class: "loading" }, t("loading")));
    // The log is kept across redraws, so the keyboard's place and the scroll stay.
    this.log = h("ol", { class: "events", tabindex: "0", "aria-labelledby": "log-heading" });
    this.logSection = h("section", { class: "log", id: "log" },
      h("h2", { id: "log-heading" }, t("log")), this.log);
    this.element.addEventListener("click", (event) => this.clicked(event));
    this.element.addEventListener("change", (event) => {
      const file = event.target.closest("[data-record-file]")?.files?.[0];
      if (file) this.checkRecord(file);
    });
  }

  async start() {
    try {
      const [answer, list] = await Promise.all([getTable(this.table, this.key), variants()]);
      this.variant = list.variants.find((variant) => variant.id === answer.variant) ?? null;
      this.opened = answer.version;
      // The fingerprint as first seen here (a table's creator kept the one it was made with).
      if (!this.facts.seed_sha256 && answer.seed_sha256) {
        this.facts = remember(this.table, { seed_sha256: answer.seed_sha256 });
      }
      this.show(answer);
      this.listen();
      // The turn clock counts down between answers.
      this.clockTimer = setInterval(() => tick(this.element), 1000);
    } catch (error) {
      this.fail(error);
    }
  }

  /** Follow the table's stream from the last version seen; from the first one on opening,
  so a reloaded page gets the whole story of the table again. */
  listen() {
    this.stream = openStream(this.table, this.key, Math.max(this.queued, 0), {
      onMessage: (data, id) => this.streamed(data, id),
      onReset: (data, id) => this.reset(data, id),
      // Who is here changed, at a version the page has been sent: its seats as they are now.
      onPresence: (data) => this.show(data),
      onOpen: () => {
        this.failures = 0;
        this.connected(true);
      },
      onLost: (wait) => {
        this.stream = null;
        // Once the match is over the server ends the stream: nothing more will come (but
        // a rematch, which the stream announces while it lasts).
        if (this.streamOver || this.answer?.is_over || this.closed) return;
        if (wait !== null) {
          // A server that stops said when to come back (to another instance): no failure.
          this.retry = setTimeout(() => this.listen(), wait);
          return;
        }
        this.connected(false);
        this.reconnect();
      },
    });
  }

  /** Open the stream again after a backed-off, jittered wait. A browser's EventSource never
  shows why it failed, so the table is asked once: its answer catches the page up, and a
  refusal for load (429 or 503) says with Retry-After how long to wait at least. */
  async reconnect() {
    const ceiling = Math.min(RECONNECT_MAX_MS, RECONNECT_MS * 2 ** this.failures);
    this.failures += 1;
    let wait = ceiling / 2 + Math.random() * (ceiling / 2);
    try {
      this.show(await getTable(this.table, this.key));
    } catch (error) {
      if (error instanceof ApiError && error.retryAfter !== null) {
        wait = Math.max(wait, error.retryAfter * 1000);
      }
    }
    if (this.closed || this.answer?.is_over) return;
    this.retry = setTimeout(() => this.listen(), wait);
  }

  close() {
    this.closed = true;
    clearInterval(this.clockTimer);
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
    // A table further on than the events being shown waits for them.
    if (this.playing && answer.version > this.playingVersion) {
      if (!this.ahead || answer.version >= this.ahead.version) this.ahead = answer;
      return;
    }
    if (!this.answer || answer.version !== this.answer.version) {
      this.give.clear();
      this.take.clear();
      this.error = "";
      this.hint = null;
    }
    this.answer = { ...this.answer, ...answer };
    this.render();
    if (this.answer.rematch && this.key && this.answer.is_over) this.joinRematch();
  }

  /** The stream's cursor was not on the table's timeline (the store lost versions, or the
  page named a version past the table): the table as it is now replaces all the page held
  of it, its story (the log, the rounds) included, since that told of versions that are gone;
  the stream goes on from there. */
  reset(data, id) {
    const version = data.version ?? Number(id);
    this.epoch += 1;
    this.queue = [];
    this.early.clear();
    this.ahead = null;
    this.queued = version;
    this.opened = version;
    this.lastMove = null;
    this.raceTotal = null;
    this.history = new RoundHistory();
    this.log.replaceChildren();
    this.streamOver = Boolean(data.is_over);
    this.answer = null;
    this.give.clear();
    this.take.clear();
    this.hint = null;
    this.error = "";
    const answer = Array.isArray(data.legal_moves) && "to_move" in data ? { ...data, version } : null;
    if (!answer) {
      this.refresh();
    } else if (this.playing) {
      // The events being shown stop at the next one; the fresh table comes after them.
      this.ahead = answer;
    } else {
      this.show(answer);
    }
  }

  streamed(data, id) {
    const version = data.version ?? Number(id);
    this.streamOver = Boolean(data.is_over);
    // The stream carries the seat's view; the moves it may make come with the table itself.
    const answer = Array.isArray(data.legal_moves) && "to_move" in data ? { ...data, version } : null;
    this.receive(version, data.events ?? [], answer, true);
  }

  /** A version's events, from a move's answer or the stream (`streamed`), whichever came
  first; `answer` is the table at that version when it came with them (else it is asked for). */
  receive(version, events, answer, streamed = false) {
    if (version <= this.queued) {
      const waiting = this.queue.find((item) => item.version === version);
      if (waiting && answer) waiting.answer = answer;
      return;
    }
    if (!streamed && version > Math.max(this.queued, 0) + 1) {
      // A move's answer ran ahead of the stream: the versions before it (the table's story
      // before this page opened, or moves played since by the computer) have not come yet.
      // Taken now, their events would be skipped (a round left out of the history); the
      // stream brings them in order, and this version after them, with this answer.
      if (answer) this.early.set(version, answer);
      return;
    }
    const early = this.early.get(version) ?? null;
    this.early.delete(version);
    this.queued = version;
    this.queue.push({ version, events, answer: answer ?? early });
    this.pump();
  }

  /** Show the queued versions in order: each event in the log, a computer player's move
  after a pause, the table as it is after each version. */
  async pump() {
    if (this.playing) return;
    this.playing = true;
    this.renderBusy();
    while (this.queue.length && !this.closed) {
      const item = this.queue.shift();
      const { epoch } = this;
      this.playingVersion = item.version;
      const live = this.opened !== null && item.version > this.opened;
      const paced = (event) => live && ACTIONS.has(event.type) && this.isBot(event.seat);
      for (const event of item.events) {
        if (paced(event)) await pause(this.pace(item, event));
        if (this.closed) return;
        if (this.epoch !== epoch) break;
        this.showEvent(event, live);
      }
      if (this.epoch !== epoch) continue;
      if (item.answer) this.show(item.answer);
      else if (live || !this.answer || item.version > this.answer.version) await this.refresh();
    }
    this.playing = false;
    const ahead = this.ahead;
    this.ahead = null;
    if (ahead) this.show(ahead);
    else this.render();
  }

  /** The pause before a computer player's `event` of `item`: shorter while more of them wait
  to be shown (this version's and the queued ones), so a long run never keeps anyone waiting. */
  pace(item, event) {
    const moves = (events) => events.filter((one) => ACTIONS.has(one.type) && this.isBot(one.seat));
    const left = moves(item.events.slice(item.events.indexOf(event))).length
      + this.queue.reduce((sum, queued) => sum + moves(queued.events).length, 0);
    return Math.min(BOT_PAUSE_MS, BOT_RUN_MS / left);
  }

  /** One event: in the log with the public cards it names, announced, marked on the table. */
  showEvent(event, live) {
    this.history.add(event);
    this.shown += 1;
    const cards = (codes) => h("span", { class: "cards small" }, codes.map((code) => card(code)));
    const facts = [];
    if (event.type === "drew" && event.card) facts.push(cards([event.card]));
    if (event.gave?.length) facts.push(h("span", { class: "fact" }, `${t("gave")}: `, cards(event.gave)));
    if (event.took?.length) facts.push(h("span", { class: "fact" }, `${t("took")}: `, cards(event.took)));
    const shownCards = event.cards ?? event.laid;
    if (Array.isArray(shownCards) && shownCards.length) facts.push(cards(shownCards));
    this.log.append(h("li", {
      "data-event": this.shown, "data-event-type": event.type, "data-event-seat": event.seat,
      "data-live": live ? "true" : null,
      // When it was shown (ms since the page opened): the pace can be read off the log.
      "data-at": Math.round(performance.now()),
    }, event.message, facts.length ? " " : null, facts));
    while (this.log.childElementCount > LOG_LENGTH) this.log.firstElementChild.remove();
    this.log.scrollTop = this.log.scrollHeight;
    if (event.type === "took") this.raceTotal = event.total;
    if (!live) return;
    this.element.dataset.event = this.shown;
    if (ACTIONS.has(event.type)) this.lastMove = event;
    announce(event.message);
    this.markMove(event);
  }

  /** The move just shown, on the table drawn before it: its seat marked, a discarded card
  moved from the hand or the seat onto the pile. */
  markMove(event) {
    const table = this.element;
    for (const marked of table.querySelectorAll(".last-actor")) marked.classList.remove("last-actor");
    const seat = table.querySelector(`[data-seat-index="${event.seat}"]`);
    seat?.classList.add("last-actor");
    const caption = table.querySelector(".last-move");
    if (caption && ACTIONS.has(event.type)) {
      caption.replaceChildren(`${t("last_move")}: ${event.message}`);
    }
    if (event.type !== "discarded") return;
    const top = table.querySelector(".discard img.card");
    if (!top) return;
    const held = table.querySelector(`.hand img[data-card="${event.card}"]`);
    const from = (held ?? seat)?.getBoundingClientRect();
    (held?.closest(".card-button") ?? held)?.remove();
    top.replaceWith(card(event.card, "pile last"));
    arrive(table.querySelector(".discard img.card"), from);
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
      const whole = Array.isArray(answer.legal_moves) && "to_move" in answer;
      this.busy = false;
      this.receive(answer.version, answer.events ?? [], whole ? answer : null);
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
    const control = event.target.closest("[data-move], [data-select], [data-copy], [data-hint], "
      + "[data-show-log], [data-start], [data-leave], [data-rematch], [data-check-record]");
    if (!control || control.disabled) return;
    if (control.hasAttribute("data-start")) {
      this.act(() => startTable(this.table, this.key));
    } else if (control.hasAttribute("data-leave")) {
      if (this.leaving) this.act(() => leaveTable(this.table, this.key));
      this.leaving = !this.leaving;
      this.render();
    } else if (control.hasAttribute("data-rematch")) {
      this.joinRematch();
    } else if (control.hasAttribute("data-check-record")) {
      this.checkRecord();
    } else if (control.hasAttribute("data-show-log")) {
      this.logSection.scrollIntoView({ block: "start" });
      this.log.focus({ preventScroll: true });
    } else if (control.hasAttribute("data-hint")) {
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

  /** Start, Leave: the answer is the table as it is then, shown like a move's. */
  async act(call) {
    if (this.busy) return;
    this.busy = true;
    this.error = "";
    this.render();
    try {
      const answer = await call();
      this.busy = false;
      this.receive(answer.version, answer.events ?? [], "to_move" in answer ? answer : null);
    } catch (error) {
      this.error = t("failed", { detail: error.message });
    }
    this.busy = false;
    this.leaving = false;
    this.render();
  }

  /** The rematch: the first to ask opens it; the others' pages, told by the old table, ask
  in turn; each gets its own key there and the page moves to the new table. */
  async joinRematch() {
    if (this.rematching || !this.key) return;
    this.rematching = true;
    announce(t("rematch_joining"));
    try {
      // The first to ask opens the new table, and may start it before the others come.
      const opened = !this.answer.rematch;
      const answer = await rematch(this.table, this.key);
      remember(answer.table, { creator: opened, seed_sha256: answer.seed_sha256 });
      this.onMoved({ table: answer.table, key: answer.key });
    } catch (error) {
      this.rematching = false;
      this.error = t("failed", { detail: error.message });
      this.render();
    }
  }

  /** The record's checks a page can make (the full replay is `thirtyone verify`): of the
  server's record of this table, or of a record file the player chose (`file`). The seed's
  fingerprint is the one this page saw first, before the first move. */
  async checkRecord(file = null) {
    try {
      const record = file ? JSON.parse(await file.text()) : await getRecord(this.table);
      this.record = checkRecord(record, { answer: this.answer, mine: this.facts.entropy,
        published: this.facts.seed_sha256 ?? this.answer.seed_sha256 });
    } catch (error) {
      this.record = [{ code: "format", ok: false,
        text: error instanceof SyntaxError ? t("record_format_bad") : error.message }];
    }
    announce(this.record.map((check) => check.text).join(" "));
    this.render();
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
      if (error instanceof ApiError && error.problem?.code === "hints_off") this.hintsOff = true;
    }
    // The table may have moved on while the hint was on its way: that hint is of no use.
    if (this.answer.version !== version) return;
    this.hint = hint;
    const best = hint.advice?.moves[hint.advice.best].move;
    announce(hint.error ? t("hint_failed", { detail: hint.error })
      : t("hint_best", { move: hint.advice.moves[hint.advice.best].description }));
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

  /** Whether the page is busy: a move on its way, or events being shown. */
  get waiting() {
    return this.busy || this.playing;
  }

  /** While events are shown the controls wait, as while a move is on its way. */
  renderBusy() {
    this.element.setAttribute("aria-busy", String(this.waiting));
    for (const control of this.element.querySelectorAll("button[data-move], button[data-select]")) {
      control.disabled = this.waiting;
    }
  }

  render() {
    const { answer } = this;
    if (!answer) return;
    const active = document.activeElement;
    if (this.element.contains(active) && !this.log.contains(active)) {
      this.focus = active.closest("[data-focus]")?.dataset.focus ?? "";
    } else if (active && active !== document.body) {
      this.focus = null;
    }
    const moves = answer.legal_moves ?? [];
    const table = this.element;
    if (answer.phase === "waiting") {
      this.renderWaiting();
      return;
    }
    const board = table.querySelector(".board");
    const before = board ? positions(board) : new Map();
    table.dataset.seat = answer.seat ?? "";
    table.dataset.version = answer.version;
    table.dataset.toMove = answer.to_move ?? "";
    table.dataset.over = String(Boolean(answer.is_over));
    table.dataset.family = this.variant?.family ?? "";
    table.dataset.phase = answer.phase ?? (answer.is_over ? "over" : "playing");
    table.dataset.shown = this.shown;
    // A player in another tab sees from the tab's title that the table waits for them.
    const mine = !answer.is_over && moves.length > 0;
    document.title = mine ? `${t("your_turn")} ${TITLE}` : TITLE;
    if (mine && !this.announcedTurn) announce(t("your_turn"));
    this.announcedTurn = mine;
    const logScroll = this.log.scrollTop;
    table.replaceChildren(...[
      this.status(),
      this.error ? h("p", { class: "error", role: "alert" }, this.error) : null,
      this.online ? null : h("p", { class: "warning" }, t("offline")),
      h("div", { class: "board" },
        this.seats(),
        this.centre(moves),
        h("div", { class: "own" }, this.hand(moves),
          // This seat's own clock beside its moves too: on a phone its place may be scrolled away.
          answer.to_move === answer.seat && this.key
            ? clock(answer, answer.seat, { words: true }) : null,
          this.actions(moves),
          h("p", { class: "own-links" }, h("button", { type: "button", class: "link show-log",
            "data-show-log": "", "aria-controls": "log" }, t("show_log")), " ", this.leave()))),
      this.ending(),
      this.logSection,
      this.result(),
      this.rounds(),
      this.invites(),
    ].filter(Boolean));
    this.log.scrollTop = logScroll;
    this.markHint();
    this.renderBusy();
    glide(table.querySelector(".board"), before);
    if (this.focus === null) return;
    const again = [...table.querySelectorAll("[data-focus]")]
      .find((element) => element.dataset.focus === this.focus && !element.disabled)
      ?? table.querySelector("[data-move]:not(:disabled)");
    again?.focus({ preventScroll: true });
  }

  /** A table waiting for its players: who has taken a seat, the invitations, and for the
  one who made it a Start that deals now (the computer takes the free seats). */
  renderWaiting() {
    const { answer } = this;
    const table = this.element;
    table.setAttribute("aria-busy", String(this.waiting));
    table.dataset.version = answer.version;
    table.dataset.seat = answer.seat ?? "";
    table.dataset.phase = "waiting";
    const seats = (answer.seats ?? []).map((entry) => h("li", { "data-seat-index": entry.seat },
      h("div", { class: "seat-name" }, seatLabel(answer, entry.seat),
        presence(answer, entry.seat).map((badge) => h("span", { class: "badge" }, badge)))));
    table.replaceChildren(...[
      h("header", { class: "status" }, h("h2", {}, t("waiting_room")),
        h("p", {}, t("waiting_players"))),
      this.error ? h("p", { class: "error", role: "alert" }, this.error) : null,
      h("ul", { class: "waiting-seats" }, seats),
      this.facts.creator && this.key ? h("p", {}, h("button", {
        type: "button", class: "primary", "data-start": "", disabled: this.busy,
      }, t("start_now"))) : null,
      this.invites()].filter(Boolean));
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
    // The table's rule: no Hint where its seats may not ask (the API would refuse it).
    if (answer.hints === "off" || this.hintsOff) return null;
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
      // Exact values (the race's solver, a last turn after a knock) say so; sampled ones
      // give their standard error and their number of deals, and none from too few.
      let worth;
      if (advice.exact) {
        worth = t("hint_exact", { value: number.format(best.value),
          measure: advice.measure_description });
      } else if (advice.samples < MIN_HINT_SAMPLES) {
        worth = tn("hint_few", advice.samples);
      } else {
        worth = t("hint_value", {
          value: number.format(best.value), stderr: number.format(best.stderr),
          measure: advice.measure_description, samples: advice.samples,
        });
      }
      text = [h("strong", { class: "advice-move" }, t("hint_best", { move: best.description })),
        " ", h("span", { class: "advice-value", "data-exact": String(Boolean(advice.exact)) },
          worth)];
    }
    return [button, h("p", { class: "advice", id: "advice" }, text)];
  }

  status() {
    const { answer } = this;
    const view = answer.view;
    let text;
    if (answer.is_over) {
      const winners = view.winners ?? [];
      const names = winners.map((seat) => seatName(answer, seat));
      if (winners.includes(answer.seat)) text = `${t("match_over")} ${t("you_won")}`;
      else if (winners.length === 1) text = `${t("match_over")} ${t("winner", { name: names[0] })}`;
      else text = `${t("match_over")} ${t("winners", { names: names.join(", ") })}`;
    } else if (answer.to_move === null || answer.to_move === undefined) {
      text = t("between_rounds", { round: view.round });
    } else if (answer.to_move === answer.seat) {
      text = t("your_turn");
    } else {
      text = t("to_move", { name: seatName(answer, answer.to_move) });
    }
    return h("header", { class: "status" },
      h("h2", {}, text),
      this.variant ? h("p", {}, t("game_round", { variant: this.variant.name, round: view.round }))
        : null);
  }

  isBot(seat) {
    const entry = (this.answer.seats ?? []).find((item) => item.seat === seat);
    return Boolean(entry?.bot);
  }

  /** The figures that matter for this game's settlement, in words: lives left, the chips
  won or lost so far (a balance, with its sign), points. */
  figures(standing) {
    const settlement = this.variant?.settlement;
    const shown = [];
    if (settlement === "lives") shown.push(tn("lives_n", standing.lives));
    if (settlement === "pot" || settlement === "escalating" || standing.chips) {
      shown.push(tn("chips_n", standing.chips, { signed: true }));
    }
    if (settlement === "points") shown.push(tn("points_n", standing.points));
    return h("p", { class: "figures" }, shown.join(" · "));
  }

  seats() {
    const { answer } = this;
    const view = answer.view;
    const last = this.lastMove?.seat;
    return h("ol", { class: `seats${view.seats.length > 4 ? " many" : ""}`, start: 0 },
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
          this.figures(standing),
          seat === answer.to_move ? clock(answer, seat) : null,
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
        drawStock ? moveButton(drawStock, pile) : pile,
        h("figcaption", {}, `${t("stock")}: ${view.stock}`)));
    }
    if (family === "race") {
      parts.push(h("figure", { class: "taken" },
        h("div", { class: "cards small" }, view.discard.map((code) => card(code))),
        h("figcaption", {}, `${t("taken")} · ${t("total")}: ${
          view.result?.total ?? this.raceTotal ?? 0}`)));
    } else if (view.discard.length || drawDiscard) {
      const top = view.discard.at(-1) ?? null;
      const marked = this.lastMove?.type === "discarded" && this.lastMove.card === top;
      const face = top ? card(top, marked ? "pile last" : "pile")
        : h("span", { class: "empty" }, t("empty"));
      parts.push(h("figure", { class: "discard" },
        drawDiscard ? moveButton(drawDiscard, face) : face,
        h("figcaption", {}, t("discard_pile"))));
    }
    if (view.table.length) parts.push(this.tableCards(moves));
    if (this.variant?.settlement === "pot" || this.variant?.settlement === "escalating" || view.pot) {
      parts.push(h("p", { class: "pot" }, `${t("pot")}: ${tn("chips_n", view.pot)}`));
    }
    parts.push(h("p", { class: "last-move", "data-last-move": this.lastMove ? "" : null },
      this.lastMove ? `${t("last_move")}: ${this.lastMove.message}` : null));
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
        return take ? moveButton(take, card(code)) : card(code);
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
      if (discard) return moveButton(discard, card(code));
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
            moveButton(move)));
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
    if (whole) buttons.push(moveButton(whole));
    const chosen = exchanges.find((move) => sameSet(move.give, this.give)
      && sameSet(move.take, this.take));
    if (chosen && chosen !== whole) buttons.push(moveButton(chosen));
    // Every move not made on a card or by choosing cards is a button of its own.
    for (const move of moves) {
      if (!ON_CARDS.has(move.type)) buttons.push(moveButton(move));
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
      h("strong", {}, seatName(this.answer, seat)), " ",
      h("span", { class: "cards small" }, shown.cards.map((code) => card(code))), " ",
      h("span", { class: "score" }, pointsText(shown.score.points),
        categoryName(shown.score.category) ? ` · ${categoryName(shown.score.category)}` : ""),
      result.lives_lost?.[seat] ? ` · ${tn("lives_n", -result.lives_lost[seat], { signed: true })}`
        : ""));
    const out = this.history.current?.out ?? [];
    return h("section", { class: "result", "aria-labelledby": "result-heading" },
      h("h2", { id: "result-heading" }, t("result", { round: result.round ?? view.round })),
      reason !== reasonKey ? h("p", {}, reason) : null,
      h("ul", { class: "shown" }, rows),
      out.length ? h("p", { class: "went-out" },
        t("went_out", { seats: out.map((seat) => seatName(this.answer, seat)).join(", ") })) : null,
      // The server's seed is the one whose SHA-256 was published; the deal's derives from it.
      view.seed === null || view.seed === undefined ? null
        : this.seed(this.answer.server_seed ?? view.seed));
  }

  /** What each seat lost or won in a round, in words: lives, a chip balance, points. */
  changes(entry, seat) {
    const settlement = this.variant?.settlement;
    const parts = [];
    const lives = entry.lives.get(seat);
    if (lives) parts.push(tn("lives_n", lives, { signed: true }));
    const ante = entry.ante && !entry.outBefore.has(seat) ? entry.ante : 0;
    const chips = (entry.chips.get(seat) ?? 0) - ante;
    if (chips || settlement === "pot" || settlement === "escalating") {
      parts.push(tn("chips_n", chips, { signed: true }));
    }
    const points = entry.points.get(seat);
    if (points) parts.push(tn("points_n", points, { signed: true }));
    if (entry.knocker === seat) parts.push(t("knocker"));
    if (entry.out.includes(seat)) parts.push(t("eliminated"));
    return parts.join(" · ");
  }

  /** The history of the rounds, kept through the match, and the match's summary at its end. */
  rounds() {
    const finished = this.history.finished;
    if (!finished.length) return null;
    const seats = this.answer.view.seats.map((_, seat) => seat);
    const reason = (key) => {
      const text = t(`reason_${key}`);
      return text === `reason_${key}` ? "" : text;
    };
    const over = this.answer.is_over;
    // Under the match's summary the table says what it is; otherwise the heading does.
    const table = h("table", { class: "rounds", "aria-labelledby": over ? null : "history-heading" },
      over ? h("caption", {}, t("history")) : null,
      h("thead", {}, h("tr", {},
        h("th", { scope: "col" }, t("history_round")),
        seats.map((seat) => h("th", { scope: "col" }, seatName(this.answer, seat))),
        h("th", { scope: "col" }, t("history_end")))),
      h("tbody", {}, finished.map((entry) => h("tr", { "data-round": entry.round },
        h("th", { scope: "row" }, entry.round),
        seats.map((seat) => h("td", {}, this.changes(entry, seat),
          entry.shown.has(seat) ? h("span", { class: "cards small", "aria-label": t("history_shown") },
            entry.shown.get(seat).map((code) => card(code))) : null)),
        h("td", {}, reason(entry.reason))))));
    return h("section", { class: "history", "aria-labelledby": "history-heading" },
      h("h2", { id: "history-heading" }, over ? t("summary") : t("history")),
      over ? this.summary(finished.length) : null,
      // A wide table scrolls on its own; the keyboard can scroll it too.
      h("div", { class: "scroll", tabindex: "0", role: "region", "aria-label": t("history") },
        table));
  }

  /** The match at its end: how many rounds, who won, where every seat stands. */
  summary(rounds) {
    const view = this.answer.view;
    const winners = view.winners ?? [];
    let won = null;
    const names = winners.map((seat) => seatName(this.answer, seat));
    if (winners.length > 1) won = t("winners", { names: names.join(", ") });
    else if (winners.length) won = t("winner", { name: names[0] });
    return h("div", { class: "summary-match", "data-summary": "" },
      h("p", {}, tn("rounds_n", rounds), won ? " " : null, won),
      h("ul", {}, view.seats.map((standing, seat) => h("li", {},
        h("strong", {}, seatName(this.answer, seat)), " ", this.figures(standing)))));
  }

  /** The seed, revealed at the end, checked against the fingerprint published at the start
  (hashed here, so the check needs no `crypto.subtle`, which plain http does not give). */
  seed(seed) {
    const line = h("p", { class: "seed" }, t("seed", { seed }));
    const published = this.facts.seed_sha256 ?? this.answer.seed_sha256;
    if (published) {
      const hex = bytesToHex(sha256(utf8ToBytes(String(seed))));
      line.append(" ", t(hex === published ? "seed_ok" : "seed_bad"));
    }
    return line;
  }

  invites() {
    const invites = this.facts.invites ?? [];
    const link = (url, seat, hook = null) => h("li", {},
      seat === null ? null : h("span", {}, `${t("seat", { seat })}: `),
      h("a", { href: url, "data-invite": seat === null ? null : url, class: "invite",
        ...(hook ? { [hook]: url } : {}) }, url), " ",
      h("button", { type: "button", class: "link", "data-copy": url }, t("copy")));
    return h("section", { class: "invites" },
      invites.length ? [
        h("h2", {}, t("invites")),
        h("p", {}, t("invite_hint")),
        h("ul", {}, invites.map(({ seat, invitation }) =>
          link(inviteLink(this.table, seat, invitation), seat))),
      ] : null,
      this.key ? [h("p", {}, t("your_link")),
        h("ul", {}, link(seatLink(this.table, this.key, { own: true }), null))] : null,
      // Anyone may watch: the link without a key shows what a spectator sees.
      h("p", {}, t("watch_link")),
      h("ul", {}, link(seatLink(this.table, null), null, "data-watch")),
      // The fingerprint of the seed, published before the first move, so the seed revealed
      // at the end can be checked against it.
      this.answer.seed_sha256 ? h("p", { class: "fingerprint" },
        t("fingerprint", { sha256: this.answer.seed_sha256 })) : null);
  }

  /** At the match's end: a rematch (for a seat), a new game from the lobby, the match's
  record to download and to check here. */
  ending() {
    if (!this.answer.is_over) return null;
    return h("div", { class: "ending" },
      h("p", { class: "ending-actions" },
        this.key ? h("button", { type: "button", class: "primary", "data-rematch": "",
          disabled: this.rematching }, t("rematch")) : null,
        // A spectator may follow the players to their rematch, watching it too.
        !this.key && this.answer.rematch ? h("a", { class: "button primary",
          href: seatLink(this.answer.rematch, null), "data-watch-rematch": "" }, t("rematch"))
          : null, " ",
        h("a", { class: "button", href: location.pathname, "data-new-game": "" }, t("new_game")),
        " ",
        h("a", { href: recordAddress(this.table), download: `thirtyone-${this.table}.json`,
          "data-record": "" }, t("record_download")), " ",
        h("button", { type: "button", class: "link", "data-check-record": "" },
          t("record_check"))),
      // A record kept elsewhere (the file downloaded here, or one sent by another player)
      // is checked against what this page saw of the table.
      h("p", { class: "record-file" }, h("label", { for: "record-file" }, t("record_file")), " ",
        h("input", { type: "file", id: "record-file", accept: "application/json,.json",
          "data-record-file": "" })),
      this.record ? h("ul", { class: "record-checks" }, this.record.map((check) =>
        h("li", { "data-check": check.ok ? "ok" : "bad", "data-check-code": check.code },
          check.text)),
      h("li", {}, t("record_replay"))) : null);
  }

  /** Leave, in two steps: the second press hands the seat to the computer. */
  leave() {
    const { answer } = this;
    if (!this.key || answer.is_over || answer.seat === null || answer.seat === undefined) return null;
    // Out of the match, or left already (the computer plays the seat): nothing to leave.
    if (answer.view?.seats?.[answer.seat]?.eliminated || this.isBot(answer.seat)) return null;
    return h("button", { type: "button", class: `link leave${this.leaving ? " confirm" : ""}`,
      "data-leave": "", "aria-pressed": this.leaving ? "true" : null },
    this.leaving ? t("leave_confirm") : t("leave"));
  }
}
