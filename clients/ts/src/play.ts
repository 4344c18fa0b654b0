// Plays a sealed game of scat, then a hosted table against a bot, against the API with
// openapi-fetch and the types that openapi-typescript generated from openapi.yaml
// (src/api.d.ts, made by `npm run generate`): no cast, no `any`.
// `make clients` type-checks it with `tsc --strict`; tests/web/test_clients_ts.py also runs it:
//   node build/play.js http://127.0.0.1:8000
import createClient from "openapi-fetch";
import type { components, paths } from "./api.js";

type Move = components["schemas"]["Move"];
type Event = components["schemas"]["Event"];
type View = components["schemas"]["View"];

const baseUrl = process.argv[2] ?? "http://127.0.0.1:8000";
const api = createClient<paths>({ baseUrl });

/** Knock once a few turns have passed, else the first legal move. */
function choose(moves: Move[], view: View): Move {
  const knock = moves.find((move) => move.type === "knock");
  const first = moves[0];
  if (first === undefined) throw new Error("no legal move");
  return knock !== undefined && view.turns > 2 ? knock : first;
}

/** One line per event, reading each type's own fields. */
function describe(event: Event): string {
  switch (event.type) {
    case "drew":
      return `${event.message} (seat ${event.seat}, ${event.source})`;
    case "discarded":
      return `${event.message} (${event.card})`;
    case "shown":
      return `${event.message} (${event.points ?? "-"} points)`;
    default:
      return event.message;
  }
}

async function sealedGame(): Promise<void> {
  const started = await api.POST("/v1/games", {
    body: { variant: "scat", players: 2, seed: "typescript", options: { lives: 1 } },
  });
  if (started.error) throw new Error(started.error.detail);
  const keys = started.data.seat_keys ?? [];
  let token = started.data.token;
  let toMove = started.data.to_move;
  let over = started.data.is_over;
  let winners: number[] = [];
  let moves = 0;
  while (!over && moves < 400) {
    const seat = toMove ?? 0; // between rounds any seat deals the next one
    const seen = await api.POST("/v1/games/view", {
      body: { token, seat, seat_key: keys[seat] },
    });
    if (seen.error) throw new Error(seen.error.detail);
    const move = choose(seen.data.legal_moves, seen.data.view);
    const played = await api.POST("/v1/games/moves", {
      params: { query: { lang: "it" } },
      body: { token, seat, seat_key: keys[seat], move },
    });
    if (played.error) throw new Error(`${played.error.code}: ${played.error.detail}`);
    played.data.events.forEach((event) => console.log(describe(event)));
    token = played.data.token;
    toMove = played.data.to_move;
    over = played.data.is_over;
    winners = played.data.view.winners;
    moves += 1;
  }
  if (!over) throw new Error("the match did not end");
  console.log(`winners: ${winners.join(", ")} after ${moves} moves`);
}

/** A hosted table against a bot: read it, move at its version, long-poll what followed. */
async function hostedTable(): Promise<void> {
  const opened = await api.POST("/v1/tables", {
    body: { variant: "scat", players: 2, bots: { "1": "greedy" }, options: { lives: 1 } },
  });
  if (opened.error) throw new Error(opened.error.detail);
  const mine = opened.data.seats.find((seat) => seat.bot === null)?.key;
  if (mine === undefined || mine === null) throw new Error("no key for the human seat");
  const table = opened.data.table;
  const seatKey = { Authorization: `Bearer ${mine}` };
  let version = opened.data.version;
  let moves = 0;
  for (; moves < 400; moves += 1) {
    const seen = await api.GET("/v1/tables/{table}", {
      params: { path: { table } },
      headers: seatKey,
    });
    if (seen.error) throw new Error(seen.error.detail);
    // A table of one human and bots is dealt at once: it never waits for players.
    const view = seen.data.view;
    // The contract's nullable view (OpenAPI 3.0): the View itself, or an empty object.
    if (view === null || !("hands" in view)) throw new Error("the table waits for players");
    if (seen.data.is_over) {
      console.log(`table over at version ${seen.data.version}, seed ${view.seed}`);
      return;
    }
    const move = choose(seen.data.legal_moves, view);
    const played = await api.POST("/v1/tables/{table}/moves", {
      params: { path: { table } },
      headers: seatKey,
      body: { move, version },
    });
    if (played.error) throw new Error(`${played.error.code}: ${played.error.detail}`);
    version = played.data.version;
    const polled = await api.GET("/v1/tables/{table}/updates", {
      params: { path: { table }, query: { after: played.data.cursor, wait: 0 } },
      headers: seatKey,
    });
    if (polled.error) throw new Error(polled.error.detail);
    if (polled.data.version !== version) throw new Error("the long poll skipped a version");
  }
  throw new Error("the table did not end");
}

async function main(): Promise<void> {
  await sealedGame();
  await hostedTable();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
