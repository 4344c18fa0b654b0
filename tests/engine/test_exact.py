"""The advice in a round's last turn after a knock equals an exact enumeration written here
independently: every completion of the knocker's hand worth the knock, every card the stock
can turn up, the seat's own discard chosen after it sees its card, settled by the engine."""

from itertools import combinations
from statistics import fmean

import pytest

from thirtyone.advice import advise, evaluate, match_chance
from thirtyone.bots import GreedyBot
from thirtyone.game import GameState, apply_move, legal_moves, new_game, view
from thirtyone.hands import evaluator
from thirtyone.policy import knock_model, scorer

POSITIONS = {"scat": 60, "schwimmen": 50}


def final_turns(variant, count):
    """Positions of two-player matches between greedy bots where the seat to act has the
    round's last turn after a knock."""
    found = []
    for match in range(200):
        state = new_game(variant, 2, seed=f"exact:{variant}:{match}")
        bots = [GreedyBot(seed=1), GreedyBot(seed=2)]
        while not state.is_over and len(found) < count:
            moves = legal_moves(state)
            if state.turn is None:
                state, _ = apply_move(state, moves[0])
                continue
            if state.knocker is not None and state.final_turns == 1 and len(moves) > 1:
                found.append(state)
            state, _ = apply_move(state, bots[state.turn].choose(view(state, state.turn),
                                                                 moves))
        if len(found) >= count:
            return found
    return found


def survived(state, seat):
    """The match's own measure: the chance of winning it from the lives left."""
    return match_chance(state, seat)


def exact_values(state):
    """Each legal move's chance of winning the match, by brute force over the worlds."""
    seat, knocker = state.turn, state.knocker
    seen = view(state, seat)
    rules = state.rules
    worth = scorer(rules)
    by_code = {card.code: card for card in rules.deck_cards}
    mine = list(state.hands[seat])
    known = [by_code[code] for code in seen["public"]["held"][knocker]]
    visible = set(mine) | set(state.discard) | set(known)
    visible |= {by_code[code] for code in seen["public"]["out"]}  # renewed, face up
    visible |= {card for card, up in zip(state.table, state.table_face_up, strict=True) if up}
    unseen = [card for card in rules.deck_cards if card not in visible]
    threshold = knock_model(rules, 2, seen["public"]["knocked_at"])
    every = [cards for cards in combinations(unseen, 3 - len(known))]
    completions = [(*known, *cards) for cards in every if worth((*known, *cards)) >= threshold]
    completions = completions or [(*known, *cards) for cards in every]
    stand = next((move for move in legal_moves(state) if move["type"] in ("stand", "pass")),
                 None)
    strength = evaluator(rules).score
    settled = {}

    def key(hand):
        # The settlement reads the hands' scores only.
        return strength(hand).strength

    def outcome(hand, other):
        pair = (key(hand), key(other))
        if pair not in settled:
            data = state.to_dict()
            data.pop("public", None)
            rest = [card.code for card in rules.deck_cards
                    if card not in hand and card not in other and card not in state.discard]
            move = stand
            if stand is None:  # the discard phase: keep ``hand``, discard the fourth card
                extra = next(card for card in mine if card not in hand)
                move = {"type": "discard", "card": extra.code}
                hand = (*hand, extra)
                rest.remove(extra.code)
            # A card drawn from the discard pile in this world leaves it.
            data["discard"] = [card.code for card in state.discard if card not in hand]
            data["hands"][seat] = [card.code for card in hand]
            data["hands"][knocker] = [card.code for card in other]
            # The other cards anywhere else: the settlement reads the hands only.
            places = len(state.table)
            data["table"], data["stock"], data["out"] = rest[:places], rest[places:], []
            world = GameState.from_dict(data)
            after, _ = apply_move(world, move)
            settled[pair] = survived(after, seat)
        return settled[pair]

    def mean(hand, pool):
        return fmean(outcome(hand, other) for other in pool)

    values = []
    for move in legal_moves(state):
        if move["type"] in ("stand", "pass"):
            values.append(mean(mine, completions))
        elif move["type"] == "discard":
            values.append(mean([card for card in mine if card.code != move["card"]],
                               completions))
        elif move["type"] == "exchange":
            taken = [state.table[position] for position in move["take"]]
            kept = [card for card in mine if card.code not in move["give"]]
            values.append(mean([*kept, *taken], completions))
        elif move["source"] == "discard":
            cards = [*mine, state.discard[-1]]
            values.append(max(mean(hand, completions) for hand in combinations(cards, 3)))
        else:
            total = weight = 0.0
            for card in unseen:
                pool = [other for other in completions if card not in other]
                if pool:
                    best = max(mean(hand, pool) for hand in combinations([*mine, card], 3))
                    total += best * len(pool)
                    weight += len(pool)
            values.append(total / weight)
    return values


@pytest.mark.slow
@pytest.mark.parametrize("variant", sorted(POSITIONS))
def test_the_last_turn_after_a_knock_is_valued_exactly(variant):
    positions = final_turns(variant, POSITIONS[variant])
    assert len(positions) == POSITIONS[variant]
    for state in positions:
        advice = advise(state, state.turn, samples=20, seed=1)
        expected = exact_values(state)
        assert advice.exact
        assert [entry.value for entry in advice.moves] == pytest.approx(expected, abs=1e-9)
        best = max(expected)
        assert expected[[entry.move for entry in advice.moves].index(advice.best.move)] \
            == pytest.approx(best, abs=1e-9)


@pytest.mark.slow
@pytest.mark.parametrize("variant", sorted(POSITIONS))
def test_sampled_worlds_agree_with_the_exact_values(variant):
    """The sampler deals the knocker's hand as the enumeration counts it: where the round
    ends with the move (stand, pass, an exchange), the sampled chance of winning is
    within 3 standard errors of the exact one (all but a few of hundreds of values, as
    chance allows)."""
    from thirtyone.advice import _mean_and_error

    checked = outside = 0
    for state in final_turns(variant, 20):
        moves = [move for move in legal_moves(state) if move["type"] != "draw"]
        exact = dict(zip(map(str, legal_moves(state)), exact_values(state), strict=True))
        seen = view(state, state.turn)
        sampled = evaluate(seen, 400, "sampled", moves=moves, exact=False)
        for move, worlds in zip(moves, sampled.worlds, strict=True):
            mean, error = _mean_and_error(worlds)
            checked += 1
            outside += abs(mean - exact[str(move)]) > 3 * max(error, 1 / 400)
    assert checked >= 30
    assert outside <= max(2, checked // 50)
