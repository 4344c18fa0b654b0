"""The events a move causes, each typed, and what each says in English for the web layer to
translate.

:func:`~thirtyone.game.apply_move` returns events as dicts with a ``type`` and parameters, one
:class:`~typing.TypedDict` per type below (:data:`Event` is any of them);
``EVENT_MESSAGES[event["type"]].format(**event)`` is the English sentence. Card parameters are
card codes, ``None`` where the card stays hidden; a seat is its number. Events only carry
public information.

>>> EVENT_MESSAGES["knocked"].format(type="knocked", seat=2)
'Seat 2 knocked.'
"""


from typing import Literal, NotRequired, TypedDict, get_args, get_type_hints

from thirtyone.cards import CardCode
from thirtyone.errors import N_, NP_

Points = int | float
"""A hand's points: a whole number, or 30.5 where three of a kind is worth 30½."""


class Dealt(TypedDict):
    type: Literal["dealt"]
    round: int
    dealer: int


class TurnedUp(TypedDict):
    type: Literal["turned_up"]
    card: CardCode


class Drew(TypedDict):
    """``card`` only when drawn from the discard pile, where everyone saw it."""

    type: Literal["drew"]
    seat: int
    source: Literal["stock", "discard"]
    card: NotRequired[CardCode]


class Discarded(TypedDict):
    type: Literal["discarded"]
    seat: int
    card: CardCode


class Knocked(TypedDict):
    type: Literal["knocked"]
    seat: int


class Stood(TypedDict):
    type: Literal["stood"]
    seat: int


class StockRecycled(TypedDict):
    """``cards``: how many cards the new stock holds."""

    type: Literal["stock_recycled"]
    cards: int


class StockReshuffled(TypedDict):
    """``cards``: how many cards the new, shuffled stock holds."""

    type: Literal["stock_reshuffled"]
    cards: int


class StockExhausted(TypedDict):
    type: Literal["stock_exhausted"]


class StockShowdown(TypedDict):
    type: Literal["stock_showdown"]


class FirstTurnKnock(TypedDict):
    type: Literal["first_turn_knock"]
    seat: int


class TurnLimit(TypedDict):
    type: Literal["turn_limit"]
    turns: int


class Blitz(TypedDict):
    type: Literal["blitz"]
    seat: int
    cards: list[CardCode]


class Fire(TypedDict):
    """Feuer: three aces (``three_aces_fire``), or any three of a kind with ``fire:
    any-trips``: shown at once, as a blitz."""

    type: Literal["fire"]
    seat: int
    cards: list[CardCode]


class Showdown(TypedDict):
    type: Literal["showdown"]
    knocker: int | None


class Shown(TypedDict):
    type: Literal["shown"]
    seat: int
    cards: list[CardCode]
    points: Points | None
    category: str | None


class LivesLost(TypedDict):
    type: Literal["lives_lost"]
    seat: int
    lives: int
    left: int


class FreeRide(TypedDict):
    type: Literal["free_ride"]
    seat: int


class Paid(TypedDict):
    type: Literal["paid"]
    seat: int
    chips: int


class Eliminated(TypedDict):
    type: Literal["eliminated"]
    seat: int


class PointsScored(TypedDict):
    type: Literal["points_scored"]
    seat: int
    points: int
    total: int


class PotWon(TypedDict):
    type: Literal["pot_won"]
    seat: int
    chips: int


class RoundOver(TypedDict):
    """``reason``: ``showdown``, ``blitz``, ``void``, or a family's own (``declared``, ...)."""

    type: Literal["round_over"]
    round: int
    reason: str


class MatchWon(TypedDict):
    """``shared``: the match ended in a tie that these winners share."""

    type: Literal["match_won"]
    seat: int
    shared: bool


class Ante(TypedDict):
    type: Literal["ante"]
    chips: int
    pot: int


class WidowDealt(TypedDict):
    """The widow's cards, ``None`` where face down."""

    type: Literal["widow_dealt"]
    cards: list[CardCode | None]


class Exchanged(TypedDict):
    """``gave``: the cards given (``None`` when given face down); ``took``: those taken
    (``None`` where they lay face down); ``positions``: where on the table."""

    type: Literal["exchanged"]
    seat: int
    count: int
    gave: list[CardCode | None]
    took: list[CardCode | None]
    positions: list[int]


