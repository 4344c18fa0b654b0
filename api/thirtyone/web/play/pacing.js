// The order and the pace in which a table's events are shown: each version's events in turn,
// a version at most once, whether it came with a move's answer or on the stream; a computer
// player's move after a pause a person can follow. No DOM here: `node --test` runs it.

/** The events that are a seat's own move (the others are what followed from it): a computer
player's move is shown after a pause, and the last of them is the table's "last move". */
export const ACTIONS = new Set(["drew", "discarded", "knocked", "stood", "exchanged", "passed",
  "joined", "sat_out", "declared", "took", "hand_swapped", "hand_kept", "renewed",
  "widow_revealed"]);

/** The bot speeds a player may choose: a computer player's move is shown `pause` ms after the
one before; in a long run of them at once (the rest of a match the humans are out of) each
waits at most `run` ms divided by the number of them still to show. */
export const SPEEDS = {
  slow: { pause: 1200, run: 10_000 },
  normal: { pause: 600, run: 6000 },
  fast: { pause: 80, run: 800 },
};
export const DEFAULT_SPEED = "normal";

/** The speed named `name`, the default one for a name it does not know (an old setting). */
export const speedOf = (name) => SPEEDS[name] ?? SPEEDS[DEFAULT_SPEED];

/**
 * The versions waiting to be shown. `queued` is the last version taken in, `epoch` grows each
 * time the table's timeline is reset (what was queued before belongs to a timeline that is
 * gone), and `early` holds the answers to this seat's moves that came before the stream's
 * earlier versions, by version.
 */
export class EventQueue {
  constructor() {
    this.items = [];
    this.queued = -1;
    this.early = new Map();
    this.epoch = 0;
  }

  /** Take in a version's `events`, from a move's answer or the stream (`streamed`),
  whichever came first; `answer` is the table at that version when it came with them.
  True when the version was queued (the caller shows it then). */
  receive(version, events, answer, streamed = false) {
    if (version <= this.queued) {
      const waiting = this.items.find((item) => item.version === version);
      if (waiting && answer) waiting.answer = answer;
      return false;
    }
    if (!streamed && version > Math.max(this.queued, 0) + 1) {
      // A move's answer ran ahead of the stream: the versions before it (the table's story
      // before this page opened, or moves played since by the computer) have not come yet.
      // Taken now, their events would be skipped (a round left out of the history); the
      // stream brings them in order, and this version after them, with this answer.
      if (answer) this.early.set(version, answer);
      return false;
    }
    const early = this.early.get(version) ?? null;
    this.early.delete(version);
    this.queued = version;
    this.items.push({ version, events, answer: answer ?? early });
    return true;
  }

  /** The next version to show, or undefined. */
  next() {
    return this.items.shift();
  }

  get length() {
    return this.items.length;
  }

  /** A new timeline from `version` on: nothing of the old one is shown any more. */
  reset(version) {
    this.epoch += 1;
    this.items = [];
    this.early.clear();
    this.queued = version;
  }
}

/**
 * The pause before `event` of `item` when `isBot(seat)` says a computer plays its seat (0
 * for a person's event, or one that is not a move): shorter while more computer moves wait
 * to be shown (this version's from `event` on and those of the versions `waiting`): at most
 * the speed's `run` divided by their number.
 */
export function pauseBefore(item, event, waiting, isBot, speed = speedOf(DEFAULT_SPEED)) {
  const botMove = (one) => ACTIONS.has(one.type) && isBot(one.seat);
  if (!botMove(event)) return 0;
  const left = item.events.slice(item.events.indexOf(event)).filter(botMove).length
    + waiting.reduce((sum, queued) => sum + queued.events.filter(botMove).length, 0);
  return Math.min(speed.pause, speed.run / left);
}
