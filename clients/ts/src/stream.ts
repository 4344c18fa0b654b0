// A table's event stream (GET /v1/tables/{table}/events) that reconnects the way the server
// documents it: after each stream's end, resume with `Last-Event-ID` after the `retry:` wait
// (1000 ms, or the `retry` of `event: reconnect`); on 429 and 503 wait `Retry-After`; on a
// network error back off doubling up to 30 s, with jitter; stop on 204 (the match is over and
// every version was sent), on another error status, or when the signal aborts. Unlike a
// browser's EventSource it can send the seat key as a header.
import type { components } from "./api.js";

export type TableUpdate = components["schemas"]["TableUpdate"];

/** One Server-Sent Event: `event` is "message" unless the server named it. */
export interface StreamEvent {
  event: string;
  id: string | undefined;
  data: string;
}

export interface StreamOptions {
  baseUrl: string;
  table: string;
  key?: string;
  lang?: string;
  /** Resume after this version (as `Last-Event-ID`): best an answer's `cursor` or an event's
   * `id`, which name the version's timeline (a bare version is taken unchecked). */
  after?: number | string;
  /** Every event, in order (`message`, `table_reset`, `presence`; and any new type). */
  onEvent: (event: StreamEvent) => void;
  /** A status that ends the stream for good (not 204): the problem document, if any. */
  onError?: (status: number, problem: unknown) => void;
  signal?: AbortSignal;
  fetch?: typeof fetch;
  /** For tests: how to wait. */
  sleep?: (ms: number) => Promise<void>;
}

const MAX_BACKOFF_MS = 30_000;

/** Read a stream of Server-Sent Events; returns the last `retry:` seen, if any. */
export async function readEvents(
  body: ReadableStream<Uint8Array>, onEvent: (event: StreamEvent) => void,
): Promise<number | undefined> {
  const decoder = new TextDecoder();
  const reader = body.getReader();
  let buffer = "";
  let retry: number | undefined;
  let event = { event: "", id: undefined as string | undefined, data: [] as string[] };
  for (;;) {
    const { value, done } = await reader.read();
    buffer += decoder.decode(value, { stream: !done });
    const lines = buffer.split(/\r\n|\r|\n/);
    buffer = done ? "" : (lines.pop() ?? "");
    for (const line of lines) {
      if (line === "") {
        if (event.data.length > 0) {
          onEvent({ event: event.event || "message", id: event.id, data: event.data.join("\n") });
        }
        event = { event: "", id: event.id, data: [] };
        continue;
      }
      if (line.startsWith(":")) continue;
      const colon = line.indexOf(":");
      const field = colon < 0 ? line : line.slice(0, colon);
      const text = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
      if (field === "data") event.data.push(text);
      else if (field === "event") event.event = text;
      else if (field === "id") event.id = text;
      else if (field === "retry" && /^\d+$/.test(text)) retry = Number(text);
    }
    if (done) return retry;
  }
}

/** Follow a table's stream until the match is over, an error, or the signal aborts. */
export async function followTable(options: StreamOptions): Promise<void> {
  const send = options.fetch ?? globalThis.fetch.bind(globalThis);
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((done) => setTimeout(done, ms)));
  let lastId = options.after === undefined ? undefined : String(options.after);
  let retry = 1000;
  let failures = 0;
  while (!options.signal?.aborted) {
    const query = new URLSearchParams();
    if (options.lang !== undefined) query.set("lang", options.lang);
    const headers: Record<string, string> = { Accept: "text/event-stream" };
    if (options.key !== undefined) headers.Authorization = `Bearer ${options.key}`;
    if (lastId !== undefined) headers["Last-Event-ID"] = lastId;
    let wait: number;
    try {
      const url = `${options.baseUrl}/v1/tables/${encodeURIComponent(options.table)}/events?${query}`;
      const response = await send(url, { headers, signal: options.signal });
      if (response.status === 204) return;
      if (response.status === 429 || response.status === 503) {
        const after = Number(response.headers.get("Retry-After"));
        wait = Number.isFinite(after) && after > 0 ? after * 1000 : backoff(retry, ++failures);
        await response.body?.cancel();
      } else if (!response.ok || response.body === null) {
        const text = await response.text();
        options.onError?.(response.status, text ? JSON.parse(text) : undefined);
        return;
      } else {
        failures = 0;
        const said = await readEvents(response.body, (event) => {
          if (event.id !== undefined) lastId = event.id;
          if (event.event === "reconnect") {
            const asked = (JSON.parse(event.data) as { retry?: number }).retry;
            if (typeof asked === "number") retry = asked;
            return;
          }
          options.onEvent(event);
        });
        if (said !== undefined) retry = said;
        wait = retry;
      }
    } catch (error) {
      if (options.signal?.aborted) return;
      wait = backoff(retry, ++failures);
    }
    await sleep(wait);
  }
}

function backoff(base: number, failures: number): number {
  const ms = Math.min(MAX_BACKOFF_MS, base * 2 ** Math.min(failures, 10));
  return ms / 2 + Math.random() * (ms / 2);
}