class ThirtyOne(TypedDict):
    type: Literal["thirty_one"]
    seat: int


class Widow31(TypedDict):
    type: Literal["widow_31"]
    seat: int
    cards: list[CardCode]


class Declared(TypedDict):
    type: Literal["declared"]
    seat: int
    category: str
    points: Points


class Passed(TypedDict):
    type: Literal["passed"]
    seat: int


class Joined(TypedDict):
    type: Literal["joined"]
    seat: int
    chips: int


class SatOut(TypedDict):
    type: Literal["sat_out"]
    seat: int


class TableRenewed(TypedDict):
    """``cards``: the three new table cards, face up."""

    type: Literal["table_renewed"]
    cards: list[CardCode]


class TableNotRenewed(TypedDict):
    """``cards``: how many cards the stock held, too few to renew the table."""

    type: Literal["table_not_renewed"]
    cards: int


class WidowRevealed(TypedDict):
    type: Literal["widow_revealed"]
    seat: int
    cards: list[CardCode]


class PotCarried(TypedDict):
    """``seats``: the tied seats the carried deal is for."""

    type: Literal["pot_carried"]
    chips: int
    seats: list[int]


class PotLeft(TypedDict):
    type: Literal["pot_left"]
    chips: int


class HandKept(TypedDict):
    """``laid``: the other hand, laid face up."""

    type: Literal["hand_kept"]
    seat: int
    hand: int
    laid: list[CardCode]


class HandSwapped(TypedDict):
    type: Literal["hand_swapped"]
    seat: int
    hand: int
    gave: list[CardCode | None]
    took: list[CardCode | None]


class Renewed(TypedDict):
    """``cards``: the fresh hand when dealt face up, else ``None``."""

    type: Literal["renewed"]
    seat: int
    hand: int
    face_up: bool
    cards: list[CardCode] | None


class LaidOut(TypedDict):
    type: Literal["laid_out"]
    dealer: int
    seat: int


class Took(TypedDict):
    type: Literal["took"]
    seat: int
    card: CardCode
    total: int


class Stuck(TypedDict):
    type: Literal["stuck"]
    seat: int
    total: int


Event = (Dealt | TurnedUp | Drew | Discarded | Knocked | Stood | StockRecycled | StockReshuffled
         | StockExhausted | StockShowdown | FirstTurnKnock | TurnLimit | Blitz | Fire | Showdown
         | Shown | LivesLost | FreeRide | Paid | Eliminated | PointsScored | PotWon | RoundOver
         | MatchWon | Ante | WidowDealt | Exchanged | ThirtyOne | Widow31 | Declared | Passed
         | Joined | SatOut | TableRenewed | TableNotRenewed | WidowRevealed | PotCarried
         | PotLeft | HandKept | HandSwapped | Renewed | LaidOut | Took | Stuck)
"""Any event: a dict whose ``type`` says which."""

EVENTS: dict[str, type] = {
    get_args(get_type_hints(kind)["type"])[0]: kind for kind in get_args(Event)
}
"""Each event type's :class:`~typing.TypedDict`, by its ``type``."""

