"""Thousands of random matches per preset with the invariants checked after every move, and
every move that is not legal refused with the state untouched."""

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.conftest import sampled

from thirtyone.cards import DECKS
from thirtyone.errors import MoveError
from thirtyone.events import EVENT_MESSAGES
from thirtyone.game import GameState, apply_move, legal_moves, new_game, validate_move, view
from thirtyone.game.dealing import most_players
from thirtyone.rules import PRESETS, make_rules

PRESETS_PLAYED = ["scat", "blitz", "cut-throat", "no-elimination", "eenendertigen", "race",
                  "trentuno-40"]
MATCHES = 1000
MAX_MOVES = 20_000
LOOK_EVERY = 10  # the views, the costliest check, after every move of one match in 10


def _match_setup(variant, rng):
    """Players and options varied across the preset's range; one life in most lives matches
    keeps them short, so thousands fit in seconds."""
    low, high = PRESETS[variant].players
    players = rng.choice((low, low, min(low + 1, high), rng.randint(low, high)))
    options = {}
    settable = PRESETS[variant].settable
    if "lives" in settable:
        options["lives"] = rng.choice((1, 1, 1, 2, 3))
    if "stock_exhausted" in settable and rng.random() < 0.3:
        options["stock_exhausted"] = rng.choice(("void", "showdown", "recycle", "reshuffle"))
    if "knock_first_round" in settable and rng.random() < 0.2:
        options["knock_first_round"] = rng.choice(("forbidden", "showdown"))
    if "blitz_after_knock" in settable and rng.random() < 0.2:
        options["blitz_after_knock"] = True
    if "knocker_ties" in settable and rng.random() < 0.2:
        safe = () if PRESETS[variant].rules.honour_tie_break else ("safe",)
        options["knocker_ties"] = rng.choice(("penalty", "shared", "double", *safe))
    if "knocker_must_win" in settable and rng.random() < 0.2:
        options["knocker_must_win"] = True
    if "lose_below" in settable and rng.random() < 0.2:
        options["lose_below"] = rng.choice((15, 21))
    if "blitz" in settable and rng.random() < 0.1:
        options["blitz"] = "ace-ten-face"
    if "three_of_a_kind" in settable and rng.random() < 0.2:
        # Trips worth a plain 30, or cards of one rank added up (which needs trips off).
        if rng.random() < 0.5:
            options["three_of_a_kind"] = "30"
        else:
            options |= {"three_of_a_kind": "off", "count_same_rank": True,
                        "trips_equal": False}
    if "may_discard_pickup" in settable and rng.random() < 0.2:
        options["may_discard_pickup"] = True
    if "rounds" in settable and rng.random() < 0.1:
        options["rounds"] = rng.randint(1, 4)
    _house_rules_turn4(variant, rng, options)
    if "deck" in settable and variant != "race" and rng.random() < 0.2:
        options["deck"] = rng.choice(("piquet32", "nine24", "five40", "italian40", "full52"))
        players = min(players, most_players(make_rules(variant, options)))
    return players, options


def _house_rules_turn4(variant, rng, options):
    """RULES.md §4.15 (new turn 4), each in some matches where the preset takes it."""
    settable = PRESETS[variant].settable
    if "deal_passes" in settable and rng.random() < 0.2:
        options["deal_passes"] = "right"
    if "knock_min" in settable and rng.random() < 0.2:
        options["knock_min"] = rng.choice((15, 21, 26))
    if "losers" in settable and rng.random() < 0.2:
        options["losers"] = "all-but-best"
    if "knocker_caught" in settable and rng.random() < 0.2:
        options |= {"blitz_after_knock": True, "knocker_caught": True}
    if "fire" in settable and rng.random() < 0.1:
        options |= {"fire": "any-trips", "three_of_a_kind": "30.5", "count_same_rank": False}


def _public_codes(state, seat):
    """The cards ``seat`` may see now."""
    public = {card.code for card in state.discard}
    if state.pickup is not None:
        public.add(state.pickup.code)  # taken from the discard pile in view of all
    public |= {card.code for card, up in zip(state.table, state.table_face_up, strict=True) if up}
    if seat is not None:
        public |= {card.code for card in state.hands[seat]}
    # The last round's result stays on view during the next round: the cards it showed were
    # shuffled back since, so they tell nothing about the new deal.
    if state.result:
        for shown in state.result.get("hands") or ():
            if shown:
                public |= set(shown["cards"])
    return public


