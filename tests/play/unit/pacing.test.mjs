// The order and the pace of the events a table shows (api/thirtyone/web/play/pacing.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  ACTIONS, DEFAULT_SPEED, EventQueue, pauseBefore, SPEEDS, speedOf,
} from "../../../api/thirtyone/web/play/pacing.js";

const drew = (seat) => ({ type: "drew", seat });
const dealt = { type: "dealt", seat: null };
const bots = new Set([1, 2]);
const isBot = (seat) => bots.has(seat);

test("versions are queued in order, each once, from the stream or a move's answer", () => {
  const queue = new EventQueue();
  assert.equal(queue.receive(1, [dealt], null, true), true);
  assert.equal(queue.receive(2, [drew(0)], { version: 2 }), true);
  // The same version from the stream after the move's answer: taken in once.
  assert.equal(queue.receive(2, [drew(0)], null, true), false);
  assert.deepEqual(queue.items.map((item) => item.version), [1, 2]);
  assert.equal(queue.queued, 2);
});

test("a later answer fills a queued version's table", () => {
  const queue = new EventQueue();
  queue.receive(1, [dealt], null, true);
  queue.receive(1, [dealt], { version: 1, to_move: 0 });
  assert.deepEqual(queue.next().answer, { version: 1, to_move: 0 });
  assert.equal(queue.next(), undefined);
});

test("a move's answer ahead of the stream waits for the versions before it", () => {
  const queue = new EventQueue();
  queue.receive(1, [dealt], null, true);
  // The move's answer (version 4) came before the stream's versions 2 and 3.
  assert.equal(queue.receive(4, [drew(0)], { version: 4 }), false);
  assert.equal(queue.length, 1);
  queue.receive(2, [drew(1)], null, true);
  queue.receive(3, [drew(2)], null, true);
  assert.equal(queue.receive(4, [drew(0)], null, true), true);
  assert.deepEqual(queue.items.map((item) => [item.version, item.answer?.version ?? null]),
    [[1, null], [2, null], [3, null], [4, 4]]);
  assert.equal(queue.early.size, 0);
});

test("a reset drops the old timeline and starts a new epoch", () => {
  const queue = new EventQueue();
  queue.receive(1, [dealt], null, true);
  queue.receive(3, [drew(0)], { version: 3 });
  queue.reset(7);
  assert.equal(queue.epoch, 1);
  assert.equal(queue.length, 0);
  assert.equal(queue.early.size, 0);
  assert.equal(queue.receive(7, [drew(0)], null, true), false);
  assert.equal(queue.receive(8, [drew(0)], null, true), true);
});

test("only a computer player's own move waits", () => {
  const item = { version: 2, events: [drew(0), dealt, drew(1)] };
  assert.equal(pauseBefore(item, item.events[0], [], isBot), 0);
  assert.equal(pauseBefore(item, item.events[1], [], isBot), 0);
  assert.equal(pauseBefore(item, item.events[2], [], isBot), SPEEDS.normal.pause);
  assert.ok(ACTIONS.has("exchanged") && !ACTIONS.has("dealt"));
});

test("a long run of computer moves is shown faster: each pause at most run / moves left", () => {
  const many = Array.from({ length: 40 }, (_, index) => drew(1 + (index % 2)));
  const item = { version: 2, events: many.slice(0, 20) };
  const waiting = [{ version: 3, events: many.slice(20) }];
  const first = pauseBefore(item, item.events[0], waiting, isBot);
  assert.equal(first, SPEEDS.normal.run / 40);
  // The 40 pauses add up to run × H(40) at most with the long pauses capped: 14.1 s here,
  // where 40 full pauses would take 24 s.
  let total = 0;
  for (const event of item.events) total += pauseBefore(item, event, waiting, isBot);
  for (const event of waiting[0].events) total += pauseBefore(waiting[0], event, [], isBot);
  let bound = 0;
  for (let left = 1; left <= 40; left += 1) bound += Math.min(SPEEDS.normal.pause, SPEEDS.normal.run / left);
  assert.ok(Math.abs(total - bound) < 1e-6, `${total} ms, not ${bound}`);
  assert.ok(total < 40 * SPEEDS.normal.pause * 0.6);
});

test("each speed is faster than the one before, and an unknown one is the default", () => {
  assert.ok(SPEEDS.slow.pause > SPEEDS.normal.pause && SPEEDS.normal.pause > SPEEDS.fast.pause);
  assert.equal(speedOf("warp"), SPEEDS[DEFAULT_SPEED]);
  const item = { version: 2, events: [drew(1)] };
  assert.equal(pauseBefore(item, item.events[0], [], isBot, speedOf("fast")), SPEEDS.fast.pause);
});
