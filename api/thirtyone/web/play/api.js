// The hosted tables API (/v1/tables) and the variants list, always asked in the page's
// language. A seat's key goes in the Authorization header; only the event stream, which a
// browser's EventSource cannot give headers, carries it in its query (the server keeps it out
// of its logs).
import { LANGUAGE } from "./i18n.js";

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
    super(problem?.detail ?? problem?.title ?? String(status));
    this.status = status;
    this.problem = problem;
    this.retryAfter = wait;
  }
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
  const response = await fetch(address(path), {
    method, headers, body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = await response.json().catch(() => null);
  if (!response.ok) {
    throw new ApiError(response.status, answer, retryAfter(response.headers.get("Retry-After")));
  }
  return answer;
}

const tablePath = (table) => `/v1/tables/${encodeURIComponent(table)}`;

export const variants = () => call("GET", "/v1/variants");
export const scoreHand = (rules, hand) =>
  call("POST", "/v1/hands/score", { body: { ...rules, hand } });
export const createTable = (request) => call("POST", "/v1/tables", { body: request });
export const getTable = (table, key) => call("GET", tablePath(table), { key });
export const getAdvice = (table, key) => call("GET", `${tablePath(table)}/advice`, { key });
export const claimSeat = (table, seat, invitation, name) =>
  call("POST", `${tablePath(table)}/seats/${seat}`, { body: { invitation, name } });
export const playMove = (table, key, move, version) =>
  call("POST", `${tablePath(table)}/moves`, { key, body: { move, version } });

/**
 * The table's event stream for the seat of `key`, from the version after `after`.
 * `onMessage(data, id)` gets each version's events and view; `onOpen()` says the stream is
 * connected, `onLost()` that it ended or failed: the stream is closed then, and the caller
 * opens another from the last version it got (the browser's own reconnection would ask for
 * the same `after` again).
 */
export function openStream(table, key, after, { onMessage, onOpen, onLost }) {
  const query = key ? { key, after } : { after };
  const source = new EventSource(address(`${tablePath(table)}/events`, query));
  source.addEventListener("message", (event) => onMessage(JSON.parse(event.data), event.lastEventId));
  source.addEventListener("open", onOpen);
  source.addEventListener("error", () => {
    source.close();
    onLost();
  });
  return source;
}
