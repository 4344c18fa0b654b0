// What the player does at the table: a click on a move, a card to choose, Start, Leave,
// Rematch, Hint, a record to check, a link to copy; each sent to the API, its answer handed
// to the TableView like the stream's.
import {
  ApiError, getAdvice, getRecord, leaveTable, playMove, rematch, returnToSeat, startTable,
} from "./api.js";
import { announce } from "./dom.js";
import { t } from "./i18n.js";
import { checkRecord } from "./life.js";
import { remember } from "./storage.js";

/** A click anywhere on the table, sent on by the control it pressed. */
export function clicked(ui, event) {
  const control = event.target.closest("[data-move], [data-select], [data-copy], [data-hint], "
    + "[data-show-log], [data-start], [data-leave], [data-return], [data-rematch], "
    + "[data-check-record], "
    + "[data-retry]");
  if (!control || control.disabled) return;
  if (control.hasAttribute("data-retry")) {
    ui.stream.retryNow();
  } else if (control.hasAttribute("data-start")) {
    act(ui, () => startTable(ui.table, ui.key));
  } else if (control.hasAttribute("data-leave")) {
    if (ui.leaving) act(ui, () => leaveTable(ui.table, ui.key));
    ui.leaving = !ui.leaving;
    ui.render();
  } else if (control.hasAttribute("data-return")) {
    act(ui, () => returnToSeat(ui.table, ui.key, ui.answer.seat));
  } else if (control.hasAttribute("data-rematch")) {
    joinRematch(ui);
  } else if (control.hasAttribute("data-check-record")) {
    checkMatchRecord(ui);
  } else if (control.hasAttribute("data-show-log")) {
    ui.logSection.scrollIntoView({ block: "start" });
    ui.log.focus({ preventScroll: true });
  } else if (control.hasAttribute("data-hint")) {
    askHint(ui);
  } else if (control.dataset.move) {
    play(ui, JSON.parse(control.dataset.move));
  } else if (control.dataset.copy) {
    copy(ui, control);
  } else {
    const [kind, value] = control.dataset.select.split(":");
    if (kind === "clear") {
      ui.give.clear();
      ui.take.clear();
      ui.render();
      return;
    }
    const chosen = kind === "give" ? ui.give : ui.take;
    const item = kind === "give" ? value : Number(value);
    if (chosen.has(item)) chosen.delete(item);
    else chosen.add(item);
    ui.render();
  }
}

/** A move, sent with the version it was chosen at. */
export async function play(ui, move) {
  if (ui.busy) return;
  ui.busy = true;
  ui.error = "";
  ui.render();
  try {
    const answer = await playMove(ui.table, ui.key, move, ui.answer.version);
    // The moves this seat may make next come with the table, if not with the move's answer.
    const whole = Array.isArray(answer.legal_moves) && "to_move" in answer;
    ui.busy = false;
    ui.receive(answer.version, answer.events ?? [], whole ? answer : null);
  } catch (error) {
    if (error instanceof ApiError && error.problem?.code === "stale_version") {
      await ui.refresh();
    } else {
      ui.error = t("failed", { detail: error.message });
    }
  }
  ui.busy = false;
  ui.render();
}

/** Start, Leave: the answer is the table as it is then, shown like a move's. */
export async function act(ui, call) {
  if (ui.busy) return;
  ui.busy = true;
  ui.error = "";
  ui.render();
  try {
    const answer = await call();
    ui.busy = false;
    ui.receive(answer.version, answer.events ?? [], "to_move" in answer ? answer : null);
  } catch (error) {
    ui.error = t("failed", { detail: error.message });
  }
  ui.busy = false;
  ui.leaving = false;
  ui.render();
}

/** The rematch: the first to ask opens it; the others' pages, told by the old table, ask
in turn; each gets its own key there and the page moves to the new table. */
export async function joinRematch(ui) {
  if (ui.rematching || !ui.key) return;
  ui.rematching = true;
  announce(t("rematch_joining"));
  try {
    // The first to ask opens the new table, and may start it before the others come.
    const opened = !ui.answer.rematch;
    const answer = await rematch(ui.table, ui.key);
    remember(answer.table, { creator: opened, seed_sha256: answer.seed_sha256 });
    ui.onMoved({ table: answer.table, key: answer.key });
  } catch (error) {
    ui.rematching = false;
    ui.error = t("failed", { detail: error.message });
    ui.render();
  }
}

/** The record's checks a page can make (the full replay is `thirtyone verify`): of the
server's record of this table, or of a record file the player chose (`file`). The seed's
fingerprint is the one this page saw first, before the first move. */
export async function checkMatchRecord(ui, file = null) {
  try {
    const record = file ? JSON.parse(await file.text()) : await getRecord(ui.table);
    ui.record = checkRecord(record, { answer: ui.answer, mine: ui.facts.entropy,
      published: ui.facts.seed_sha256 ?? ui.answer.seed_sha256 });
  } catch (error) {
    ui.record = [{ code: "format", ok: false,
      text: error instanceof SyntaxError ? t("record_format_bad") : error.message }];
  }
  announce(ui.record.map((check) => check.text).join(" "));
  ui.render();
}

/** The seat's own advice for this version, from the API (which sees only this seat's
view). An exchange advised is chosen on the table, so its Exchange control appears. */
export async function askHint(ui) {
  const { version } = ui.answer;
  // One question at a time; the button keeps the focus meanwhile.
  if (ui.hint?.version === version && !ui.hint.advice && !ui.hint.error) return;
  ui.hint = { version };
  ui.render();
  let hint;
  try {
    hint = { version, advice: await getAdvice(ui.table, ui.key) };
  } catch (error) {
    hint = { version, error: error.message };
    if (error instanceof ApiError && error.problem?.code === "hints_off") ui.hintsOff = true;
  }
  // The table may have moved on while the hint was on its way: that hint is of no use.
  if (ui.answer.version !== version) return;
  ui.hint = hint;
  const best = hint.advice?.moves[hint.advice.best].move;
  announce(hint.error ? t("hint_failed", { detail: hint.error })
    : t("hint_best", { move: hint.advice.moves[hint.advice.best].description }));
  if (best?.type === "exchange") {
    ui.give = new Set(best.give);
    ui.take = new Set(best.take);
  }
  ui.render();
}

export async function copy(ui, button) {
  try {
    await navigator.clipboard.writeText(button.dataset.copy);
    button.textContent = t("copied");
  } catch {
    // Without clipboard access (a page served over plain HTTP), the link stays selectable.
    window.getSelection()?.selectAllChildren(button.previousElementSibling);
  }
}
