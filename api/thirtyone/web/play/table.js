// One table as one seat sees it: the seats, the cards on the table, this seat's hand, the
// moves the API says are legal now (and only those), the round's result, the invitations and
// the events as they happen. The API decides every rule; the page only shows its answers.
// This module keeps the table's state and shows the events in order; the stream (stream.js),
// the pace (pacing.js), the drawing (board.js, outcome.js) and the player's input (input.js)
// are modules of their own.
import { ApiError, getTable, variants } from "./api.js";
import { actions, centre, hand, markHint, offline, seats, status } from "./board.js";
import { usePack } from "./cards.js";
import { announce, h } from "./dom.js";
import { RoundHistory } from "./history.js";
import { t } from "./i18n.js";
import { checkMatchRecord, clicked, joinRematch } from "./input.js";
import { clock, tick } from "./life.js";
import { logEntry, markMove } from "./marks.js";
import { glide, positions } from "./motion.js";
import { ending, invites, leave, result, rounds, waitingRoom } from "./outcome.js";
import { ACTIONS, EventQueue, pauseBefore, speedOf } from "./pacing.js";
import { settings } from "./settings.js";
import { sound } from "./sounds.js";
import { recall, remember } from "./storage.js";
import { TableStream } from "./stream.js";
import { departed, eventText, moveWords } from "./words.js";

const LOG_LENGTH = 200;
const TITLE = document.title;

const pause = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });
// On a phone your panel is fixed at the bottom of the screen (play.css): the page keeps room
// for it under its last line, as tall as the panel is now (a hint, a clock or cards loading
// change its height between two answers).
const ownRoom = new ResizeObserver(([entry]) => {
  document.documentElement.style.setProperty("--own-height", `${entry.target.offsetHeight}px`);
});

