// Type-checked by `make clients` (tsc --strict), never shipped: the generated types accept what
// a later version of /v1 may answer (tests/web/test_open_contract.py does the same at run time
// with the generated Python client), and a switch on known event types still compiles.
import type { components } from "./api.js";

type Schemas = components["schemas"];

export const newCode: Schemas["Problem"]["code"] = "a_code_of_tomorrow";
export const newPhase: Schemas["Table"]["phase"] = "paused";
export const newEvent: Schemas["Event"] = { type: "comet_passed", message: "A comet passed.", tail: 3 };
export function said(event: Schemas["Event"]): string {
  switch (event.type) {
    case "knocked":
      return `${event.message} (seat ${String(event.seat)})`;
    default:
      return event.message; // any other type, a new one included
  }
}
