"""The widow family: schnautz, trentuno, jokers, no-trips, stop-the-bus, schwimmen (RULES.md
§4.6, §4.8-§4.10, §4.12, §4.14).

Three cards are dealt to the ``table`` (the widow), one after each round of dealing, face up
(``widow: face-up`` or ``table_face_up``) or face down; the rest of the deck stays in the
``stock``, unused but for renewing the table (``may_pass``, below). A turn exchanges cards of
the hand for widow cards: ``{"type": "exchange", "give": ["7H"], "take": [0]}`` gives
``give[i]`` for the card at widow position ``take[i]``; the cards given lie face up, or face
down with ``widow_discards: face-down``. How many cards a turn exchanges: one up to
``exchange_max``, or with ``exchange: one-or-three`` one or all three.

The phases of a deal, each optional:

- ``join`` (``tie: carry``): the deal after a tied deal is played by the tied seats; every
  other seat, seeing its cards, ``join``\\s by paying the pot's amount or ``pass``\\es (its
  cards go out of play face down) [resolved: the source does not say when they decide];
- ``choose`` (a face-down table, no-trips): the dealer (with ``spare_hand_to: first-player``
  the seat at the dealer's left) exchanges all three cards for the table cards, which then
  lie face up, or ``reveal``\\s the table;
- ``declare`` (``declarations``): from the dealer's left each seat may ``declare`` a 31 of one
  suit, three of a kind or three cards of one suit, or ``pass``; the first declaration ends
  the deal with a showdown;
- ``exchange``: from the dealer's left each seat exchanges or knocks (``knock: plain``; with
  ``knock: take-all`` taking all three widow cards is the knock and a turn must exchange);
  with ``close_after_exchange`` an exchange may end with a knock (``"knock": true``, the
  seat "closes"), as a knock would in that turn (``knock_first_round`` applies);
  after a knock each other seat has one last turn, to exchange or ``stand``; then the
  showdown (a knock before anyone has played goes straight to it with
  ``knock_first_round: showdown``). Whoever makes 31 ends the deal at once (not with the
  brag ranking), or with ``on_31: knock`` has knocked (the hand stays as it is, every other
  seat has one last turn; a 31 the dealer takes with the face-down table counts as dealt and
  ends the deal). With ``may_pass`` (schwimmen) a turn may ``pass`` instead, after a
  knock too (there is no ``stand``); when every seat playing has passed in a row the table
  cards go out of play and three from the stock are laid face up in their place, or, with
  fewer than three left, the showdown comes.

At the deal, a widow of 31 wins the pot for the dealer (``widow_31_wins``) and seats dealt 31
win it (``dealt_31_wins``; otherwise a dealt 31 is announced at once [000] and ends the
deal the same way, with the reason ``thirty_one``). Feuer (three aces with
``three_aces_fire``) ends the deal at once as a blitz does, dealt or made, before or after a
knock. The knocker pays ``call_fee`` into the pot. A deck too small for the seats (jokers
with ``short36``: at most 11) is refused with ``bad_players``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import StrEnum
from typing import Any, Protocol

from thirtyone.cards import Card
from thirtyone.errors import N_, OptionError, StateError
from thirtyone.game.dealing import deal, dealing_order
from thirtyone.game.exchange import (
    exchange_moves,
    exchange_sizes,
    hide_gift,
    read_exchange,
    swap,
)
from thirtyone.game.family import (
    Events,
    PlainKnock,
    PlainStand,
    TurnFlow,
    close_turn,
    showdown_due,
)
from thirtyone.game.moves import Move, PlayedMove, move_card, refuse
from thirtyone.game.operations import (
    Declare,
    Exchange,
    Join,
    Operation,
    Pass,
    Reveal,
    is_move,
)
from thirtyone.game.pot import carried_seats
from thirtyone.game.settlement import Outcome, hand_scores, pay
from thirtyone.game.settlers import settle_blitz, settle_round, settle_showdown
from thirtyone.game.state import GameState
from thirtyone.hands import HAND_SIZE, HandScore, evaluator
from thirtyone.rules import Family, Rules

WIDOW_SIZE = HAND_SIZE


class WidowPhase(StrEnum):
    JOIN = "join"
    """A carried deal: a seat that did not tie joins by paying the pot's amount, or passes."""
    CHOOSE = "choose"
    """The dealer takes the face-down table cards for their own, or reveals them."""
    DECLARE = "declare"
    """A seat declares a strong hand, or passes."""
    EXCHANGE = "exchange"
    """A seat exchanges with the widow, knocks, or stands after a knock."""


