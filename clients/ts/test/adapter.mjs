// The package as an implementation under `thirtyone conformance`: JSON lines in, JSON lines
// out, hands from the tables of `thirtyone tables vectors DIR` (the games are skipped).
//   thirtyone conformance --command "node clients/ts/test/adapter.mjs clients/ts/build/tables"
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { join } from "node:path";
import { HandTable } from "../dist/index.js";

const folder = process.argv[2] ?? "build/tables";
const key = (variant, options) => JSON.stringify([variant, Object.entries(options ?? {}).sort()]);
const tables = new Map(JSON.parse(readFileSync(join(folder, "index.json"), "utf8")).map(
  (entry) => [key(entry.variant, entry.options), join(folder, entry.file)]));
const loaded = new Map();

function table(variant, options) {
  const name = key(variant, options);
  if (!loaded.has(name)) {
    const file = tables.get(name);
    loaded.set(name, file === undefined ? null : HandTable.fromBinary(readFileSync(file)));
  }
  return loaded.get(name);
}

for await (const line of createInterface({ input: process.stdin })) {
  const request = JSON.parse(line);
  const judge = request.variant === undefined ? null : table(request.variant, request.options);
  let answer = { skip: true };
  if (judge !== null && request.op === "score") answer = judge.score(request.cards);
  if (judge !== null && request.op === "compare") answer = { order: judge.compare(request.hands) };
  process.stdout.write(JSON.stringify(answer) + "\n");
}
