// The hosted tables API (/v1/tables) and the variants list, always asked in the page's
// language. A seat's key goes in the Authorization header; only the event stream, which a
// browser's EventSource cannot give headers, carries it in its query (the server keeps it out
// of its logs).
import { LANGUAGE, t } from "./i18n.js";

/** Seconds to wait from a Retry-After header (seconds or an HTTP date), or null. */
function retryAfter(header) {
  if (!header) return null;
  if (/^\d+$/.test(header.trim())) return Number(header);
  const date = Date.parse(header);
  return Number.isNaN(date) ? null : Math.max(0, (date - Date.now()) / 1000);
}

/** An answer other than 2xx; `problem` is the RFC 9457 document when the API sent one, and
`retryAfter` the seconds a refusal for load asks to wait (null when it does not say). */
export class ApiError extends Error {
  constructor(status, problem, wait = null) {
    // An answer without a problem document (a proxy's page) is said in the page's words.
    super(problem?.detail ?? problem?.title ?? t("server_error", { status }));
    this.status = status;
    this.problem = problem;
    this.retryAfter = wait;
  }
}

/** No answer at all: the server (or the network) could not be reached. */
export class NetworkError extends ApiError {
  constructor() {
    super(0, { detail: t("unreachable") });
  }
}

// The server's clock less this browser's, from the Date of the last answer, since a turn's
// deadline is in the server's time. A Date has whole seconds: its middle is taken, and a gap
// under two seconds (the rounding and the trip) is taken as none.
const CLOCK_SLACK_MS = 2000;
let clockOffset = 0;

/** The time now on the server's clock (ms since the epoch), as far as the page can tell. */
export const serverNow = () => Date.now() + clockOffset;

function setClock(header) {
  const date = Date.parse(header ?? "");
  if (Number.isNaN(date)) return;
  const gap = date + 500 - Date.now();
  clockOffset = Math.abs(gap) < CLOCK_SLACK_MS ? 0 : gap;
}

function address(path, query = {}) {
  const url = new URL(path, location.origin);
  url.searchParams.set("lang", LANGUAGE);
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  return url;
}

async function call(method, path, { key, body } = {}) {
  const headers = { Accept: "application/json" };
  if (key) headers.Authorization = `Bearer ${key}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let response;
  try {
    response = await fetch(address(path), {
      method, headers, body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    // The browser's own words for a server it cannot reach ("Failed to fetch") are in its
    // language, not the page's: status 0 is "no answer".
    throw new NetworkError();
  }
  setClock(response.headers.get("Date"));
  const answer = await response.json().catch(() => null);
  if (!response.ok) {
    throw new ApiError(response.status, answer, retryAfter(response.headers.get("Retry-After")));
  }
  return answer;
}

const tablePath = (table) => `/v1/tables/${encodeURIComponent(table)}`;

export const variants = () => call("GET", "/v1/variants");
export const createTable = (request) => call("POST", "/v1/tables", { body: request });
export const getTable = (table, key) => call("GET", tablePath(table), { key });
export const getAdvice = (table, key) => call("GET", `${tablePath(table)}/advice`, { key });
export const playMove = (table, key, move, version) =>
  call("POST", `${tablePath(table)}/moves`, { key, body: { move, version } });
/** Claim `seat` with its invitation (none for a free seat of a public table), a name and a
contribution to the deal's seed: the answer holds the seat's own key. */
export const claimSeat = (table, seat, { invitation, name, entropy }) =>
  call("POST", `${tablePath(table)}/seats/${seat}`, {
    body: { ...(invitation ? { invitation } : {}), name, entropy },
  });
export const startTable = (table, key) => call("POST", `${tablePath(table)}/start`, { key });
export const leaveTable = (table, key) => call("POST", `${tablePath(table)}/leave`, { key });
export const rematch = (table, key) => call("POST", `${tablePath(table)}/rematch`, { key });
export const publicTables = () => call("GET", "/v1/tables");
export const getRecord = (table) => call("GET", `${tablePath(table)}/record`);
/** The address of the table's record, to download. */
export const recordAddress = (table) => address(`${tablePath(table)}/record`).href;

/**
 * The table's event stream for the seat of `key`, from the version after `after`.
 * `onMessage(data, id)` gets each version's events and view; `onReset(data, id)` the table as
 * it is now when the stream's cursor was not on the table's timeline (the store lost
 * versions): it replaces what the page showed; `onPresence(data)` the table as it is now
 * when a seat's player came or went with no move; `onOpen()` says the stream is connected,
 * `onLost(wait)` that it ended or failed: the stream is closed then, and the caller opens
 * another from the last version it got (the browser's own reconnection would ask for the
 * same `after` again), after `wait` ms when a stopping server said so (`event: reconnect`),
 * else after its own backed-off wait (`wait` is null).
 */
export function openStream(table, key, after, { onMessage, onReset, onPresence, onOpen, onLost }) {
  const query = key ? { key, after } : { after };
  const source = new EventSource(address(`${tablePath(table)}/events`, query));
  let wait = null;
  source.addEventListener("message", (event) => onMessage(JSON.parse(event.data), event.lastEventId));
  source.addEventListener("table_reset", (event) => onReset(JSON.parse(event.data), event.lastEventId));
  source.addEventListener("presence", (event) => onPresence(JSON.parse(event.data)));
  source.addEventListener("reconnect", (event) => {
    const retry = Number(JSON.parse(event.data || "{}").retry);
    wait = Number.isFinite(retry) && retry >= 0 ? retry : null;
  });
  source.addEventListener("open", onOpen);
  source.addEventListener("error", () => {
    source.close();
    onLost(wait);
  });
  return source;
}
