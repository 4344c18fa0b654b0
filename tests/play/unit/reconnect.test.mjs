// When a lost stream is opened again (api/thirtyone/web/play/reconnect.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import { RECONNECT_MAX_MS, RECONNECT_MS, reconnectWait } from "../../../api/thirtyone/web/play/reconnect.js";

test("the wait doubles from one failure to the next, in the upper half of its ceiling", () => {
  for (let failures = 0; failures < 6; failures += 1) {
    const ceiling = Math.min(RECONNECT_MAX_MS, RECONNECT_MS * 2 ** failures);
    assert.equal(reconnectWait(failures, null, () => 0), ceiling / 2);
    assert.equal(reconnectWait(failures, null, () => 0.999999) <= ceiling, true);
  }
});

test("the wait never passes the longest one, however many failures", () => {
  for (const failures of [10, 50, 1000]) {
    assert.ok(reconnectWait(failures, null, () => 0.999999) <= RECONNECT_MAX_MS);
  }
  // The first try comes within a second of a restart.
  assert.ok(reconnectWait(0) <= 1000);
});

test("pages cut off at once come back spread out", () => {
  const waits = new Set(Array.from({ length: 50 }, () => Math.round(reconnectWait(3))));
  assert.ok(waits.size > 25);
});

test("a refusal for load that says how long to wait is obeyed", () => {
  assert.equal(reconnectWait(0, 12, () => 0), 12_000);
  // A shorter Retry-After than the backed-off wait leaves the wait as it is.
  assert.equal(reconnectWait(5, 0, () => 0), Math.min(RECONNECT_MAX_MS, RECONNECT_MS * 32) / 2);
});
