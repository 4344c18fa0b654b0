import { test } from "node:test";
import assert from "node:assert/strict";
import { createClient } from "../dist/index.js";

test("the client fills the path, the query and the key, and tells data from problems", async () => {
  const sent = [];
  const api = createClient({
    baseUrl: "http://api", key: "k", lang: "ru",
    fetch: async (url, init) => {
      sent.push([url, init.method, init.headers.Authorization, init.body]);
      return url.includes("nope")
        ? new Response(JSON.stringify({ code: "a_code_of_tomorrow", status: 404 }), { status: 404 })
        : new Response(JSON.stringify({ id: "scat", phase: "a_phase_of_tomorrow" }), { status: 200 });
    },
  });
  const found = await api.GET("/v1/variants/{variant_id}", { params: { path: { variant_id: "scat" } } });
  assert.equal(found.data.id, "scat");
  const missing = await api.GET("/v1/variants/{variant_id}", { params: { path: { variant_id: "nope" } } });
  assert.equal(missing.error.code, "a_code_of_tomorrow");
  await api.POST("/v1/hands/score", { body: { hand: ["AS", "KS", "QS"], variant: "scat" } });
  assert.deepEqual(sent[0], ["http://api/v1/variants/scat?lang=ru", "GET", "Bearer k", undefined]);
  assert.equal(sent[2][3], JSON.stringify({ hand: ["AS", "KS", "QS"], variant: "scat" }));
});
