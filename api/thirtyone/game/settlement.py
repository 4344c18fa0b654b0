"""Settling a round: lives and the free ride, the knocker's penalty, points, the pot.

A family ends a round by describing its :class:`Outcome` (the hands' scores, the knocker, who
showed a blitz, or a void round); the rule set's :class:`Settler` (by
:class:`~thirtyone.rules.Settlement`) turns it into lives lost, points or chips, decides
whether the match is over, and writes the round's ``result``. The families end a round
through :mod:`thirtyone.game.settlers` (:func:`~thirtyone.game.settlers.settle_round`), which
finds the settler of a rule set.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from thirtyone.errors import N_, StateError
from thirtyone.game.operations import Events
from thirtyone.game.state import GameState, Phase, Seat
from thirtyone.hands import evaluator
from thirtyone.rules import Rules, Settlement

if TYPE_CHECKING:
    from thirtyone.hands import HandScore


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a round ended.

    ``reason`` is ``showdown``, ``blitz`` or ``void`` (the families may add their own);
    ``scores`` has one score per seat (``None`` for seats out of the match); ``blitz`` the
    seats that showed a blitz; ``knocker`` the seat that knocked, if any.
    """

    reason: str
    scores: tuple[HandScore | None, ...] = ()
    knocker: int | None = None
    blitz: tuple[int, ...] = ()

    def score(self, seat: int) -> HandScore:
        """The score of a seat that played the round (every seat a settlement compares)."""
        score = self.scores[seat]
        if score is None:
            raise AssertionError(f"seat {seat} did not play the round")
        return score


class Settler:
    """The hooks of one settlement. The base class takes no antes."""

    def before_deal(self, state: GameState) -> tuple[GameState, Events]:
        """Collect what is paid before each deal (antes)."""
        return state, []

    def settle(self, state: GameState, outcome: Outcome) -> tuple[GameState, Events]:
        raise NotImplementedError  # pragma: no cover - every registered settler overrides it

    def seat(self, rules: Rules) -> Seat:
        """A seat at the start of the match."""
        return Seat()

    def check_standing(self, state: GameState, settled: int, limit: int | None) -> None:
        """Raise :class:`~thirtyone.errors.StateError` when the seats' lives, points or chips
        cannot come from this settlement after ``settled`` deals (``limit``: the match's last
        deal, if it has one). This one pays nothing: without antes, chips and pot are zero."""
        if state.rules.ante == 0 and (state.pot or any(seat.chips for seat in state.seats)):
            raise StateError("chips_not_conserved",
                             N_("the seats' chips and the pot must add up to nothing"),
                             field="pot")


def hand_scores(state: GameState) -> tuple[HandScore | None, ...]:
    """Each seat's score, ``None`` for a seat holding no cards (out of the match or of the
    deal)."""
    score = evaluator(state.rules).score
    return tuple(score(hand) if hand else None for hand in state.hands)


def round_result(state: GameState, outcome: Outcome, shown: Sequence[int]) -> dict[str, Any]:
    """The part of a round's ``result`` every settlement writes; ``shown`` are the seats whose
    hands were shown."""
    return {
        "round": state.round,
        "reason": outcome.reason,
        "knocker": outcome.knocker,
        "blitz": list(outcome.blitz),
        "hands": shown_hands(state, shown, outcome),
    }


def pay(seats: list[Seat], seat: int, chips: int) -> None:
    """``seat`` pays ``chips`` (is paid, when negative)."""
    seats[seat] = replace(seats[seat], chips=seats[seat].chips - chips)


def shown_hands(state: GameState, seats: Sequence[int], outcome: Outcome) -> list[Any]:
    """The ``hands`` of a result: for each seat shown its cards and score, others ``None``."""
    hands: list[Any] = [None] * state.players
    for seat in seats:
        score = outcome.scores[seat]
        hands[seat] = {
            "cards": [card.code for card in state.hands[seat]],
            "score": score.to_dict() if score is not None else None,
        }
    return hands


def show_events(state: GameState, seats: Sequence[int], outcome: Outcome) -> Events:
    events: Events = []
    for seat in seats:
        score = outcome.scores[seat]
        events.append({
            "type": "shown",
            "seat": seat,
            "cards": [card.code for card in state.hands[seat]],
            "points": score.points if score is not None else None,
            "category": score.category if score is not None else None,
        })
    return events