/** The table at `version` when the stream's data carries it whole (else null). */
const whole = (data, version) => (Array.isArray(data.legal_moves) && "to_move" in data
  ? { ...data, version } : null);

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
    // Events are shown one by one, each version's in order (pacing.js); `opened` is the
    // version the page opened at (the events up to it are the table's story, shown at once),
    // `shown` how many events the page has shown.
    this.queue = new EventQueue();
    this.opened = null;
    this.playing = false;
    this.shown = 0;
    this.lastMove = null;
    this.history = new RoundHistory();
    this.streamOver = false;
    this.playingVersion = -1;
    this.ahead = null;
    this.raceTotal = null;
    this.give = new Set();
    this.take = new Set();
    this.busy = false;
    this.error = "";
    this.online = true;
    this.closed = false;
    this.refreshing = null;
    // The order in which the page heard each table it was given (`heard` counts them), and
    // the seats' presence the last `event: presence` told, with when it was heard: a table
    // heard before it (a version's, shown once its events are) keeps the presence it told.
    this.heard = 0;
    this.heardAt = new WeakMap();
    this.presence = null;
    // The hint asked for at this version: `{version}` while on its way, then its `advice`
    // (the API's answer) or its `error`.
    this.hint = null;
    // The API said this table's rule turns hints off (its answer says it too, once it does).
    this.hintsOff = false;
    // The control the keyboard was on, kept while redrawing takes the focus away.
    this.focus = null;
    this.stream = new TableStream(table, key, {
      after: () => this.queue.queued,
      onMessage: (data, id) => this.streamed(data, id),
      onReset: (data, id) => this.reset(data, id),
      // Who is here changed, at a version the page has been sent: its seats as they are now.
      onPresence: (data) => {
        this.presence = { at: ++this.heard, connected: (data.seats ?? []).map((s) => s.connected) };
        this.show(data);
      },
      onState: (open) => this.connected(open),
      catchUp: async () => this.show(this.hear(await getTable(this.table, this.key))),
      // A table read apart from the stream (on opening, to catch up) may say the match is
      // over before the stream has brought the versions up to its end: their events (the
      // log, the rounds' history) still have to come, so a stream lost before them is opened
      // again.
      finished: () => this.closed || this.streamOver
        || (Boolean(this.answer?.is_over) && this.queue.queued >= this.answer.version),
    });
    this.element = h("section", { class: "table", id: "table", "aria-busy": "true" },
      h("p", { class: "loading" }, t("loading")));
    // The log is kept across redraws, so the keyboard's place and the scroll stay.
    this.log = h("ol", { class: "events", tabindex: "0", "aria-labelledby": "log-heading" });
    this.logSection = h("section", { class: "log", id: "log" },
      h("h2", { id: "log-heading" }, t("log")), this.log);
    this.element.addEventListener("click", (event) => clicked(this, event));
    this.element.addEventListener("change", (event) => {
      const file = event.target.closest("[data-record-file]")?.files?.[0];
      if (file) checkMatchRecord(this, file);
    });
  }

  async start() {
    try {
      const [answer, list] = await Promise.all([getTable(this.table, this.key), variants()]);
      this.variant = list.variants.find((variant) => variant.id === answer.variant) ?? null;
      // The deck the table plays with: its own option, or the variant's default.
      const deck = this.variant?.options.find((option) => option.name === "deck");
      usePack(answer.view?.rules?.options?.deck ?? deck?.default);
      this.opened = answer.version;
      // The fingerprint as first seen here (a table's creator kept the one it was made with).
      if (!this.facts.seed_sha256 && answer.seed_sha256) {
        this.facts = remember(this.table, { seed_sha256: answer.seed_sha256 });
      }
      this.show(answer);
      this.stream.open();
      // The turn clock counts down between answers.
      this.clockTimer = setInterval(() => tick(this.element), 1000);
    } catch (error) {
      this.fail(error);
    }
  }

  close() {
    this.closed = true;
    clearInterval(this.clockTimer);
    document.title = TITLE;
    this.stream.close();
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
    const heard = this.heardAt.get(answer);
    if (this.presence && heard !== undefined && heard < this.presence.at && this.answer.seats) {
      // Heard before who is here was told anew (a version shown after its events, which a
      // presence told during): the server tells that presence no more, so it stays.
      const { connected } = this.presence;
      this.answer.seats = this.answer.seats.map((seat, index) => (
        connected[index] === undefined ? seat : { ...seat, connected: connected[index] }));
    }
    this.render();
    // A rematch takes every player along, but one who left.
    if (this.answer.rematch && this.key && this.answer.is_over
        && !departed(this.answer, this.answer.seat)) joinRematch(this);
  }

  /** The stream's cursor was not on the table's timeline (the store lost versions, or the
  page named a version past the table): the table as it is now replaces all the page held
  of it, its story (the log, the rounds) included, since that told of versions that are gone;
  the stream goes on from there. */
  reset(data, id) {
    const version = data.version ?? Number(id);
    this.queue.reset(version);
    this.ahead = null;
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
    const answer = whole(data, version);
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
    this.receive(version, data.events ?? [], whole(data, version), true);
  }

  /** A version's events, from a move's answer or the stream (`streamed`), whichever came
  first; `answer` is the table at that version when it came with them (else it is asked for). */
  receive(version, events, answer, streamed = false) {
    if (this.queue.receive(version, events, this.hear(answer), streamed)) this.pump();
  }

  /** Note when the page heard `answer` (a table, or nothing), which it returns. */
  hear(answer) {
    if (answer) this.heardAt.set(answer, ++this.heard);
    return answer;
  }

  /** Show the queued versions in order: each event in the log, a computer player's move
  after a pause, the table as it is after each version. */
  async pump() {
    if (this.playing) return;
    this.playing = true;
    this.renderBusy();
    while (this.queue.length && !this.closed) {
      const item = this.queue.next();
      const { epoch } = this.queue;
      this.playingVersion = item.version;
      const live = this.opened !== null && item.version > this.opened;
      for (const event of item.events) {
        // The speed as the player set it now (it may change while a run is shown).
        const wait = live ? pauseBefore(item, event, this.queue.items, (seat) => this.isBot(seat),
          speedOf(settings().speed)) : 0;
        if (wait) await pause(wait);
        if (this.closed) return;
        if (this.queue.epoch !== epoch) break;
        // The table is drawn again once the cards the event moved have arrived.
        const moving = this.showEvent(event, live);
        if (moving) await pause(moving);
        if (this.closed) return;
      }
      if (this.queue.epoch !== epoch) continue;
      if (item.answer) this.show(item.answer);
      else if (live || !this.answer || item.version > this.answer.version) await this.refresh();
    }
    this.playing = false;
    const ahead = this.ahead;
    this.ahead = null;
    if (ahead) this.show(ahead);
    else this.render();
  }

  /** One event: in the log, announced, marked on the table. Returns how long the cards it
  moved take to arrive (ms). */
  showEvent(event, live) {
    this.history.add(event);
    this.shown += 1;
    // A move in the page's words (its player named, its cards named), else the server's.
    const words = moveWords(event, this.answer ?? {}) ?? eventText(event) ?? event.message;
    this.log.append(logEntry(event, words, this.shown, live));
    while (this.log.childElementCount > LOG_LENGTH) this.log.firstElementChild.remove();
    this.log.scrollTop = this.log.scrollHeight;
    if (event.type === "took") this.raceTotal = event.total;
    // The table's story read on opening leaves its last move too.
    if (ACTIONS.has(event.type)) this.lastMove = { ...event, words };
    if (!live) return 0;
    this.element.dataset.event = this.shown;
    announce(words);
    if (event.type === "knocked") sound("knock");
    if (event.type === "round_over") sound("round");
    const moving = markMove(this.element, { ...event, words });
    // How long its cards took to arrive: the pace can be read off the log.
    if (moving) this.log.lastElementChild.dataset.moving = moving;
    return moving;
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
      .then((answer) => this.show(this.hear(answer)))
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
    // Moves made while the stream was down arrive when it resumes; the table may have moved
    // on, and a move refused while the server could not be reached is of the past now.
    if (open) {
      this.error = "";
      this.refresh();
    }
    this.render();
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
    if (mine && !this.announcedTurn) {
      announce(t("your_turn"));
      sound("turn");
    }
    this.announcedTurn = mine;
    const logScroll = this.log.scrollTop;
    table.replaceChildren(...[
      status(this),
      this.error ? h("p", { class: "error", role: "alert" }, this.error) : null,
      offline(this),
      h("div", { class: "board" },
        seats(this),
        centre(this, moves),
        h("div", { class: "own" }, hand(this, moves),
          // This seat's own clock beside its moves too: on a phone its place may be scrolled away.
          answer.to_move === answer.seat && this.key
            ? clock(answer, answer.seat, { words: true }) : null,
          actions(this, moves),
          h("p", { class: "own-links" }, h("button", { type: "button", class: "link show-log",
            "data-show-log": "", "aria-controls": "log" }, t("show_log")), " ", leave(this)))),
      ending(this),
      this.logSection,
      result(this),
      rounds(this),
      invites(this),
    ].filter(Boolean));
    this.log.scrollTop = logScroll;
    ownRoom.disconnect();
    ownRoom.observe(table.querySelector(".own"));
    markHint(this);
    this.renderBusy();
    glide(table.querySelector(".board"), before);
    if (this.focus === null) return;
    const again = [...table.querySelectorAll("[data-focus]")]
      .find((element) => element.dataset.focus === this.focus && !element.disabled)
      ?? table.querySelector("[data-move]:not(:disabled)");
    again?.focus({ preventScroll: true });
  }

  /** A table waiting for its players (outcome.js `waitingRoom`). */
  renderWaiting() {
    const { answer } = this;
    const table = this.element;
    table.setAttribute("aria-busy", String(this.waiting));
    table.dataset.version = answer.version;
    table.dataset.seat = answer.seat ?? "";
    table.dataset.phase = "waiting";
    table.replaceChildren(...waitingRoom(this));
  }

  isBot(seat) {
    const entry = (this.answer?.seats ?? []).find((item) => item.seat === seat);
    return Boolean(entry?.bot);
  }
}