def _codes_in(value, found):
    """The card codes ``value`` shows. A wild card's entry in a score (``{"JC": "8D"}``) shows
    the wild card and only names the card it stands for: that card is not seen."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "wild" and isinstance(item, dict):
                _codes_in(list(item), found)
            else:
                _codes_in(item, found)
    elif isinstance(value, list):
        for item in value:
            _codes_in(item, found)
    elif isinstance(value, str) and value in _ALL_CODES:
        found.add(value)
    return found


_ALL_CODES = {card.code for deck in DECKS.values() for card in deck}


def check_invariants(state, before, look, events=()):
    """Check ``state`` reached from ``before`` by the move that caused ``events``; with
    ``look``, also the views of the seat to move and of a spectator (the move's history entry
    and the events name only cards public before or after it). Returns the legal moves."""
    deck = state.rules.deck_cards
    places = (state.stock, state.discard, state.table, state.out, *state.hands)
    count = sum(map(len, places))
    mask = 0
    for place in places:
        for card in place:
            mask |= card.mask
    assert count == len(deck) and mask == deck.mask, "each card exactly once"
    assert sum(seat.chips for seat in state.seats) + state.pot == 0, "chips conserved"
    for old, new in zip(before.seats, state.seats, strict=True):
        assert new.lives <= old.lives, "lives never grow"
        assert new.eliminated or not old.eliminated, "nobody comes back"
    moves = legal_moves(state)
    assert bool(moves) != state.is_over, "legal moves until the end, none after"
    if look:
        for seat in {state.to_move, None}:
            seen = view(state, seat)
            body = {key: value for key, value in seen.items()
                    if key not in ("history", "public")}
            leaked = _codes_in(body, set()) - _public_codes(state, seat)
            assert not leaked, f"hidden cards in the view of {seat}: {leaked}"
            # What the round made public was face up when it became known: by induction
            # over the moves, every card it names was seen by all.
            known = _codes_in(seen["public"], set()) - _codes_in(
                view(before, seat)["public"], set())
            leaked = known - _public_codes(before, None) - _public_codes(state, None)
            assert not leaked, f"hidden cards in the public knowledge: {leaked}"
            if state is not before and seen["history"]:
                named = _codes_in(seen["history"][-1], set())
                leaked = named - _public_codes(before, seat) - _public_codes(state, seat)
                assert not leaked, f"hidden cards in the history seen by {seat}: {leaked}"
            assert isinstance(seen["stock"], int)
            assert seen["seed"] is None or state.is_over
        named = _codes_in(list(events), set())
        leaked = named - _public_codes(before, None) - _public_codes(state, None)
        assert not leaked, f"hidden cards in the events: {leaked}"
    return moves


@pytest.mark.slow
@pytest.mark.parametrize("variant", PRESETS_PLAYED)
def test_random_matches_keep_every_invariant(variant):
    rng = random.Random(variant)
    total_moves = 0
    for match in range(MATCHES):
        players, options = _match_setup(variant, rng)
        state = new_game(variant, players, seed=f"{variant}:{match}", options=options or None)
        look = match % LOOK_EVERY == 0
        moves = check_invariants(state, state, look)
        for _ in range(MAX_MOVES):
            if state.is_over:
                break
            move = rng.choice(moves)
            new, events = apply_move(state, move)
            for event in events:
                EVENT_MESSAGES[event["type"]].format(**event)
            moves = check_invariants(new, state, look, events)
            if new.phase == "round_over" or new.is_over:
                data = json.loads(json.dumps(new.to_dict()))
                assert GameState.from_dict(data) == new
            state = new
            total_moves += 1
        assert state.is_over, "the match always ends"
        assert state.winners and all(not state.seats[seat].eliminated for seat in state.winners)
    assert total_moves > MATCHES * 5


def _candidates(state):
    """Every move of the engine's vocabulary, over every card of the deck."""
    cards = [card.code for card in state.rules.deck_cards]
    moves = [{"type": "draw", "source": source} for source in ("stock", "discard", "deck")]
    moves += [{"type": kind} for kind in ("knock", "stand", "next_round", "draw", "take")]
    moves += [{"type": "discard", "card": code} for code in cards]
    moves += [{"type": "take", "card": code} for code in cards]
    moves += [{"type": "take", "value": value} for value in range(0, 8)]
    return moves


@pytest.mark.parametrize("variant", sampled(PRESETS_PLAYED))
def test_exactly_the_legal_moves_are_accepted(variant):
    rng = random.Random(f"legal:{variant}")
    for match in range(12):
        low, high = PRESETS[variant].players
        options = {"lives": 1} if "lives" in PRESETS[variant].settable else None
        state = new_game(variant, rng.randint(low, high), seed=f"legal:{match}", options=options)
        while not state.is_over:
            legal = legal_moves(state)
            if rng.random() < 0.7:
                state, _ = apply_move(state, rng.choice(legal))
                continue
            before = state.to_dict()
            for move in _candidates(state):
                if move in legal:
                    validate_move(state, move)
                elif move["type"] == "take" and "value" in move and any(
                    legal_move["card"][:-1] in ("A" if move["value"] == 1 else str(move["value"]),)
                    for legal_move in legal if legal_move["type"] == "take"
                ):
                    validate_move(state, move)  # a value names any card of that value
                else:
                    with pytest.raises(MoveError) as error:
                        apply_move(state, move)
                    assert error.value.code and error.value.code != "bad_state"
                    seat = state.to_move
                    if seat is not None:
                        with pytest.raises(MoveError) as other:
                            validate_move(state, {**move, "seat": (seat + 1) % state.players})
                        assert other.value.code in ("not_your_turn", error.value.code)
            assert state.to_dict() == before, "a refused move changes nothing"
            state, _ = apply_move(state, rng.choice(legal))


@settings(max_examples=150, deadline=None)
@given(
    variant=st.sampled_from(PRESETS_PLAYED),
    seed=st.one_of(st.integers(), st.text(max_size=20)),
    players=st.integers(2, 7),
    picks=st.lists(st.integers(0, 1000), max_size=80),
)
def test_any_seed_and_line_of_play_round_trips(variant, seed, players, picks):
    low, high = PRESETS[variant].players
    state = new_game(variant, min(max(players, low), high), seed=seed)
    for pick in picks:
        if state.is_over:
            break
        moves = check_invariants(state, state, False)
        state, _ = apply_move(state, moves[pick % len(moves)])
    data = json.loads(json.dumps(state.to_dict()))
    assert GameState.from_dict(data) == state
    json.dumps([view(state, seat) for seat in (None, *range(state.players))])
