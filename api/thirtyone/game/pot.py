"""The pot settlements: the best hand takes the pot (schnautz, bank, trentuno, jokers), and
the escalating stakes of no-trips (RULES.md §3, §4.6-§4.10).

Chips are conserved: every seat's balance starts at 0 and may go negative; what a seat pays
goes into the pot, what it wins comes out of it.

Pot (:class:`PotSettler`): every seat antes ``ante`` before a deal. At the end of a deal the
best hand of the seats that played takes the pot; when the deal ended on a 31, a blitz, a
declaration by the dealt 31s or the widow's 31, only those seats (``Outcome.blitz``) compete.
A blitz makes every other seat pay ``blitz_fee`` first; with ``knocker_must_win`` a knocker
who does not hold the best hand alone pays one chip first, at a showdown. A blitz or the dealt
31s are the only hands shown, and none after the widow's 31: there is no showdown then. Equal
best hands split the pot, the odd chips staying in it for the next deal [resolved]; with
``tie: carry`` the pot goes instead to a next deal among the tied seats, the others joining by
paying the pot's amount (see :mod:`thirtyone.game.widow`), except after the last deal, where
it is split. The match lasts
``rounds`` deals (one per seat by default; a carried deal counts); a pot left at the end is
split evenly between all seats, the odd chips to the seats nearest the dealer's left; the
seats with the most chips win.

Escalating (:class:`EscalatingSettler`): the loser of deal k (every seat tied for lowest)
pays k chips into the pot; when a seat holds 31 every opponent pays; from the fifth deal each
deal's losers are out; the last seat left takes the pot (seats that would all go out at once
share it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from thirtyone.game.operations import Events
from thirtyone.game.settlement import (
    Outcome,
    Settler,
    finish,
    pay,
    round_result,
    rounds_in_match,
    share_pot,
    show_events,
)
from thirtyone.game.state import GameState, Seat
from thirtyone.rules import Rules

ELIMINATING_DEAL = 5
"""From this deal on, the loser of a no-trips deal is out of the match [000]."""


def carried_seats(state: GameState) -> tuple[int, ...]:
    """The tied seats the last deal carried its pot for, if it did."""
    result = state.result
    carry = result.get("carry") if result else None
    return tuple(carry) if carry else ()


def playing_seats(outcome: Outcome, active: Sequence[int]) -> list[int]:
    """The seats that played the deal: those with a score."""
    scores = outcome.scores
    return [seat for seat in active if scores and scores[seat] is not None]


def best_of(outcome: Outcome, seats: Sequence[int]) -> list[int]:
    scores = outcome.scores
    best = max(outcome.score(seat) for seat in seats)
    return [seat for seat in seats if scores[seat] == best]


def _deal_winners(outcome: Outcome, played: list[int]) -> list[int]:
    """The seats that win the deal's pot: a blitz's or the widow's 31 over the best hand
    played; none in a void deal."""
    if outcome.reason == "void":
        return []
    candidates = list(outcome.blitz) or played
    if outcome.reason == "widow_31":
        return candidates
    return best_of(outcome, candidates)


def _shown(outcome: Outcome, played: list[int]) -> Sequence[int]:
    """The seats whose hands the deal's end shows."""
    if outcome.reason in ("void", "widow_31"):
        return ()
    if outcome.reason in ("blitz", "dealt_31"):
        # Shown at once, ending the deal without a showdown: the other hands stay hidden.
        return outcome.blitz
    return played


def _fees(rules: Rules, outcome: Outcome, played: list[int], deal_winners: list[int],
          seats: list[Seat], events: Events) -> int:
    """Charge the deal's fees into the pot (a blitz's fee from each seat it beat, a knocker
    who must win and did not): the chips paid, the seats and ``events`` changed in place."""
    paid = 0
    if outcome.reason == "blitz" and rules.blitz_fee:
        for seat in played:
            if seat not in deal_winners:
                pay(seats, seat, rules.blitz_fee)
                paid += rules.blitz_fee
                events.append({"type": "paid", "seat": seat, "chips": rules.blitz_fee})
    knocker = outcome.knocker
    # Only hands compared at a showdown (not a blitz, a dealt 31 or the widow's) tell
    # whether the knocker held the best one.
    compared = outcome.reason not in ("void", "widow_31", "blitz", "dealt_31")
    if (rules.knocker_must_win and knocker is not None and compared
            and deal_winners != [knocker]):
        pay(seats, knocker, 1)
        paid += 1
        events.append({"type": "paid", "seat": knocker, "chips": 1})
    return paid