def finish(
    state: GameState,
    seats: Sequence[Seat],
    pot: int,
    result: dict[str, Any],
    winners: Sequence[int],
    events: Events,
    *,
    odd_chips_from: int | None = None,
) -> tuple[GameState, Events]:
    """Close the round: the match is over when there are ``winners`` (they share the pot,
    odd chips to the seats nearest ``odd_chips_from``, by default the dealer's left)."""
    events.append({"type": "round_over", "round": state.round, "reason": result["reason"]})
    seats = list(seats)
    if winners:
        if pot:
            start = state.dealer + 1 if odd_chips_from is None else odd_chips_from
            pot = share_pot(seats, pot, winners, start, events)
        shared = len(winners) > 1
        events.extend({"type": "match_won", "seat": seat, "shared": shared} for seat in winners)
        phase = Phase.GAME_OVER
    else:
        phase = Phase.ROUND_OVER
    result["winners"] = list(winners)
    return state.evolve(
        seats=tuple(seats), pot=pot, result=result, winners=tuple(winners), phase=phase,
        turn=None, pickup=None,
    ), events


def share_pot(seats: list[Seat], pot: int, winners: Sequence[int], start: int,
              events: Events) -> int:
    """Split ``pot`` evenly between ``winners``; the odd chips go one each to the winners
    nearest seat ``start`` clockwise. Returns what is left of the pot (nothing)."""
    n = len(seats)
    order = sorted(winners, key=lambda seat: (seat - start) % n)
    share, odd = divmod(pot, len(order))
    for rank, seat in enumerate(order):
        chips = share + (1 if rank < odd else 0)
        if chips:
            pay(seats, seat, -chips)
            events.append({"type": "pot_won", "seat": seat, "chips": chips})
    return 0


def rounds_in_match(state: GameState) -> int | None:
    """The number of deals in the match (``rounds``, by default one deal per seat), or
    ``None`` when it is played out to the last seat (lives, escalating stakes)."""
    rules = state.rules
    if rules.rounds is not None:
        return rules.rounds
    played_out = rules.settlement in (Settlement.LIVES, Settlement.ESCALATING)
    return None if played_out else state.players