def has_31(rules: Rules, score: HandScore) -> bool:
    """Whether a hand is a 31 that ends the deal (never with the brag ranking)."""
    return rules.ranking != "brag" and score.points == 31


def is_fire(score: HandScore) -> bool:
    """Whether a hand is Feuer: three aces, or with ``fire: any-trips`` any three of a kind,
    that end the deal as a blitz does (the evaluator reads them as a blitz); a blitz 31 is
    not (``on_31`` says what it does)."""
    return score.is_blitz and score.category != "blitz"


def passes_in_a_row(state: GameState) -> int:
    """The passes played in a row just before this move.

    Read from the end of the history, which holds at least the moves of the round being
    played: the round's first entry (``next_round``, the dealer's choice) is never a pass.
    """
    return trailing_passes(state.history)


def trailing_passes(history: Sequence[Mapping[str, Any]]) -> int:
    """The passes at the end of ``history``."""
    count = 0
    for entry in reversed(history):
        if not is_move(entry, Pass):
            break
        count += 1
    return count


class WidowFlow(TurnFlow):
    family = Family.WIDOW
    phases = frozenset(WidowPhase)

    def supports(self, rules: Rules) -> None:
        """Every widow-family option is played."""

    # The deal

    def start_round(self, state: GameState) -> tuple[GameState, Events]:
        rules = state.rules
        order = dealing_order(state)
        deck = len(rules.deck_cards.cards)
        if HAND_SIZE * len(order) + WIDOW_SIZE > deck:
            raise OptionError(
                "bad_players", N_("{variant!r} with the deck {deck} is played by at most "
                                  "{maximum} players"), field="players", variant=rules.variant,
                deck=rules.deck, maximum=(deck - WIDOW_SIZE) // HAND_SIZE, players=len(order))
        hands, widow, rest = deal(state, order, widow=True)
        face_up = rules.widow == "face-up" or rules.table_face_up
        state = state.evolve(
            turns=0, hands=hands, stock=rest, discard=(), table=widow,
            table_face_up=(face_up,) * len(widow), out=(), knocker=None, final_turns=0,
            pickup=None,
        )
        events: Events = [
            {"type": "dealt", "round": state.round, "dealer": state.dealer},
            {"type": "widow_dealt", "cards": [card.code if face_up else None for card in widow]},
        ]
        joining = to_join(state, order)
        if joining:
            return state.evolve(phase=WidowPhase.JOIN, turn=joining[0]), events
        return self.begin(state, events)

    def begin(self, state: GameState, events: Events) -> tuple[GameState, Events]:
        """After the deal (and the joins): the 31s shown at once, then the first phase."""
        rules = state.rules
        score = evaluator(rules).score
        order = self.players(state)
        if rules.widow_31_wins and has_31(rules, score(state.table)):
            state = state.evolve(table_face_up=(True,) * len(state.table))
            events.append({"type": "widow_31", "seat": state.dealer,
                           "cards": [card.code for card in state.table]})
            return self.end(state, "widow_31", (state.dealer,), events)
        fire = tuple(seat for seat in order if is_fire(score(state.hands[seat])))
        if fire:
            return settle_blitz(state, fire, events)
        dealt = tuple(seat for seat in order if has_31(rules, score(state.hands[seat])))
        if dealt:
            # A 31 is announced at once [000], before any declaration or exchange.
            events.extend({"type": "thirty_one", "seat": seat} for seat in dealt)
            reason = "dealt_31" if rules.dealt_31_wins else "thirty_one"
            return self.end(state, reason, dealt, events)
        if not state.table_face_up[0]:
            return state.evolve(phase=WidowPhase.CHOOSE, turn=chooser(state, order)), events
        first = WidowPhase.DECLARE if rules.declarations else WidowPhase.EXCHANGE
        return state.evolve(phase=first, turn=order[0]), events

    # The operations of each phase

    def operations(self, state: GameState) -> Sequence[Operation[Any]]:
        """The phase's row of :attr:`turns`; with ``may_pass`` a turn may pass instead of
        standing."""
        if state.rules.may_pass and state.phase == WidowPhase.EXCHANGE:
            return PASSING_TURN
        return self.turns[state.phase]

    def uses(self, rules: Rules) -> frozenset[str]:
        return frozenset(kind for kind, used in {
            "exchange": True,
            "join": rules.tie == "carry",
            "reveal": rules.widow == "face-down",
            "declare": rules.declarations,
            "knock": rules.knock == "plain",
            "stand": rules.knock == "plain" and not rules.may_pass,
            "pass": rules.declarations or rules.tie == "carry" or rules.may_pass,
        }.items() if used)

    # The effects the operations share

    def may_close(self, state: GameState) -> bool:
        """Whether the seat to play may end its exchange with a knock (``close_after_exchange``),
        as it could knock instead."""
        return (state.rules.close_after_exchange and state.phase == WidowPhase.EXCHANGE
                and state.knocker is None and self.may_knock(state))


    def pass_turn(self, state: GameState, seat: int) -> tuple[GameState, Events]:
        """``seat`` passes; the last of a full round of passes before any knock renews the
        table from the stock, or ends the round with a showdown when the stock is too
        short."""
        events: Events = [{"type": "passed", "seat": seat}]
        players = len(self.players(state))
        if state.knocker is not None or (passes_in_a_row(state) + 1) % players:
            return self.end_turn(state, seat, events)
        if len(state.stock) < WIDOW_SIZE:
            events.append({"type": "table_not_renewed", "cards": len(state.stock)})
            return settle_showdown(close_turn(state, next_player(state, seat)), events)
        fresh = state.stock[:WIDOW_SIZE]
        state = state.evolve(table=fresh, table_face_up=(True,) * WIDOW_SIZE,
                             stock=state.stock[WIDOW_SIZE:], out=state.out + state.table)
        events.append({"type": "table_renewed", "cards": [card.code for card in fresh]})
        return self.end_turn(state, seat, events)

    def end_turn(self, state: GameState, seat: int, events: Events,
                 **changes: Any) -> tuple[GameState, Events]:
        """Close ``seat``'s turn: a showdown after the last final turn or at ``max_turns``,
        else the next seat's turn."""
        state = close_turn(state, next_player(state, seat), **changes)
        if showdown_due(state, events):
            return settle_showdown(state, events)
        return state, events

    def end(self, state: GameState, reason: str, seats: tuple[int, ...],
            events: Events) -> tuple[GameState, Events]:
        """Settle the deal: ``seats`` are the ones that ended it (31, declarations)."""
        if reason == "declared":
            events.append({"type": "showdown", "knocker": state.knocker})
        return settle_round(state, Outcome(reason, hand_scores(state), state.knocker, seats),
                            events)

    def public_move(self, entry: Mapping[str, Any], seat: int | None,
                    rules: Rules) -> PlayedMove:
        return hide_gift(entry, rules)

    # Consistency of a state read from data

    def check_state(self, state: GameState) -> None:
        check_widow_state(state, self.phases, WIDOW_SIZE)
        check_carried_deal(state)
        rules, phase = state.rules, state.phase
        if (
            (phase == WidowPhase.CHOOSE
                and (state.turn != chooser(state, self.players(state))
                     or any(state.table_face_up)))
            or (phase == WidowPhase.DECLARE and not rules.declarations)
        ):
            raise StateError("bad_phase", N_("the {phase} phase does not fit this position"),
                             field="phase", phase=str(phase))


class CarriedDeal(Protocol):
    """A flow that may carry a tied pot to a deal the other seats join: it begins the play
    once every seat has decided."""

    def begin(self, state: GameState, events: Events) -> tuple[GameState, Events]: ...


class JoinCarried(Join[CarriedDeal]):
    """Join a carried deal by paying the pot's amount."""

    def legal(self, flow: CarriedDeal, state: GameState) -> list[Move]:
        return [{"type": "join"}]

    def verify(self, flow: CarriedDeal, state: GameState,
               move: Mapping[str, Any]) -> Move:
        return {"type": "join"}

    def apply(self, flow: CarriedDeal, state: GameState,
              move: Mapping[str, Any]) -> tuple[GameState, Events]:
        state, events, decided = join_or_pass(state, state.seat_to_act, True)
        return flow.begin(state, events) if decided else (state, events)


class SitOut(Pass[CarriedDeal]):
    """Sit a carried deal out: the seat's cards go out of play face down."""

    def legal(self, flow: CarriedDeal, state: GameState) -> list[Move]:
        return [{"type": "pass"}]

    def verify(self, flow: CarriedDeal, state: GameState,
               move: Mapping[str, Any]) -> Move:
        return {"type": "pass"}

    def apply(self, flow: CarriedDeal, state: GameState,
              move: Mapping[str, Any]) -> tuple[GameState, Events]:
        state, events, decided = join_or_pass(state, state.seat_to_act, False)
        return flow.begin(state, events) if decided else (state, events)


JOINING: tuple[Operation[Any], ...] = (JoinCarried(), SitOut())
"""A carried deal's first phase: join it or sit it out."""


def _opened(state: GameState, seat: int, events: Events) -> tuple[GameState, Events]:
    """After the dealer's choice: the exchanges begin."""
    return state.evolve(phase=WidowPhase.EXCHANGE, turn=next_player(state, seat)), events


class TakeTable(Exchange[WidowFlow]):
    """The dealer takes the face-down table cards for their whole hand."""

    def legal(self, flow: WidowFlow, state: GameState) -> list[Move]:
        hand = state.hands[state.seat_to_act]
        return [{"type": "exchange", "give": [card.code for card in hand],
                 "take": list(range(WIDOW_SIZE))}]

    def verify(self, flow: WidowFlow, state: GameState,
               move: Mapping[str, Any]) -> Move:
        hand = state.hands[state.seat_to_act]
        return read_exchange(move, hand, len(state.table), (WIDOW_SIZE,))

    def apply(self, flow: WidowFlow, state: GameState,
              move: Mapping[str, Any]) -> tuple[GameState, Events]:
        seat = state.seat_to_act
        cards = [move_card({"card": code}) for code in move["give"]]
        state, event = swap(state, seat, cards, move["take"], True)
        events: Events = [event]
        score = evaluator(state.rules).score(state.hands[seat])
        if is_fire(score):
            return settle_blitz(state, (seat,), events)
        if has_31(state.rules, score):
            events.append({"type": "thirty_one", "seat": seat})
            return flow.end(state, "thirty_one", (seat,), events)
        return _opened(state, seat, events)


class RevealTable(Reveal[WidowFlow]):
    """The dealer turns the face-down table cards face up."""

    def legal(self, flow: WidowFlow, state: GameState) -> list[Move]:
        return [{"type": "reveal"}]

    def verify(self, flow: WidowFlow, state: GameState,
               move: Mapping[str, Any]) -> Move:
        return {"type": "reveal"}

    def apply(self, flow: WidowFlow, state: GameState,
              move: Mapping[str, Any]) -> tuple[GameState, Events]:
        seat = state.seat_to_act
        state = state.evolve(table_face_up=(True,) * len(state.table))
        return _opened(state, seat, [{"type": "widow_revealed", "seat": seat,
                                      "cards": [card.code for card in state.table]}])


class DeclareHand(Declare[WidowFlow]):
    """Declare a 31 of one suit, three of a kind or three cards of one suit: the showdown."""

    def legal(self, flow: WidowFlow, state: GameState) -> list[Move]:
        hand = state.hands[state.seat_to_act]
        return [{"type": "declare"}] if _declarable(state.rules, hand) else []

    def verify(self, flow: WidowFlow, state: GameState,
               move: Mapping[str, Any]) -> Move:
        if not _declarable(state.rules, state.hands[state.seat_to_act]):
            raise refuse("nothing_to_declare",
                         N_("only a 31, three of a kind or three cards of one suit may be "
                            "declared"))
        return {"type": "declare"}

    def apply(self, flow: WidowFlow, state: GameState,
              move: Mapping[str, Any]) -> tuple[GameState, Events]:
        seat = state.seat_to_act
        score = evaluator(state.rules).score(state.hands[seat])
        events: Events = [{"type": "declared", "seat": seat,
                           "category": score.category, "points": score.points}]
        return flow.end(state, "declared", (), events)


class DeclinePass(Pass[WidowFlow]):
    """Declare nothing: the next seat decides, and after the last the exchanges begin."""

    def legal(self, flow: WidowFlow, state: GameState) -> list[Move]:
        return [{"type": "pass"}]

    def verify(self, flow: WidowFlow, state: GameState,
               move: Mapping[str, Any]) -> Move:
        return {"type": "pass"}

    def apply(self, flow: WidowFlow, state: GameState,
              move: Mapping[str, Any]) -> tuple[GameState, Events]:
        seat = state.seat_to_act
        events: Events = [{"type": "passed", "seat": seat}]
        order = flow.players(state)
        if seat == order[-1]:
            return state.evolve(phase=WidowPhase.EXCHANGE, turn=order[0], turns=0), events
        return state.evolve(turn=next_player(state, seat), turns=state.turns + 1), events


class WidowExchange(Exchange[WidowFlow]):
    """Exchange with the widow: a 31 or Feuer it makes ends the deal (``on_31``); with
    ``knock: take-all`` taking all three cards is the knock; with ``close_after_exchange`` the
    exchange may end with a knock (``"knock": true``)."""

    def legal(self, flow: WidowFlow, state: GameState) -> list[Move]:
        hand = state.hands[state.seat_to_act]
        moves = exchange_moves(hand, len(state.table), exchange_sizes(state.rules))
        if flow.may_close(state):
            moves += [{**move, "knock": True} for move in moves]
        return list(moves)

    def verify(self, flow: WidowFlow, state: GameState,
               move: Mapping[str, Any]) -> Move:
        hand = state.hands[state.seat_to_act]
        exchange = read_exchange(move, hand, len(state.table), exchange_sizes(state.rules))
        closes = move.get("knock", False)
        if closes is not False:
            if closes is not True:
                raise refuse("bad_move", N_("knock after an exchange is true or false"),
                             field="knock")
            if not state.rules.close_after_exchange:
                raise refuse("no_close_after_exchange",
                             N_("these rules do not let a player knock after exchanging"),
                             field="knock")
            flow.check_knock(state)
            exchange["knock"] = True
        return exchange

    def apply(self, flow: WidowFlow, state: GameState,
              move: Mapping[str, Any]) -> tuple[GameState, Events]:
        seat = state.seat_to_act
        rules = state.rules
        cards = [move_card({"card": code}) for code in move["give"]]
        state, event = swap(state, seat, cards, move["take"],
                            rules.widow_discards == "face-up")
        events: Events = [event]
        score = evaluator(rules).score(state.hands[seat])
        if is_fire(score):
            return settle_blitz(state.evolve(turns=state.turns + 1), (seat,), events)
        if has_31(rules, score):
            events.append({"type": "thirty_one", "seat": seat})
            if rules.on_31 == "showdown":
                return flow.end(state.evolve(turns=state.turns + 1), "thirty_one", (seat,),
                                events)
            if state.knocker is None:
                # The 31 is a knock: the hand stays as it is for the showdown.
                events.append({"type": "knocked", "seat": seat})
                return flow.end_turn(state, seat, events, **flow.knock(state, seat, events))
            return flow.end_turn(state, seat, events)
        if rules.knock == "take-all" and len(cards) == WIDOW_SIZE and state.knocker is None:
            events.append({"type": "knocked", "seat": seat})
            return flow.end_turn(state, seat, events, **flow.knock(state, seat, events))
        if move.get("knock"):
            return knock_paying(flow, state, seat, events)
        return flow.end_turn(state, seat, events)


class WidowKnock(PlainKnock):
    """The knock (``knock: plain``), which costs ``call_fee``."""

    def legal(self, flow: TurnFlow, state: GameState) -> list[Move]:
        if not (state.rules.may_pass or state.rules.knock == "plain"):
            return []
        return super().legal(flow, state)

    def verify(self, flow: TurnFlow, state: GameState,
               move: Mapping[str, Any]) -> Move:
        if state.rules.knock != "plain":
            raise refuse("no_plain_knock", N_("knock by taking all three widow cards"))
        return super().verify(flow, state, move)

    def apply(self, flow: TurnFlow, state: GameState,
              move: Mapping[str, Any]) -> tuple[GameState, Events]:
        return knock_paying(flow, state, state.seat_to_act, [])


def knock_paying(flow: TurnFlow, state: GameState, seat: int,
                 events: Events) -> tuple[GameState, Events]:
    """``seat`` knocks, instead of exchanging or at the end of its exchange; the knocker pays
    ``call_fee``."""
    events.append({"type": "knocked", "seat": seat})
    fee = state.rules.call_fee
    if fee:
        state = _pay(state, seat, fee)
        events.append({"type": "paid", "seat": seat, "chips": fee})
    return flow.end_turn(state, seat, events, **flow.knock(state, seat, events))


class WidowStand(PlainStand):
    """Standing after a knock, when a turn need not exchange (``knock: plain``)."""

    def legal(self, flow: TurnFlow, state: GameState) -> list[Move]:
        return super().legal(flow, state) if state.rules.knock == "plain" else []

    def verify(self, flow: TurnFlow, state: GameState,
               move: Mapping[str, Any]) -> Move:
        if state.rules.knock != "plain":
            raise refuse("must_exchange", N_("every turn must exchange with the widow"))
        return super().verify(flow, state, move)


class TurnPass(Pass[WidowFlow]):
    """Schwimmen: keep the hand, before a knock and in the last turn after one."""

    def legal(self, flow: WidowFlow, state: GameState) -> list[Move]:
        return [{"type": "pass"}]

    def verify(self, flow: WidowFlow, state: GameState,
               move: Mapping[str, Any]) -> Move:
        return {"type": "pass"}

    def apply(self, flow: WidowFlow, state: GameState,
              move: Mapping[str, Any]) -> tuple[GameState, Events]:
        return flow.pass_turn(state, state.seat_to_act)


_EXCHANGE = WidowExchange()
TURN: tuple[Operation[Any], ...] = (_EXCHANGE, WidowKnock(), WidowStand())
"""A turn: exchange, or knock (``stand`` after a knock)."""
PASSING_TURN: tuple[Operation[Any], ...] = (_EXCHANGE, TurnPass(), WidowKnock())
"""A turn with ``may_pass``: exchange, pass, or knock."""
WidowFlow.turns = {
    WidowPhase.JOIN: JOINING,
    WidowPhase.CHOOSE: (TakeTable(), RevealTable()),
    WidowPhase.DECLARE: (DeclareHand(), DeclinePass()),
    WidowPhase.EXCHANGE: TURN,
}


def chooser(state: GameState, order: Sequence[int]) -> int:
    """Who chooses between the dealt hand and the face-down table: the dealer, or with
    ``spare_hand_to: first-player`` the seat at the dealer's left, after whom play begins."""
    return order[0] if state.rules.spare_hand_to == "first-player" else state.dealer


def next_player(state: GameState, seat: int) -> int:
    """The first seat left of ``seat`` that holds cards (plays this deal)."""
    n = state.players
    for step in range(1, n + 1):
        candidate = (seat + step) % n
        if state.hands[candidate]:
            return candidate
    raise AssertionError("nobody holds cards")  # pragma: no cover - the seat itself does


def to_join(state: GameState, order: Sequence[int]) -> list[int]:
    """The seats of ``order`` that join a carried deal or pass: those that did not tie (none
    when the pot was not carried)."""
    tied = carried_seats(state)
    return [seat for seat in order if seat not in tied] if tied else []


def join_or_pass(state: GameState, seat: int,
                 joins: bool) -> tuple[GameState, Events, bool]:
    """``seat`` joins the carried deal for the pot's amount, or sits it out (its cards go out
    of play face down); the turn passes to the next seat to decide. The flag tells that every
    seat has decided: the flow then begins the play."""
    events: Events
    if joins:
        result = state.result
        if result is None:
            raise AssertionError("a carried deal follows the settled deal that names its stake")
        stake = int(result["stake"])
        state = _pay(state, seat, stake)
        events = [{"type": "joined", "seat": seat, "chips": stake}]
    else:
        hands = list(state.hands)
        out = state.out + hands[seat]
        hands[seat] = ()
        state = state.evolve(hands=tuple(hands), out=out)
        events = [{"type": "sat_out", "seat": seat}]
    order = dealing_order(state)
    later = to_join(state, order[order.index(seat) + 1:])
    if later:
        return state.evolve(turn=later[0]), events, False
    return state, events, True


def check_carried_deal(state: GameState) -> list[int]:
    """A ``join`` phase needs a carried pot and a seat to decide that did not tie; only the
    cards of seats sitting out a carried deal are out of play. Returns those seats."""
    tied = carried_seats(state)
    if state.phase == WidowPhase.JOIN and (not tied or state.turn in tied):
        raise StateError("bad_phase", N_("the {phase} phase does not fit this position"),
                         field="phase", phase=str(state.phase))
    sitting_out = [index for index, (seat, hand) in enumerate(zip(state.seats, state.hands,
                                                                  strict=True))
                   if not hand and not seat.eliminated]
    renewed = len(state.out) - HAND_SIZE * len(sitting_out)
    if (renewed < 0 or renewed % WIDOW_SIZE or (renewed and not state.rules.may_pass)
            or (sitting_out and state.rules.tie != "carry")):
        raise StateError("bad_table", N_("only the cards of seats sitting out a carried "
                                         "deal and renewed table cards are out of play"),
                         field="out")
    return sitting_out


def check_widow_state(state: GameState, phases: frozenset[str], table_size: int) -> None:
    """Hands of three (none for a seat out of the match or out of this deal), the table's
    cards, no discard pile."""
    playing = state.phase in phases
    for index, (seat, hand) in enumerate(zip(state.seats, state.hands, strict=True)):
        # A seat put out by the settlement just made still holds its cards.
        allowed = (0,) if seat.eliminated and playing else (0, HAND_SIZE)
        if len(hand) not in allowed or (playing and index == state.turn and not hand):
            raise StateError("bad_hand_size",
                             N_("seat {seat} holds {count} cards, which is not possible now"),
                             field="hands", seat=index, count=len(hand))
    if len(state.table) != table_size or state.discard:
        raise StateError("bad_table", N_("the table must hold {count} cards and there is no "
                                         "discard pile"), field="table", count=table_size)


def _pay(state: GameState, seat: int, chips: int) -> GameState:
    seats = list(state.seats)
    pay(seats, seat, chips)
    return state.evolve(seats=tuple(seats), pot=state.pot + chips)


def _declarable(rules: Rules, hand: Sequence[Card]) -> bool:
    """A 31 of one suit, three of a kind, or three cards of one suit [000]."""
    if len({card.suit for card in hand}) == 1 or len({card.rank for card in hand}) == 1:
        return True
    return evaluator(rules).score(hand).category == "three-of-a-kind"  # a wild jack's trips