def _pay_out(seats: list[Seat], deal_winners: list[int], pot: int, events: Events) -> int:
    """Share ``pot`` among ``deal_winners``: the odd chips left in it."""
    share, odd = divmod(pot, len(deal_winners))
    for seat in deal_winners:
        pay(seats, seat, -share)
        if share:
            events.append({"type": "pot_won", "seat": seat, "chips": share})
    if odd:
        events.append({"type": "pot_left", "chips": odd})
    return odd


class PotSettler(Settler):
    """The best hand takes the pot (see the module docstring)."""

    def before_deal(self, state: GameState) -> tuple[GameState, Events]:
        ante = state.rules.ante
        if not ante or carried_seats(state):
            return state, []
        seats = list(state.seats)
        active = state.active_seats
        for seat in active:
            pay(seats, seat, ante)
        pot = state.pot + ante * len(active)
        return state.evolve(seats=tuple(seats), pot=pot), [
            {"type": "ante", "chips": ante, "pot": pot}
        ]

    def settle(self, state: GameState, outcome: Outcome) -> tuple[GameState, Events]:
        rules = state.rules
        active = state.active_seats
        played = playing_seats(outcome, active)
        events: Events = []
        seats = list(state.seats)
        deal_winners = _deal_winners(outcome, played)
        shown = _shown(outcome, played)
        events += show_events(state, shown, outcome)
        pot = state.pot + _fees(rules, outcome, played, deal_winners, seats, events)
        limit = rounds_in_match(state)
        last = limit is not None and state.round >= limit
        carry: list[int] = []
        if len(deal_winners) > 1 and rules.tie == "carry" and not last:
            carry = deal_winners
            events.append({"type": "pot_carried", "chips": pot,
                           "seats": list(carry)})
        elif deal_winners:
            pot = _pay_out(seats, deal_winners, pot, events)
        result = round_result(state, outcome, shown) | {
            "deal_winners": deal_winners,
            "carry": carry,
            "stake": pot if carry else 0,
        }
        winners: list[int] = []
        if last:
            if pot:
                pot = share_pot(seats, pot, active, state.dealer + 1, events)
            most = max(seats[seat].chips for seat in active)
            winners = [seat for seat in active if seats[seat].chips == most]
        return finish(state, seats, pot, result, winners, events)

    def check_standing(self, state: GameState, settled: int, limit: int | None) -> None:
        """Chips move with antes and fees into the pot and out of it: any standing may be."""


class EscalatingSettler(Settler):
    """No-trips' growing stakes (see the module docstring)."""

    def settle(self, state: GameState, outcome: Outcome) -> tuple[GameState, Events]:
        active = state.active_seats
        stake = state.round
        # A 31 ends the deal at once, without a showdown: only it is shown.
        shown = outcome.blitz or active
        events: Events = show_events(state, shown, outcome)
        if outcome.blitz:
            losers = [seat for seat in active if seat not in outcome.blitz]
        else:
            scores = outcome.scores
            low = min(outcome.score(seat) for seat in active)
            losers = [seat for seat in active if scores[seat] == low]
        seats = list(state.seats)
        pot = state.pot
        for seat in losers:
            pay(seats, seat, stake)
            pot += stake
            events.append({"type": "paid", "seat": seat, "chips": stake})
        out = losers if state.round >= ELIMINATING_DEAL else []
        survivors = [seat for seat in active if seat not in out]
        winners: list[int] = []
        if not survivors:
            winners = list(out)
        else:
            for seat in out:
                seats[seat] = replace(seats[seat], free_ride=False, eliminated=True)
                events.append({"type": "eliminated", "seat": seat})
            if len(survivors) == 1:
                winners = survivors
        result = round_result(state, outcome, shown) | {
            "losers": losers,
            "stake": stake,
            "eliminated": [seat for seat in out if seats[seat].eliminated],
        }
        return finish(state, seats, pot, result, winners, events)

    def check_standing(self, state: GameState, settled: int, limit: int | None) -> None:
        """Chips move with the stakes into the pot and out of it: any standing may be."""