class LivesSettler(Settler):
    """The lowest hand loses a life (RULES.md §3, §4.1-§4.3, §4.14): the knocker's penalty and
    ``knocker_ties``, ``knocker_must_win``, ``lose_below`` and ``losers``, the free ride,
    eliminations, the
    last seat standing; with
    ``lives_to_pot`` each lost life is a chip paid into the pot that the winner takes, and
    ``honour_tie_break`` breaks a two-seat tie. A blitz (or Feuer) costs every other seat a
    life; any other end of a round (a showdown, a 31 that ends a widow round) is settled by
    the hands, all of them shown."""

    def seat(self, rules: Rules) -> Seat:
        return Seat(lives=rules.lives)

    def settle(self, state: GameState, outcome: Outcome) -> tuple[GameState, Events]:
        active = state.active_seats
        events: Events = []
        drawn_match = False
        if outcome.reason == "void":
            losses: dict[int, int] = {}
            shown: Sequence[int] = ()
        elif outcome.reason == "blitz":
            losses = self._blitz_losses(state.rules, outcome, active)
            shown = outcome.blitz
        else:
            shown = active
            losses, drawn_match = self._showdown_losses(state, outcome, active)
        events += show_events(state, shown, outcome)
        seats, pot, lives_lost, out = self._take_lives(state, losses, events)
        winners = list(active) if drawn_match else \
            self._winners(state, seats, out, events)
        result = round_result(state, outcome, shown) | {
            "lives_lost": lives_lost,
            "eliminated": sorted(seat for seat in out if seats[seat].eliminated),
        }
        odd_from = None
        if drawn_match:
            assert outcome.knocker is not None
            odd_from = state.next_active(outcome.knocker)
            result["draw"] = True
        return finish(state, seats, pot, result, winners, events, odd_chips_from=odd_from)

    @staticmethod
    def _blitz_losses(rules: Rules, outcome: Outcome, active: Sequence[int]) -> dict[int, int]:
        """Who loses how many lives to a blitz: every seat without one loses one."""
        losses = {seat: 1 for seat in active if seat not in outcome.blitz}
        knocker = outcome.knocker
        if rules.knocker_caught and knocker is not None and knocker in losses:
            # Caught by a 31 made after the knock: the knocker pays the penalty.
            losses[knocker] = rules.knocker_penalty
        return losses

    @staticmethod
    def _winners(state: GameState, seats: list[Seat], out: list[int],
                 events: Events) -> list[int]:
        """The winners of the match once the seats ``out`` are out (none while it goes on),
        ``seats`` and ``events`` changed in place."""
        survivors = [seat for seat in state.active_seats if seat not in out]
        if not survivors:
            # One settlement would put every remaining seat out: they share the win.
            for seat in out:
                seats[seat] = replace(seats[seat], eliminated=False)
            return list(out)
        events.extend({"type": "eliminated", "seat": seat} for seat in out)
        if len(survivors) == 1:
            return survivors
        if (limit := rounds_in_match(state)) is not None and state.round >= limit:
            best = max(seats[seat].lives for seat in survivors)
            return [seat for seat in survivors if seats[seat].lives == best]
        return []

    def _showdown_losses(
        self, state: GameState, outcome: Outcome, active: Sequence[int]
    ) -> tuple[dict[int, int], bool]:
        """Who loses how many lives at a showdown, and whether the match ends drawn.

        With ``lose_below`` every hand under it loses one and the lowest of the others lose
        as usual (only those below, when nobody reaches it); ``knocker_must_win`` costs a
        knocker who loses nothing else and does not hold the best hand alone one life."""
        rules = state.rules
        scores = outcome.scores
        knocker = outcome.knocker
        below: list[int] = []
        if rules.lose_below is not None:
            below = [seat for seat in active
                     if _points(scores[seat]) < rules.lose_below]
        ranked = [seat for seat in active if seat not in below]
        losses = {seat: 1 for seat in below}
        lowest: list[int] = []
        if rules.losers == "all-but-best" and ranked:
            # Every seat but the best hand loses one; the lowest of them as the knocker
            # rules say (RULES.md §4.15); all tied for best, nobody.
            best = max(outcome.score(seat) for seat in ranked)
            ranked = [seat for seat in ranked if outcome.score(seat) != best]
            losses |= {seat: 1 for seat in ranked}
        if ranked:
            lowest, drawn = self._lowest(state, outcome, ranked)
            if drawn:
                return {}, True
            losses |= self._lowest_losses(rules, knocker, lowest)
        if (rules.knocker_must_win and knocker is not None and knocker not in losses
                and knocker not in lowest and not _best_alone(outcome, knocker, active)):
            losses[knocker] = 1
        return losses, False

    def _lowest(self, state: GameState, outcome: Outcome,
                seats: Sequence[int]) -> tuple[list[int], bool]:
        """The seats of ``seats`` tied for lowest (the honour tie-break decides a tie of the
        two seats left in the match), and whether the match ends drawn."""
        rules = state.rules
        scores = outcome.scores
        low = min(outcome.score(seat) for seat in seats)
        lowest = [seat for seat in seats if scores[seat] == low]
        knocker = outcome.knocker
        if (
            rules.honour_tie_break
            and knocker is not None
            and len(state.active_seats) == 2
            and len(lowest) == 2
            and any(state.seats[seat].free_ride for seat in seats)
        ):
            ranks = {
                seat: sorted((card.rank_order for card in state.hands[seat]), reverse=True)
                for seat in seats
            }
            other = state.next_active(knocker)
            if ranks[knocker] == ranks[other]:
                return [], True
            lowest = [knocker if ranks[knocker] < ranks[other] else other]
        return lowest, False

    @staticmethod
    def _lowest_losses(rules: Rules, knocker: int | None,
                       lowest: Sequence[int]) -> dict[int, int]:
        """What the seats tied for lowest lose, by ``knocker_ties`` when the knocker is one."""
        if knocker is None or knocker not in lowest:
            return {seat: 1 for seat in lowest}
        if len(lowest) == 1:
            return {knocker: rules.knocker_penalty}
        if rules.knocker_ties == "penalty":
            return {knocker: rules.knocker_penalty}
        if rules.knocker_ties == "safe":
            # The knocker wins ties: only the others tied for lowest lose.
            return {seat: 1 for seat in lowest if seat != knocker}
        if rules.knocker_ties == "double":
            # The knocker pays the penalty, the others tied lose one (pagat's variations).
            return {seat: 1 for seat in lowest} | {knocker: rules.knocker_penalty}
        return {seat: 1 for seat in lowest}

    def _take_lives(
        self, state: GameState, losses: dict[int, int], events: Events
    ) -> tuple[list[Seat], int, list[int], list[int]]:
        rules = state.rules
        seats = list(state.seats)
        pot = state.pot
        lives_lost = [0] * len(seats)
        out: list[int] = []
        for seat_index in sorted(losses):
            seat = seats[seat_index]
            lives, free_ride, eliminated = seat.lives, seat.free_ride, False
            for _ in range(losses[seat_index]):
                if lives == 0:
                    eliminated = True
                    break
                lives -= 1
                lives_lost[seat_index] += 1
                if lives == 0:
                    if not rules.free_ride:
                        eliminated = True
                        break
                    free_ride = True
            paid = lives_lost[seat_index]
            if paid:
                events.append({"type": "lives_lost", "seat": seat_index, "lives": paid,
                               "left": lives})
            if free_ride and not seat.free_ride and not eliminated:
                events.append({"type": "free_ride", "seat": seat_index})
            chips = seat.chips
            if rules.lives_to_pot and paid:
                chips -= paid
                pot += paid
                events.append({"type": "paid", "seat": seat_index, "chips": paid})
            seats[seat_index] = Seat(lives, chips, seat.points, free_ride and not eliminated,
                                     eliminated)
            if eliminated:
                out.append(seat_index)
        return seats, pot, lives_lost, out

    def check_standing(self, state: GameState, settled: int, limit: int | None) -> None:
        """Lives within the rules, the free ride, the pot of lives paid, and the winners."""
        over = state.phase == Phase.GAME_OVER
        for index, seat in enumerate(state.seats):
            if not _lives_fit(state, index, seat):
                raise StateError("bad_lives", N_("seat {seat} has an impossible number of lives"),
                                 field=f"seats.{index}.lives", seat=index)
        if state.rules.ante == 0 and not over and not _chips_conserved(state):
            raise StateError("chips_not_conserved",
                             N_("the seats' chips and the pot must add up to nothing"),
                             field="pot")
        if not (_winners_fit(state, limit) if over else len(state.active_seats) >= 2):
            raise StateError("bad_winners", N_("the winners do not fit the phase"),
                             field="winners")


