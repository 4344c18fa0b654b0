// The rounds of the match, told by the table's events: what each seat lost or won, who
// knocked, who went out of the match, the hands shown and why the round ended. The page
// reads every event from the first version on opening, so the history survives a reload.

/** One round as its events told it. */
function round(number, outBefore) {
  return {
    round: number, lives: new Map(), chips: new Map(), points: new Map(), shown: new Map(),
    knocker: null, ante: 0, out: [], outBefore: new Set(outBefore), reason: null, over: false,
  };
}

const add = (figures, seat, amount) => figures.set(seat, (figures.get(seat) ?? 0) + amount);

export class RoundHistory {
  constructor() {
    this.rounds = [];
    this.winners = [];
    // Seats out of the match: an ante is paid by every other seat.
    this.out = new Set();
  }

  get current() {
    return this.rounds.at(-1) ?? null;
  }

  /** Take one event in. */
  add(event) {
    if (event.type === "dealt") {
      const current = this.current;
      if (!current || current.over || current.round !== event.round) {
        this.rounds.push(round(event.round, this.out));
      }
      return;
    }
    if (event.type === "match_won") {
      this.winners.push(event.seat);
      // A match of one round (the race) may end with no round_over of its own.
      if (this.current) this.current.over = true;
      return;
    }
    // The first deal happens as the table is made, before any version a stream replays.
    if (!this.current) this.rounds.push(round(1, this.out));
    const current = this.current;
    switch (event.type) {
      case "lives_lost": add(current.lives, event.seat, -event.lives); break;
      case "paid": add(current.chips, event.seat, -event.chips); break;
      case "joined": add(current.chips, event.seat, -event.chips); break;
      case "pot_won": add(current.chips, event.seat, event.chips); break;
      case "points_scored": add(current.points, event.seat, event.points); break;
      case "knocked": current.knocker = event.seat; break;
      case "eliminated":
        current.out.push(event.seat);
        this.out.add(event.seat);
        break;
      case "ante": current.ante = event.chips; break;
      case "shown": current.shown.set(event.seat, event.cards); break;
      case "blitz": case "fire": current.shown.set(event.seat, event.cards); break;
      case "round_over":
        current.reason = event.reason;
        current.over = true;
        break;
      default: break;
    }
  }

  /** The rounds that have ended, in order. */
  get finished() {
    return this.rounds.filter((entry) => entry.over);
  }
}
