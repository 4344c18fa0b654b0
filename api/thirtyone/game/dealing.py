"""The first dealer and the deal, from the seed only (RULES.md §3)."""

from __future__ import annotations

from thirtyone.cards import Card
from thirtyone.game.shuffle import Stream, shuffled
from thirtyone.game.state import GameState
from thirtyone.hands import HAND_SIZE
from thirtyone.rules import Family, Rules


def first_dealer(rules: Rules, seed: int | str, players: int) -> int:
    """The first dealer by the rules' ``first_dealer``: a seeded random seat, or a seeded draw
    where the lowest (``draw-low``) or highest (``draw-high``) card deals.

    Cards draw by their value in the deck, then by rank (a king beats a ten); seats tied for
    the dealing card draw again from a fresh shuffle until one is left.
    """
    if rules.first_dealer == "random":
        return Stream(seed, "first-dealer").below(players)
    deck = rules.deck_cards
    highest = rules.first_dealer == "draw-high"
    candidates = list(range(players))
    attempt = 0
    while len(candidates) > 1:
        cards = shuffled(deck.cards, seed, f"first-dealer:{attempt}")
        keys = {seat: (deck.value(cards[i]), cards[i].rank_order)
                for i, seat in enumerate(candidates)}
        best = max(keys.values()) if highest else min(keys.values())
        candidates = [seat for seat in candidates if keys[seat] == best]
        attempt += 1
    return candidates[0]


def most_players(rules: Rules) -> int:
    """The most seats the deck deals to: three cards each and three more (the turned-up
    card and a stock, the widow, or the spare hand), three more again for a draw game's
    widow (bank) or Switch's second hand; the race's layout aside."""
    if rules.family is Family.RACE:
        return rules.preset.players[1]
    extra = HAND_SIZE
    if rules.family is Family.SWITCH or (rules.family is Family.DRAW and rules.widow != "none"):
        extra += HAND_SIZE
    return (len(rules.deck_cards) - extra) // HAND_SIZE


def next_dealer(state: GameState) -> int:
    """The next round's dealer: the first seat still in the match on the dealer's left, or
    with ``deal_passes: right`` on the dealer's right (Italian "31": "il compito del mazziere
    passa al giocatore alla sua destra"), while play still goes left."""
    if state.rules.deal_passes == "left":
        return state.next_active(state.dealer)
    n = state.players
    return next(seat for step in range(1, n + 1)
                if not state.seats[seat := (state.dealer - step) % n].eliminated)


def dealing_order(state: GameState) -> tuple[int, ...]:
    """The seats still in the match from the dealer's left round to the dealer."""
    n = state.players
    seats = state.seats
    return tuple(
        seat for step in range(1, n + 1)
        if not seats[seat := (state.dealer + step) % n].eliminated
    )


def deal(
    state: GameState, order: tuple[int, ...], *, widow: bool = False
) -> tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...], tuple[Card, ...]]:
    """Shuffle the deck for ``state.round`` and deal three cards one at a time to the seats
    of ``order``, and with ``widow`` one card to the widow after each round of dealing.

    Returns the hands (one per seat, empty for seats not dealt), the widow, and the rest of the
    deck, top card first.
    """
    deck = shuffled(state.rules.deck_cards.cards, state.seed, f"deal:{state.round}")
    hands: list[list[Card]] = [[] for _ in range(state.players)]
    widow_cards: list[Card] = []
    position = 0
    for _ in range(HAND_SIZE):
        for seat in order:
            hands[seat].append(deck[position])
            position += 1
        if widow:
            widow_cards.append(deck[position])
            position += 1
    return tuple(tuple(hand) for hand in hands), tuple(widow_cards), deck[position:]