def _lives_fit(state: GameState, index: int, seat: Seat) -> bool:
    """Whether the lives of seat ``index`` fit its free ride and elimination."""
    if seat.eliminated and (seat.lives or seat.free_ride):
        return False
    if seat.free_ride and not state.rules.free_ride:
        return False
    # A seat left with no life and no free ride is out, but when one settlement would put
    # every seat left out at once, they share the win instead.
    out_of_lives = not seat.lives and not seat.free_ride
    over = state.phase == Phase.GAME_OVER
    return not (out_of_lives and not seat.eliminated and not (over and index in state.winners))


def _chips_conserved(state: GameState) -> bool:
    """Without an ante, chips move only with lives paid into the pot, and the pot is taken
    at the end: whether the seats' chips and the pot say so before the end."""
    rules, seats = state.rules, state.seats
    paid = [rules.lives - seat.lives if rules.lives_to_pot else 0 for seat in seats]
    return state.pot == sum(paid) and all(
        seat.chips == -lost for seat, lost in zip(seats, paid, strict=True))


def _winners_fit(state: GameState, limit: int | None) -> bool:
    """Whether the winners of a match over are who the lives say: the last seat left, all
    of them at a drawn match or when one settlement put every seat left out, or those with
    the most lives after the last deal."""
    seats, active = state.seats, state.active_seats
    winners = list(state.winners)
    result = state.result or {}
    most = max(seats[seat].lives for seat in active)
    return (
        (len(active) == 1 and winners == list(active))
        or (result.get("draw") is True and winners == list(active))
        or (winners == list(active) and all(
            not seats[seat].lives and not seats[seat].free_ride for seat in winners))
        or (limit is not None and state.round >= limit
            and winners == [seat for seat in active if seats[seat].lives == most])
    )


