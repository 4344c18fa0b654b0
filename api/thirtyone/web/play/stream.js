// A table's event stream kept open: opened again after a backed-off wait when it is lost
// (reconnect.js says how long), at once when the player asks ("Try again now"), or when a
// stopping server says when (to another instance); closed for good once the match is over.
import { ApiError, openStream } from "./api.js";
import { reconnectWait } from "./reconnect.js";

export class TableStream {
  /**
   * `after()` is the last version the page took in; `onMessage`, `onReset`, `onPresence`
   * are the stream's (api.js `openStream`); `onState(open)` says whether it is connected;
   * `catchUp()` asks for the table once when the stream is lost (a browser's EventSource
   * never says why it failed; the answer catches the page up, and a refusal for load says
   * with Retry-After how long to wait at least); `finished()` whether nothing more will come.
   */
  constructor(table, key, handlers) {
    this.table = table;
    this.key = key;
    this.handlers = handlers;
    this.source = null;
    this.timer = null;
    this.failures = 0;
    this.closed = false;
    // The `id:` of the last version the stream brought (EPOCH.VERSION.DIGEST): sent back as
    // the cursor, so a server whose store lost that timeline resets the page.
    this.lastId = null;
  }

  /** Follow the table's stream from the last version seen; from the first one on opening,
  so a reloaded page gets the whole story of the table again. */
  open() {
    const { after, onMessage, onReset, onPresence, onState, finished } = this.handlers;
    this.timer = null;
    const version = Math.max(after(), 0);
    // The id names the version the page took in last, unless a move's answer came after it.
    const cursor = this.lastId?.split(".")[1] === String(version) ? this.lastId : version;
    const kept = (handler) => (data, id) => {
      if (id) this.lastId = id;
      handler(data, id);
    };
    this.source = openStream(this.table, this.key, cursor, {
      onMessage: kept(onMessage), onReset: kept(onReset), onPresence,
      onOpen: () => {
        this.failures = 0;
        onState(true);
      },
      onLost: (wait) => {
        this.source = null;
        // Once the match is over the server ends the stream: nothing more will come (but
        // a rematch, which the stream announces while it lasts).
        if (this.closed || finished()) return;
        if (wait !== null) {
          // A server that stops said when to come back (to another instance): no failure.
          this.schedule(wait);
          return;
        }
        onState(false);
        this.reconnect();
      },
    });
  }

  async reconnect() {
    let retryAfter = null;
    try {
      await this.handlers.catchUp();
    } catch (error) {
      if (error instanceof ApiError) retryAfter = error.retryAfter;
    }
    const wait = reconnectWait(this.failures, retryAfter);
    this.failures += 1;
    if (this.closed || this.handlers.finished() || this.source) return;
    this.schedule(wait);
  }

  schedule(wait) {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.open(), wait);
  }

  /** Whether a lost stream waits to be opened again. */
  get waiting() {
    return this.timer !== null;
  }

  /** The player's "Try again now": no more waiting for the backed-off time. */
  retryNow() {
    if (this.closed || this.source) return;
    clearTimeout(this.timer);
    this.open();
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    this.timer = null;
    this.source?.close();
    this.source = null;
  }
}