EVENT_MESSAGES: dict[str, str] = {
    "dealt": N_("Round {round}: seat {dealer} dealt."),
    "turned_up": N_("{card} was turned up to start the discard pile."),
    "drew": N_("Seat {seat} drew from the {source}."),
    "discarded": N_("Seat {seat} discarded {card}."),
    "knocked": N_("Seat {seat} knocked."),
    "stood": N_("Seat {seat} stood."),
    "stock_recycled": N_("The discard pile was turned over as the new stock."),
    "stock_reshuffled": N_("The discard pile was shuffled to make the new stock."),
    "stock_exhausted": N_("The stock ran out before anyone knocked: nobody loses this round."),
    "stock_showdown": N_("The stock ran out before anyone knocked: showdown."),
    "first_turn_knock": N_("Seat {seat} knocked before anyone played: the showdown comes at "
                           "once."),
    "turn_limit": N_("The round reached {turns} turns: showdown."),
    "blitz": N_("Seat {seat} has a blitz!"),
    "fire": N_("Seat {seat} shows Feuer: {cards}!"),
    "showdown": N_("Showdown."),
    "shown": N_("Seat {seat} shows {points} points."),
    "lives_lost": N_("Seat {seat} lost lives: {lives}; lives left: {left}."),
    "free_ride": N_("Seat {seat} is on a free ride."),
    "paid": N_("Seat {seat} paid {chips} chips into the pot."),
    "eliminated": N_("Seat {seat} is out of the match."),
    "points_scored": N_("Seat {seat} scored {points} points ({total} in all)."),
    "pot_won": N_("Seat {seat} won {chips} chips from the pot."),
    "round_over": N_("Round {round} is over."),
    "match_won": N_("Seat {seat} won the match."),
    "ante": N_("Every seat put {chips} chips into the pot ({pot} in all)."),
    "widow_dealt": N_("Three cards were dealt to the widow."),
    "exchanged": N_("Seat {seat} exchanged {count} cards with the table."),
    "thirty_one": N_("Seat {seat} has 31!"),
    "widow_31": N_("The widow is a 31: the dealer, seat {seat}, wins the pot."),
    "declared": N_("Seat {seat} declared {points} points."),
    "passed": N_("Seat {seat} passed."),
    "joined": N_("Seat {seat} joined the deal for {chips} chips."),
    "sat_out": N_("Seat {seat} sits this deal out."),
    "table_renewed": N_("Everyone passed: three cards from the stock replace the table cards."),
    "table_not_renewed": N_("Everyone passed and the stock is too short to renew the table: "
                            "showdown."),
    "widow_revealed": N_("Seat {seat} turned the table cards face up."),
    "pot_carried": N_("The best hands tied: the pot of {chips} chips goes to a next deal."),
    "pot_left": N_("{chips} chips stay in the pot for the next deal."),
    "hand_kept": N_("Seat {seat} kept one hand and laid the other face up."),
    "hand_swapped": N_("Seat {seat} swapped their hand with table hand {hand}."),
    "renewed": N_("Seat {seat} renewed table hand {hand}."),
    "laid_out": N_("The cards are laid out; seat {seat} takes first."),
    "took": N_("Seat {seat} took {card}: {total}."),
    "stuck": N_("Seat {seat} cannot take a card without passing 31."),
}
"""For each event type, its English message template (marked for translation)."""

EVENT_PLURALS: dict[str, tuple[str, tuple[str, str]]] = {
    "exchanged": ("count", NP_("Seat {seat} exchanged {count} card with the table.",
                               "Seat {seat} exchanged {count} cards with the table.")),
    "paid": ("chips", NP_("Seat {seat} paid {chips} chip into the pot.",
                          "Seat {seat} paid {chips} chips into the pot.")),
    "pot_won": ("chips", NP_("Seat {seat} won {chips} chip from the pot.",
                             "Seat {seat} won {chips} chips from the pot.")),
    "ante": ("chips", NP_("Every seat put {chips} chip into the pot ({pot} in all).",
                          "Every seat put {chips} chips into the pot ({pot} in all).")),
    "joined": ("chips", NP_("Seat {seat} joined the deal for {chips} chip.",
                            "Seat {seat} joined the deal for {chips} chips.")),
    "pot_carried": ("chips", NP_("The best hands tied: the pot of {chips} chip goes to a next "
                                 "deal.",
                                 "The best hands tied: the pot of {chips} chips goes to a next "
                                 "deal.")),
    "pot_left": ("chips", NP_("{chips} chip stays in the pot for the next deal.",
                              "{chips} chips stay in the pot for the next deal.")),
    "lives_lost": ("lives", NP_("Seat {seat} lost {lives} life; lives left: {left}.",
                                "Seat {seat} lost {lives} lives; lives left: {left}.")),
    "points_scored": ("points", NP_("Seat {seat} scored {points} point ({total} in all).",
                                    "Seat {seat} scored {points} points ({total} in all).")),
    "turn_limit": ("turns", NP_("The round reached {turns} turn: showdown.",
                                "The round reached {turns} turns: showdown.")),
}
"""The events whose sentence counts something: the parameter counted and the sentence's two
English forms, from which each language's catalog gives its own plural forms (``ngettext``).
The web layer and the command line use these in place of :data:`EVENT_MESSAGES`."""
