import { test } from "node:test";
import assert from "node:assert/strict";
import { followTable } from "../dist/index.js";

const stream = (text) => new Response(new ReadableStream({
  start(controller) {
    // split mid-line, as a network does
    const bytes = new TextEncoder().encode(text);
    controller.enqueue(bytes.subarray(0, 7));
    controller.enqueue(bytes.subarray(7));
    controller.close();
  },
}), { status: 200, headers: { "Content-Type": "text/event-stream" } });

test("the stream resumes with Last-Event-ID after the server's waits, and stops on 204", async () => {
  const answers = [
    () => stream("retry: 1000\n\nid: 4\ndata: {\"version\": 4}\n\n: keep-alive\n\nid: 5\ndata: {\"version\":\n\n"),
    () => { throw new TypeError("network down"); },
    () => new Response("{}", { status: 503, headers: { "Retry-After": "2" } }),
    () => stream("retry: 1000\n\nid: 6\nevent: brand_new\ndata: {}\n\nretry: 2500\nevent: reconnect\ndata: {\"retry\": 2500}\n\n"),
    () => new Response(null, { status: 204 }),
  ];
  const sent = [];
  const waits = [];
  const events = [];
  await followTable({
    baseUrl: "http://api", table: "t1", key: "seat-key", after: 3,
    onEvent: (event) => events.push(event),
    fetch: async (url, init) => { sent.push({ url, headers: init.headers }); return answers.shift()(); },
    sleep: async (ms) => { waits.push(ms); },
  });
  assert.deepEqual(sent.map((request) => request.headers["Last-Event-ID"]), ["3", "5", "5", "5", "6"]);
  assert.equal(sent[0].headers.Authorization, "Bearer seat-key");
  assert.deepEqual(events.map((event) => [event.event, event.id]),
    [["message", "4"], ["message", "5"], ["brand_new", "6"]]);
  assert.equal(waits[0], 1000); // the stream ended: the server's retry
  assert.ok(waits[1] >= 1000 && waits[1] <= 2000); // a network error: backoff with jitter
  assert.equal(waits[2], 2000); // 503: Retry-After
  assert.equal(waits[3], 2500); // event: reconnect
  assert.equal(waits.length, 4);
});

test("an error status ends the stream with its problem", async () => {
  let said;
  await followTable({
    baseUrl: "http://api", table: "t1", onEvent: () => assert.fail("no event"),
    onError: (status, problem) => { said = [status, problem.code]; },
    fetch: async () => new Response(JSON.stringify({ code: "no_seat" }), { status: 403 }),
  });
  assert.deepEqual(said, [403, "no_seat"]);
});
