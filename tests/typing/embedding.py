"""An app embedding the engine, as its author would write it: checked by ``mypy --strict``
(tests/typing/test_typing.py), so the engine's types must carry it without a cast."""

from __future__ import annotations

from thirtyone import (
    DrawMove,
    Event,
    GameState,
    Move,
    View,
    apply_move,
    legal_moves,
    new_game,
    score_hand,
    solve,
    view,
)
from thirtyone.bots import make_bot


def first_knock(moves: list[Move]) -> Move:
    """Knock when allowed, else the first legal move."""
    for move in moves:
        if move["type"] == "knock":
            return move
    return moves[0]


def describe(event: Event) -> str:
    """A line per event, reading each type's own fields."""
    if event["type"] == "drew":
        return f"seat {event['seat']} drew from the {event['source']}"
    if event["type"] == "discarded":
        return f"seat {event['seat']} discarded {event['card']}"
    if event["type"] == "shown":
        return f"seat {event['seat']} shows {event['points']}"
    return event["type"]


def play(seed: int) -> tuple[GameState, list[str]]:
    state = new_game("scat", 2, seed=seed, dealer=0)
    lines: list[str] = []
    draw: DrawMove = {"type": "draw", "source": "stock"}
    state, events = apply_move(state, draw)
    lines += [describe(event) for event in events]
    while not state.is_over:
        state, events = apply_move(state, first_knock(legal_moves(state)))
        lines += [describe(event) for event in events]
    return state, lines


def bot_move(state: GameState) -> Move:
    """A bot's choice is one of the engine's moves, typed as such (no cast)."""
    seat = state.dealer if state.to_move is None else state.to_move
    return make_bot("greedy", 7).choose(view(state, seat), legal_moves(state))


def my_cards(state: GameState, seat: int) -> list[str]:
    seen: View = view(state, seat)
    return [code for code in seen["hands"][seat] if code is not None]


if __name__ == "__main__":
    final, told = play(7)
    print("\n".join(told), final.winners, my_cards(final, 0))
    print(score_hand(["AS", "KS", "10S"]).points, solve(["5H"]).wins)