def _best_alone(outcome: Outcome, seat: int, active: Sequence[int]) -> bool:
    """Whether ``seat`` holds the best hand of the showdown, no other seat tied with it."""
    scores = outcome.scores
    best = max(outcome.score(other) for other in active)
    return scores[seat] == best and sum(scores[other] == best for other in active) == 1


def _points(score: HandScore | None) -> float:
    """A shown hand's points (every seat at a showdown holds a hand)."""
    assert score is not None
    return score.points


class PointsSettler(Settler):
    """Everyone is scored every round (RULES.md §4.4): high 3, middle 2, low 1, the knocker one
    more for high and one less otherwise, a blitz 6; the match lasts ``rounds`` deals (one per
    player by default) or until someone reaches ``target``."""

    HIGH, MIDDLE, LOW, BLITZ = 3, 2, 1, 6

    def settle(self, state: GameState, outcome: Outcome) -> tuple[GameState, Events]:
        active = state.active_seats
        events: Events = []
        gains = [0] * state.players
        ranks: list[str | None] = [None] * state.players
        shown: Sequence[int] = () if outcome.reason == "void" else active
        if outcome.reason != "void":
            self._score(outcome, active, gains, ranks)
        events += show_events(state, shown, outcome)
        seats = list(state.seats)
        for seat in active:
            if gains[seat]:
                old = seats[seat]
                seats[seat] = replace(old, points=old.points + gains[seat])
                events.append({"type": "points_scored", "seat": seat, "points": gains[seat],
                               "total": seats[seat].points})
        limit = rounds_in_match(state)
        best = max(seats[seat].points for seat in active)
        target = state.rules.target
        winners: list[int] = []
        if (limit is not None and state.round >= limit) or (target is not None and best >= target):
            winners = [seat for seat in active if seats[seat].points == best]
        result = round_result(state, outcome, shown) | {"points": gains, "ranks": ranks}
        return finish(state, seats, state.pot, result, winners, events)

    def _score(self, outcome: Outcome, active: Sequence[int], gains: list[int],
               ranks: list[str | None]) -> None:
        scores = outcome.scores
        others = [seat for seat in active if seat not in outcome.blitz]
        for seat in outcome.blitz:
            gains[seat], ranks[seat] = self.BLITZ, "blitz"
        if not others:
            return
        low = min(outcome.score(seat) for seat in others)
        at_bottom = [seat for seat in others if scores[seat] == low]
        for seat in others:
            knocked = seat == outcome.knocker
            if not any(outcome.score(other) > outcome.score(seat) for other in others):
                gains[seat], ranks[seat] = self.HIGH + knocked, "high"
            elif at_bottom == [seat]:
                gains[seat], ranks[seat] = self.LOW - knocked, "low"
            else:
                gains[seat], ranks[seat] = self.MIDDLE - knocked, "middle"

    def check_standing(self, state: GameState, settled: int, limit: int | None) -> None:
        """No more points than the deals played can give, and the winners."""
        rules, seats = state.rules, state.seats
        most = self.BLITZ * max(settled, 0)
        for index, seat in enumerate(seats):
            if seat.points > most:
                raise StateError("bad_points", N_("seat {seat} has more points than the deals "
                                                  "played can give"),
                                 field=f"seats.{index}.points", seat=index)
        if rules.ante == 0 and (state.pot or any(seat.chips for seat in seats)):
            raise StateError("chips_not_conserved",
                             N_("the seats' chips and the pot must add up to nothing"),
                             field="pot")
        active = state.active_seats
        best = max(seats[seat].points for seat in active)
        over = state.phase == Phase.GAME_OVER
        ended = (limit is not None and state.round >= limit and over) or (
            rules.target is not None and best >= rules.target)
        if over:
            if not ended or list(state.winners) != [
                    seat for seat in active if seats[seat].points == best]:
                raise StateError("bad_winners", N_("the winners do not fit the phase"),
                                 field="winners")
        elif ended:
            raise StateError("bad_winners", N_("the winners do not fit the phase"),
                             field="winners")
