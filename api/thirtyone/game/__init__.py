"""Playing a match: a stateless, seeded state machine over immutable game states.

Start with :func:`new_game`, ask :func:`legal_moves`, check with :func:`validate_move`,
play with :func:`apply_move` (a new state and the events), show a seat its :func:`view`.
A state is plain data through :meth:`GameState.to_dict` and :meth:`GameState.from_dict`.
"""

from thirtyone.game.checks import read_state
from thirtyone.game.flow import Played, apply_move, legal_moves, new_game, validate_move
from thirtyone.game.moves import (
    DeclareMove,
    DiscardMove,
    DrawMove,
    ExchangeMove,
    JoinMove,
    KeepMove,
    KnockMove,
    Move,
    NextRoundMove,
    PassMove,
    PlayedExchange,
    PlayedMove,
    RenewMove,
    RevealMove,
    Seated,
    StandMove,
    SwapHandMove,
    TakeMove,
)
from thirtyone.game.operations import MOVE_TYPES, MOVES
from thirtyone.game.state import GameState, Phase, RoundResult, Seat, SeatData, ShownHand
from thirtyone.game.views import View, view

# The one reader of state data (it checks every family's rules, so the state module, below
# them all, cannot import it).
GameState.reader = read_state

__all__ = [
    "MOVES",
    "MOVE_TYPES",
    "DeclareMove",
    "DiscardMove",
    "DrawMove",
    "ExchangeMove",
    "GameState",
    "JoinMove",
    "KeepMove",
    "KnockMove",
    "Move",
    "NextRoundMove",
    "PassMove",
    "Phase",
    "Played",
    "PlayedExchange",
    "PlayedMove",
    "RenewMove",
    "RevealMove",
    "RoundResult",
    "Seat",
    "SeatData",
    "Seated",
    "ShownHand",
    "StandMove",
    "SwapHandMove",
    "TakeMove",
    "View",
    "apply_move",
    "legal_moves",
    "new_game",
    "validate_move",
    "view",
]
