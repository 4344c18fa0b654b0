"""Rule options, presets, and the rule sets built from them.

Every rule of the family is an option with a default (RULES.md); a *preset* is a named set of
option values plus the family of game flow it plays with. :func:`make_rules` builds a frozen
:class:`Rules` from a preset and overrides, refusing anything that cannot apply;
:func:`read_rules` reads a stored rule set back with the meaning it had when it was saved.
Each choice option is typed by the ``Literal`` of its values (``TieBreak``, ``KnockerTies``,
...), from which its allowed values are read, so a type checker catches a comparison with a
value the option cannot take.

>>> rules = make_rules("scat", {"three_of_a_kind": "30.5", "lives": 4})
>>> rules.variant, rules.three_of_a_kind, rules.lives, rules.deck
('scat', '30.5', 4, 'full52')
>>> rules.overrides()
{'three_of_a_kind': '30.5', 'lives': 4}
>>> find_preset("Big Tonka").id
'scat'
>>> make_rules("trentuno", {"lives": 5})
Traceback (most recent call last):
...
thirtyone.errors.OptionError: option 'lives' does not apply to 'trentuno'
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from enum import StrEnum
from typing import Annotated, Any, Literal, TypeAlias, TypedDict, get_args

from thirtyone.cards import DECKS, SUITS, Deck, parse_card
from thirtyone.errors import N_, CardError, OptionError


class Family(StrEnum):
    """The game flows; a preset plays with exactly one."""

    DRAW = "draw"
    """Draw from the stock or the discard pile, discard, knock (scat, blitz, bank, ...)."""
    WIDOW = "widow"
    """Exchange with cards on the table (schnautz, trentuno, jokers, no-trips, stop-the-bus)."""
    SWITCH = "switch"
    """The dealer's two hands and the table hands of Switch."""
    RACE = "race"
    """The two-player race to 31."""


class Settlement(StrEnum):
    """How a round's result is paid."""

    LIVES = "lives"
    POINTS = "points"
    POT = "pot"
    ESCALATING = "escalating"
    NONE = "none"


# The values of each choice option. The option's allowed values are read from these types, so
# that a comparison such as ``rules.blitz == "any-31"`` is checked by a type checker and the
# values are listed once.
CardValues: TypeAlias = Literal["standard", "race"]
ThreeOfAKind: TypeAlias = Literal["off", "30.5", "30-below-suited", "30"]
WildCards: TypeAlias = Literal["none", "jokers", "jack-of-clubs-trips"]
TieBreak: TypeAlias = Literal["none", "trips", "ranks", "suit"]
BlitzHand: TypeAlias = Literal["any-31", "ace-king-ten", "ace-ten-face", "off"]
HandRanking: TypeAlias = Literal["thirty-one", "brag"]
BragOrder: TypeAlias = Literal["traditional", "ace-high"]
FirstDealer: TypeAlias = Literal["draw-low", "draw-high", "random"]
FirstRoundKnock: TypeAlias = Literal["allowed", "forbidden", "showdown"]
StockExhausted: TypeAlias = Literal["void", "showdown", "recycle", "reshuffle"]
KnockerTies: TypeAlias = Literal["penalty", "safe", "shared", "double"]
Fire: TypeAlias = Literal["off", "aces", "any-trips"]
Losers: TypeAlias = Literal["lowest", "all-but-best"]
SpareHandTo: TypeAlias = Literal["dealer", "first-player"]
DealPasses: TypeAlias = Literal["left", "right"]
WidowDeal: TypeAlias = Literal["none", "face-up", "face-down"]
WidowDiscards: TypeAlias = Literal["face-up", "face-down"]
ExchangeRule: TypeAlias = Literal["up-to-max", "one-or-three"]
KnockRule: TypeAlias = Literal["plain", "take-all"]
On31: TypeAlias = Literal["showdown", "knock"]
PotTie: TypeAlias = Literal["split", "carry"]
Stakes: TypeAlias = Literal["escalating", "betting"]

OptionKind: TypeAlias = Literal["choice", "bool", "int", "int-or-none", "suits", "card"]


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """What one option is: its type, allowed values, default and description.

    ``kind`` is one of ``choice``, ``bool``, ``int``, ``int-or-none``, ``suits`` (a ranking
    of the four suit letters) or ``card`` (a card code).
    """

    name: str
    kind: OptionKind
    default: Any
    description: str
    choices: tuple[Any, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    legacy: tuple[tuple[Any, Any], ...] = ()
    """Values of an earlier type still accepted, each with the choice it now means."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "type": self.kind,
            "default": self.default,
            "choices": list(self.choices),
            "minimum": self.minimum,
            "maximum": self.maximum,
            "description": self.description,
        }

    def check(self, value: Any) -> Any:
        """Return ``value`` in canonical form, or raise :class:`OptionError`."""
        where = f"options.{self.name}"
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise _bad_type(self, value, where)
            return value
        if self.kind in ("int", "int-or-none"):
            return self._check_int(value, where)
        if self.kind == "choice":
            return self._check_choice(value, where)
        if self.kind == "suits":
            return self._check_suits(value, where)
        if self.kind == "card":
            try:
                return parse_card(value).code
            except CardError:
                raise OptionError(
                    "bad_option_value", N_("option {option!r} must be a card code, not {value!r}"),
                    field=where, option=self.name, value=value,
                ) from None
        raise AssertionError(self.kind)  # pragma: no cover - the kinds are closed

    def _check_int(self, value: Any, where: str) -> int | None:
        if value is None and self.kind == "int-or-none":
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            raise _bad_type(self, value, where)
        if (self.minimum is not None and value < self.minimum) or (
            self.maximum is not None and value > self.maximum
        ):
            raise OptionError(
                "option_out_of_range",
                N_("option {option!r} must be between {minimum} and {maximum}, not {value!r}"),
                field=where, option=self.name, value=value,
                minimum=self.minimum, maximum=self.maximum,
            )
        return value

    def _check_choice(self, value: Any, where: str) -> Any:
        for old, new in self.legacy:
            if value is old:
                return new
        # Numbers are accepted for choices spelled as numbers ("30.5", 30.5).
        text = _format_number(value) if isinstance(value, int | float) and not isinstance(
            value, bool) else value
        if text not in self.choices:
            if not isinstance(value, str):
                raise _bad_type(self, value, where)
            raise OptionError(
                "bad_option_value",
                N_("option {option!r} must be one of {choices}, not {value!r}"),
                field=where, option=self.name, value=value,
                choices=", ".join(map(str, self.choices)),
            )
        return text

    def _check_suits(self, value: Any, where: str) -> str:
        if not isinstance(value, str):
            raise _bad_type(self, value, where)
        order = value.upper()
        if sorted(order) != sorted(SUITS):
            raise OptionError(
                "bad_option_value",
                N_("option {option!r} must order the four suits C, D, H and S, not {value!r}"),
                field=where, option=self.name, value=value,
            )
        return order


def _format_number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def _bad_type(spec: OptionSpec, value: Any, where: str) -> OptionError:
    return OptionError(
        "bad_option_type",
        N_("option {option!r} takes a value of type {type}, not {value!r}"),
        field=where, option=spec.name, type=spec.kind, value=value,
    )


def _option(
    default: Any,
    description: str,
    *,
    kind: OptionKind = "choice",
    choices: tuple[Any, ...] = (),
    minimum: int | None = None,
    maximum: int | None = None,
    legacy: tuple[tuple[Any, Any], ...] = (),
) -> Any:
    spec = OptionSpec("", kind, default, description, choices, minimum, maximum, legacy)
    return field(default=default, metadata={"spec": spec})


def _choice(
    values: Any, default: str, description: str, *, legacy: tuple[tuple[Any, Any], ...] = ()
) -> Any:
    """A choice option whose allowed values are those of the ``Literal`` type ``values``."""
    choices: tuple[str, ...] = get_args(values)
    assert default in choices, (default, choices)
    return _option(default, description, choices=choices, legacy=legacy)


OPTION_VALUES = "options"
"""The mark of a mapping of option names to values in a type, for those who read types (the
API's contract, which knows each option's own type)."""

OptionValues = Annotated[dict[str, bool | int | str | None], OPTION_VALUES]
"""Option values by name; each option's kind (:data:`OPTIONS`) says which type its value has."""


class RulesData(TypedDict):
    """A rule set as plain data (:meth:`Rules.to_dict`): the variant and the options that
    differ from its defaults (or from the defaults it had before they changed)."""

    variant: str
    options: OptionValues


@dataclass(frozen=True, slots=True)
class Rules:
    """A complete rule set: the preset it comes from and the value of every option.

    Build one with :func:`make_rules`; the constructor does not check combinations.
    Instances are immutable and hashable, so tables computed from them can be cached.
    """

    variant: str = "scat"
    family: Family = Family.DRAW
    settlement: Settlement = Settlement.LIVES

    # §1 Cards
    deck: str = _option("full52", N_("The deck played with."), choices=tuple(DECKS))
    values: CardValues = _choice(
        CardValues, "standard", N_("How cards count: standard (ace 11) or race (ace 1)."),
    )
    suit_order: str = _option(
        "HDCS", N_("Suit ranking, highest first; used only by the suit tie-break."), kind="suits"
    )

    # §2 Hand value
    three_of_a_kind: ThreeOfAKind = _choice(
        ThreeOfAKind, "off",
        N_("Three cards of one rank: not special, worth 30½, worth 30 below a suited 30, or "
           "a plain 30."),
    )
    trips_equal: bool = _option(False, N_("All three-of-a-kind hands tie."), kind="bool")
    count_same_rank: bool = _option(
        False,
        N_("Cards of one rank add up too: a hand counts its best suit or its best rank, "
           "whichever is more (seven-seven-seven counts 21)."),
        kind="bool",
    )
    three_aces: int | None = _option(
        None,
        N_("Points for three aces even when three of a kind is not special (32 or 33 put them "
           "above any 31)."),
        kind="int-or-none", minimum=1, maximum=33,
    )
    three_aces_fire: bool = _option(
        False,
        N_("Three aces (Feuer) end the round at once, as a blitz does: every other seat "
           "loses a life or pays the blitz fee."),
        kind="bool",
    )
    fire: Fire = _choice(
        Fire, "off",
        N_("Feuer: none; three aces (the same as three_aces_fire); or any three of a kind, "
           "dealt or made, ends the round at once as a blitz does."),
    )
    wild: WildCards = _choice(
        WildCards, "none",
        N_("Wild cards: none, jokers, or the jack of clubs for three of a kind only."),
    )
    joker_card: str = _option(
        "6S", N_("The card that is wild when jokers are played with the 36-card deck."),
        kind="card",
    )
    tie_break: TieBreak = _choice(
        TieBreak, "none",
        N_("How equal points are decided: a tie; a tie except that higher three of a kind "
           "wins (trips); by the cards' ranks; or by suit."),
    )
    blitz: BlitzHand = _choice(
        BlitzHand, "any-31",
        N_("Which hand is a blitz: any 31 in one suit, only ace-king-ten, an ace, a ten and "
           "a face card, or none."),
    )
    ranking: HandRanking = _choice(
        HandRanking, "thirty-one",
        N_("How hands rank: by points, or by the brag ranking of Stop the Bus."),
    )
    brag_order: BragOrder = _choice(
        BragOrder, "traditional",
        N_("Brag order: traditional (three threes the top three of a kind, ace-two-three the "
           "top run) or ace-high (ace high everywhere, ace-two-three the lowest run)."),
    )

    # §3 Round structure
    first_dealer: FirstDealer = _choice(
        FirstDealer, "random",
        N_("How the first dealer is chosen when the caller does not name one."),
    )
    deal_passes: DealPasses = _choice(
        DealPasses, "left",
        N_("Where the deal passes after each round: to the dealer's left, or to the right "
           "while play still goes to the left."),
    )
    max_turns: int = _option(
        300, N_("Turns after which a round goes straight to the showdown."),
        kind="int", minimum=10, maximum=10_000,
    )
    rounds: int | None = _option(
        None, N_("Deals in the match; empty means one deal per player."),
        kind="int-or-none", minimum=1, maximum=1000,
    )
    target: int | None = _option(
        None, N_("Points that end the match early; empty means none."),
        kind="int-or-none", minimum=1, maximum=1000,
    )

    # §4 Draw and knock
    may_discard_pickup: bool = _option(
        False, N_("A card taken from the discard pile may be discarded in the same turn."),
        kind="bool",
    )
    knock_first_round: FirstRoundKnock = _choice(
        FirstRoundKnock, "allowed",
        N_("Knocking in the first round of turns: allowed; forbidden until every seat has "
           "played; or showdown, where a knock before anyone has played goes straight to the "
           "showdown."),
        legacy=((True, "allowed"), (False, "forbidden")),
    )
    blitz_after_knock: bool = _option(
        False,
        N_("A blitz made in the last turns after a knock ends the round as a blitz; otherwise "
           "it is only the best hand at the showdown."),
        kind="bool",
    )
    stock_exhausted: StockExhausted = _choice(
        StockExhausted, "void",
        N_("When the stock runs out: the round is void; showdown at once; the discard pile is "
           "turned over as the stock (recycle) or shuffled into it (reshuffle)."),
    )
    knocker_penalty: int = _option(
        2, N_("Lives the knocker loses when alone lowest, and when tied for lowest too if the "
              "rule on ties makes the knocker pay."),
        kind="int", minimum=1, maximum=3,
    )
    knocker_ties: KnockerTies = _choice(
        KnockerTies, "penalty",
        N_("The knocker tied for lowest: penalty (the knocker alone pays the penalty, the "
           "others tied pay nothing); safe (the knocker wins ties, the others tied lose); "
           "shared (every seat tied for lowest loses one, the knocker too); or double (the "
           "knocker pays the penalty, the others tied lose one)."),
    )
    knocker_caught: bool = _option(
        False,
        N_("With a blitz after a knock: a knocker caught by a 31 made after the knock loses "
           "the knocker's penalty, the other seats one life."),
        kind="bool",
    )
    knock_min: int | None = _option(
        None,
        N_("A seat may knock only with at least this many points; empty means any hand."),
        kind="int-or-none", minimum=1, maximum=31,
    )
    losers: Losers = _choice(
        Losers, "lowest",
        N_("Who loses a life at a showdown: the lowest hand, or every seat but the best."),
    )
    knocker_must_win: bool = _option(
        False,
        N_("A knocker who does not hold the best hand alone loses a life (or pays a chip) "
           "besides what the showdown costs the others."),
        kind="bool",
    )
    lose_below: int | None = _option(
        None,
        N_("At a showdown every hand below this many points loses a life, then the lowest of "
           "the others as usual; empty means none."),
        kind="int-or-none", minimum=1, maximum=31,
    )
    lives: int = _option(3, N_("Lives each seat starts with."), kind="int", minimum=1, maximum=10)
    free_ride: bool = _option(
        True, N_("A seat with no lives left plays on until its next loss."), kind="bool"
    )
    lives_to_pot: bool = _option(
        False, N_("Each lost life is a chip paid into a pot that the winner takes."), kind="bool"
    )
    honour_tie_break: bool = _option(
        False,
        N_("Two seats left, tied, one on a free ride: the cards' ranks break the tie."),
        kind="bool",
    )

    # §4 Pot, widow and exchange
    ante: int = _option(
        0, N_("Chips each seat puts into the pot before each deal."),
        kind="int", minimum=0, maximum=100,
    )
    widow: WidowDeal = _choice(
        WidowDeal, "none",
        N_("Cards dealt to the table: none, three face up, or three face down."),
    )
    spare_hand_to: SpareHandTo = _choice(
        SpareHandTo, "dealer",
        N_("Who chooses between the dealt hand and the spare hand: the dealer, or the seat "
           "at the dealer's left, after whom play begins."),
    )
    widow_discards: WidowDiscards = _choice(
        WidowDiscards, "face-up", N_("How cards given to the widow lie: face up or face down."),
    )
    exchange_max: int = _option(
        1, N_("The most cards exchanged with the table in one turn."),
        kind="int", minimum=1, maximum=3,
    )
    exchange: ExchangeRule = _choice(
        ExchangeRule, "up-to-max",
        N_("Cards exchanged in a turn: one up to the maximum, or one or all three."),
    )
    knock: KnockRule = _choice(
        KnockRule, "plain",
        N_("How a player knocks: by a plain knock, or by taking all three table cards."),
    )
    on_31: On31 = _choice(
        On31, "showdown",
        N_("A 31 made by exchanging: ends the round at once with a showdown, or counts as a "
           "knock (every other seat has one last turn)."),
    )
    close_after_exchange: bool = _option(
        False,
        N_("A player may knock (close) right after their own exchange, in the same turn."),
        kind="bool",
    )
    may_pass: bool = _option(
        False,
        N_("A turn may pass; after a full round of passes the table cards are replaced from "
           "the stock, or the showdown comes when it is too short."),
        kind="bool",
    )
    declarations: bool = _option(
        False, N_("After the deal each player may declare a hand at once, or pass."), kind="bool"
    )
    dealt_31_wins: bool = _option(
        False, N_("A player dealt 31 declares it and wins the pot at once."), kind="bool"
    )
    widow_31_wins: bool = _option(
        False, N_("A widow of 31 in one suit wins the pot for the dealer."), kind="bool"
    )
    call_fee: int = _option(
        0, N_("Chips the player who knocks pays into the pot."),
        kind="int", minimum=0, maximum=100,
    )
    blitz_fee: int = _option(
        0, N_("Chips every other seat pays into the pot when a blitz is shown."),
        kind="int", minimum=0, maximum=100,
    )
    tie: PotTie = _choice(
        PotTie, "split",
        N_("Best hands tied: split the pot, or play a next deal among the tied seats."),
    )
    table_face_up: bool = _option(
        False, N_("The table cards are dealt face up and the dealer cannot swap all three."),
        kind="bool",
    )
    stakes: Stakes = _choice(
        Stakes, "escalating", N_("Stakes: the loser of each deal pays more each deal, or betting."),
    )

    def options(self) -> dict[str, Any]:
        """Every option's value, by name."""
        return {name: getattr(self, name) for name in OPTIONS}

    def overrides(self) -> dict[str, Any]:
        """The options whose value differs from the preset's default (``fire`` only where
        ``three_aces_fire``, its other spelling, does not already say it)."""
        base = PRESETS[self.variant].rules
        changed = {
            name: value for name in OPTIONS if (value := getattr(self, name)) != getattr(base, name)
        }
        if changed.get("fire") == _fire_of(self.three_aces_fire):
            del changed["fire"]
        return changed

    @property
    def preset(self) -> Preset:
        return PRESETS[self.variant]

    @property
    def deck_cards(self) -> Deck:
        """The :class:`~thirtyone.cards.Deck` these rules play with."""
        return DECKS[self.deck]

    def to_dict(self) -> RulesData:
        """``{"variant": ..., "options": {...}}``: the overrides (see :func:`make_rules`), and
        the options whose value a state saved before its preset's defaults changed would not
        mean (:func:`read_rules` reads both back).

        >>> make_rules("scat", {"knocker_penalty": 1}).to_dict()
        {'variant': 'scat', 'options': {'knocker_penalty': 1, 'knocker_ties': 'penalty'}}
        >>> make_rules("schwimmen").to_dict()
        {'variant': 'schwimmen', 'options': {'tie_break': 'trips'}}
        """
        # Every state written or viewed writes its rules (twice per sealed move), and working
        # them out reads every option twice (5 us): rules are immutable, so each instance's
        # are worked out once and kept, by identity (hashing a rule set reads every field too).
        kept = _RULES_DATA.get(id(self))
        if kept is None or kept[0] is not self:
            options = self.overrides()
            for name, earlier in _earlier_defaults(self).items():
                if (value := getattr(self, name)) != earlier:
                    options[name] = value
            # The entry holds the rules, so their id names no other object while it is kept.
            kept = (self, options)
            if len(_RULES_DATA) >= _RULES_KEPT:
                _RULES_DATA.clear()
            _RULES_DATA[id(self)] = kept
        return {"variant": self.variant, "options": dict(kept[1])}


_RULES_DATA: dict[int, tuple[Rules, dict[str, Any]]] = {}
""":meth:`Rules.to_dict`'s options, by the id of the rules they belong to."""
_RULES_KEPT = 256


OPTIONS: dict[str, OptionSpec] = {
    f.name: dataclasses.replace(f.metadata["spec"], name=f.name)
    for f in fields(Rules)
    if "spec" in f.metadata
}
"""Every option of the rules model, by name, in the order of RULES.md."""


@dataclass(frozen=True, slots=True)
class Source:
    """A rule source text (see the rules site for the full citations)."""

    id: str
    title: str
    author: str
    language: str


SOURCES: dict[str, Source] = {
    source.id: source
    for source in (
        Source("000", "Тридцать одно", "D. Parlett, The Oxford Dictionary of Card Games "
               "(Russian edition)", "ru"),
        Source("001", "Тридцать одно", "A Russian card-games handbook", "ru"),
        Source("002", "Il Trentuno", "An Italian description of Trentuno", "it"),
        Source("003", "Тридцать один (карточная игра)", "Wikipedia, 'Thirty-one (card game)' "
               "(Russian translation)", "ru"),
    )
}


@dataclass(frozen=True, slots=True, kw_only=True)
class Preset:
    """A named rule set: its family, player range, sources, and the options a table may change.
    Made by keyword only, so that each value says what it is."""

    id: str
    name: str
    summary: str
    family: Family
    settlement: Settlement
    players: tuple[int, int]
    sources: tuple[str, ...]
    defaults: Mapping[str, Any]
    settable: tuple[str, ...]
    aliases: tuple[str, ...] = ()

    @property
    def rules(self) -> Rules:
        """The preset's rules with no overrides."""
        return _PRESET_RULES[self.id]

    def option_specs(self) -> list[OptionSpec]:
        """The options a table may change for this preset, with this preset's defaults."""
        base = self.rules
        return [
            dataclasses.replace(OPTIONS[name], default=getattr(base, name))
            for name in OPTIONS
            if name in self.settable
        ]


_HAND = (
    "three_of_a_kind", "trips_equal", "count_same_rank", "three_aces", "three_aces_fire", "fire",
    "wild", "joker_card", "tie_break", "suit_order",
)
_ROUND = ("first_dealer", "deal_passes", "max_turns", "rounds")
_DRAW = (
    "deck", "blitz", "may_discard_pickup", "knock_first_round", "knock_min", "blitz_after_knock",
    "stock_exhausted",
)
_LIVES = (
    "knocker_penalty", "knocker_ties", "knocker_must_win", "losers", "lose_below", "lives",
    "free_ride",
)
_CAUGHT = ("knocker_caught",)
"""Lives games where a 31 made after the knock may be a blitz (``blitz_after_knock``)."""
_POT = ("ante", "tie", "knocker_must_win")
_WIDOW = ("exchange_max", "widow_discards")
_WIDOW_KNOCK = ("knock_first_round", "knock_min", "on_31", "close_after_exchange")

_IL_31 = Preset(
    id="trentuno-40", name=N_("Il 31"),
    summary=N_("The Italian family game with the 40-card pack: draw and discard toward 31 in "
               "one suit, knock from 26 points, the lowest hand loses a life into the pot; "
               "the deal passes to the right."),
    family=Family.DRAW, settlement=Settlement.LIVES, players=(2, 12), sources=(),
    defaults={"deck": "italian40", "first_dealer": "draw-high", "deal_passes": "right",
              "knock_min": 26, "blitz_after_knock": True, "knocker_penalty": 1,
              "knocker_ties": "shared", "free_ride": False, "lives_to_pot": True,
              "stock_exhausted": "recycle"},
    settable=_HAND + _ROUND + _DRAW + _LIVES + _CAUGHT + ("lives_to_pot",),
    aliases=("Il 31", "Trentuno italiano", "Trentuno napoletano", "31 italiano",
             "31 con le carte napoletane", "Il Trentuno con le carte napoletane"),
)
"""RULES.md §4.15: "Il 31" as most Italians play it [peer: toysblog.it "Come si gioca a 31",
lettera43.it "Come si gioca a 31" (2018), unadonna.it "Gioco 31, regole e come si gioca"].

- 2-12 players (toysblog: 4 to 12 with one pack; lettera43: 4 to 6; the engine seats from 2,
  as every draw game, and the pack's 40 cards seat at most 12), `italian40`: the Italian
  40-card pack (coppe, denari, bastoni, spade; asso, 2-7, fante, cavallo, re), or the French
  pack less 8, 9, 10 and the jokers. Ace 11, fante, cavallo and re 10, the others their
  number. Best suit, no trips, tie-break `none`, `blitz: any-31`.
- First dealer: each player cuts, the highest card deals (`draw-high`); the deal then passes
  to the dealer's right, counterclockwise (`deal_passes: right`), while the cards are dealt
  and play goes clockwise, three cards face down to each, one at a time, the dealer included;
  the rest is the stock (tallone), its top card turned up to start the discard pile.
- A turn from the dealer's left: draw from the stock or take the discard pile's top card, then
  discard one; or knock (bussare) instead, which is allowed only with more than 25 points
  (`knock_min: 26`, unadonna). After a knock every other seat has one more turn.
- A 31 is shown at once and every other seat loses a life, in the last turns after a knock
  too (`blitz_after_knock: true`, lettera43: "quando un giocatore fa 31 si interrompe la
  mano"). At the showdown the lowest hand loses a life; seats tied for lowest all lose one,
  the knocker as anyone (`knocker_penalty: 1`, `knocker_ties: shared`).
- Three lives, each lost life a stake paid into the pot (`lives_to_pot`); a seat with none
  left is out (`free_ride: false`); the last seat standing takes the pot.
- [resolved] A stock that runs out is turned over without shuffling (`stock_exhausted:
  recycle`): the pages are silent.
"""

_PRESET_LIST = (
    Preset(
        id="scat", name=N_("Thirty-One (Scat)"),
        summary=N_("Draw and discard toward 31 in one suit; knock to end the round; "
                   "the lowest hand loses a life."),
        family=Family.DRAW, settlement=Settlement.LIVES, players=(2, 9), sources=("003",),
        defaults={},
        settable=_HAND + _ROUND + _DRAW + _LIVES + _CAUGHT,
        aliases=("Thirty-One", "31", "Big Tonka", "Nickel Nock", "Cadillac", "Cad", "Whammy",
                 "Jubel", "Clinker", "Klinker", "Skedaddle", "Snip Snap Snoop", "Schnitzel",
                 "Тридцать один", "Trente et un"),
    ),
    Preset(
        id="blitz", name=N_("Blitz"),
        summary=N_("The handbook's game: a blitz is ace, king and ten of one suit, the stock "
                   "is recycled, and lost lives are chips in a pot for the last seat "
                   "standing."),
        family=Family.DRAW, settlement=Settlement.LIVES, players=(2, 7), sources=("001",),
        defaults={"blitz": "ace-king-ten", "stock_exhausted": "recycle", "knocker_penalty": 1,
                  "knocker_ties": "shared", "first_dealer": "draw-low", "lives_to_pot": True,
                  "honour_tie_break": True},
        settable=_HAND + _ROUND + _DRAW + _LIVES + _CAUGHT + ("lives_to_pot", "honour_tie_break"),
        aliases=("Тридцать одно",),
    ),
    Preset(
        id="cut-throat", name=N_("West Lansing Cut Throat"),
        summary=N_("Scat with no free ride, three of a kind worth 30½, and all trips equal."),
        family=Family.DRAW, settlement=Settlement.LIVES, players=(2, 7), sources=("003",),
        defaults={"free_ride": False, "three_of_a_kind": "30.5", "trips_equal": True},
        settable=_HAND + _ROUND + _DRAW + _LIVES + _CAUGHT,
        aliases=("Cut Throat", "West Lansing Cut Throat"),
    ),
    Preset(
        id="no-elimination", name=N_("Thirty-One without elimination"),
        summary=N_("Everyone is scored every round: high, middle or low, with a bonus or a "
                   "cost for the knocker; the most points win."),
        family=Family.DRAW, settlement=Settlement.POINTS, players=(2, 7), sources=("003",),
        # [003]: the last turns after a knock may still make a blitz, worth 6 (RULES.md §4.4).
        defaults={"first_dealer": "draw-high", "blitz_after_knock": True},
        settable=_HAND + _ROUND + _DRAW + ("target",),
    ),
    Preset(
        id="eenendertigen", name=N_("Eenendertigen"),
        summary=N_("The Dutch game: Scat with the 32-card piquet deck."),
        family=Family.DRAW, settlement=Settlement.LIVES, players=(2, 7), sources=("003",),
        defaults={"deck": "piquet32"},
        settable=_HAND + _ROUND + _DRAW + _LIVES + _CAUGHT,
        aliases=("Dutch", "Dutch Thirty-One"),
    ),
    Preset(
        id="schnautz", name=N_("Schnautz"),
        summary=N_("A widow game with a pot: declare a strong hand at once, or exchange with "
                   "the face-up widow until someone knocks or makes 31."),
        family=Family.WIDOW, settlement=Settlement.POT, players=(3, 15), sources=("000",),
        defaults={"three_of_a_kind": "30.5", "tie_break": "ranks", "first_dealer": "draw-low",
                  "ante": 1, "widow": "face-up", "declarations": True},
        settable=_HAND + _ROUND + _POT + _WIDOW + _WIDOW_KNOCK + ("declarations",),
        aliases=("Schnauz", "Thirty-One (2)", "Тридцать одно (2)"),
    ),
    Preset(
        id="bank", name=N_("Banking"),
        summary=N_("Scat with a pot and a face-down widow to exchange with instead of "
                   "drawing; the best hand takes the pot."),
        family=Family.DRAW, settlement=Settlement.POT, players=(2, 7), sources=("001", "003"),
        defaults={"ante": 1, "widow": "face-down", "blitz_fee": 1, "first_dealer": "draw-low"},
        settable=_HAND + _ROUND + _DRAW + _POT + _WIDOW + ("blitz_fee",),
        aliases=("Banking",),
    ),
    Preset(
        id="trentuno", name=N_("Trentuno"),
        summary=N_("The Italian 32-card game: exchange one to three cards with the face-up "
                   "widow each turn; the jack of clubs is wild for three of a kind."),
        family=Family.WIDOW, settlement=Settlement.POT, players=(3, 9), sources=("002",),
        defaults={"deck": "piquet32", "wild": "jack-of-clubs-trips",
                  "three_of_a_kind": "30-below-suited", "tie_break": "ranks", "ante": 1,
                  "widow": "face-up", "exchange_max": 3, "knock": "take-all",
                  "dealt_31_wins": True, "widow_31_wins": True},
        settable=("three_of_a_kind", "tie_break", "first_dealer", "deal_passes", "max_turns",
                  "rounds", "ante", "tie"),
        aliases=("Il Trentuno", "Trentuno con la vedova"),
    ),
    Preset(
        id="jokers", name=N_("Thirty-One with jokers"),
        summary=N_("Schnautz with two wild jokers, three aces worth 31, any number of cards "
                   "exchanged, and a fee for calling the showdown."),
        family=Family.WIDOW, settlement=Settlement.POT, players=(3, 15), sources=("000",),
        defaults={"deck": "full54", "wild": "jokers", "three_aces": 31, "exchange_max": 3,
                  "tie_break": "suit", "call_fee": 1, "ante": 1, "widow": "face-up",
                  "first_dealer": "draw-low"},
        settable=("deck", "joker_card", "three_aces", "three_aces_fire", "fire", "suit_order",
                  *_ROUND,
                  *_POT, *_WIDOW, *_WIDOW_KNOCK, "call_fee"),
    ),
    Preset(
        id="no-trips", name=N_("Thirty-One without trips"),
        summary=N_("A 32-card game: the dealer may swap for the face-down table cards, then "
                   "everyone exchanges one card at a time; the stakes grow every deal."),
        family=Family.WIDOW, settlement=Settlement.ESCALATING, players=(2, 9),
        sources=("000",),
        defaults={"deck": "piquet32", "widow": "face-down", "first_dealer": "draw-low"},
        settable=("tie_break", "first_dealer", "deal_passes", "max_turns", "table_face_up",
                  "stakes", *_WIDOW_KNOCK),
    ),
    Preset(
        id="switch", name=N_("Switch"),
        summary=N_("The dealer picks one of two hands; turns swap cards or whole hands with "
                   "the table hands, renew a table hand, or knock."),
        family=Family.SWITCH, settlement=Settlement.LIVES, players=(2, 7), sources=("003",),
        defaults={},
        settable=_HAND + _ROUND + ("blitz", "blitz_after_knock") + _LIVES + _CAUGHT,
    ),
    Preset(
        id="stop-the-bus", name=N_("Stop the Bus"),
        summary=N_("Exchange one card or all three with the three face-up table cards; hands "
                   "rank as in brag; knock to stop the bus."),
        family=Family.WIDOW, settlement=Settlement.LIVES, players=(2, 7), sources=("003",),
        defaults={"ranking": "brag", "blitz": "off", "widow": "face-up",
                  "exchange": "one-or-three"},
        settable=_ROUND + _LIVES + ("knock_first_round", "close_after_exchange", "brag_order"),
        aliases=("Stop the Bus",),
    ),
    Preset(
        id="race", name=N_("The race to 31"),
        summary=N_("Two players take turns picking one of 24 face-up cards; who makes exactly "
                   "31 wins, who must pass 31 loses."),
        family=Family.RACE, settlement=Settlement.NONE, players=(2, 2), sources=("000",),
        defaults={"deck": "race24", "values": "race", "blitz": "off",
                  "first_dealer": "draw-low"},
        settable=("first_dealer",),
        aliases=("Race to 31", "Thirty-One (1)", "Тридцать одно (1)"),
    ),
    Preset(
        id="schwimmen", name=N_("Schwimmen"),
        summary=N_("The German and Austrian game for lives: swap one card or all three with "
                   "the face-up table, pass or knock; three aces are Feuer, and a player out "
                   "of lives swims until the next loss."),
        family=Family.WIDOW, settlement=Settlement.LIVES, players=(2, 9), sources=(),
        defaults={"deck": "piquet32", "three_of_a_kind": "30.5", "three_aces": 33,
                  "three_aces_fire": True, "fire": "aces", "tie_break": "trips",
                  "knocker_penalty": 1, "knocker_ties": "shared", "widow": "face-down",
                  "exchange": "one-or-three", "may_pass": True},
        # RULES.md §4.15: count_same_rank, the deck, the spare hand's chooser and the
        # exchange's sizes as the Schwimmen pages and apps play them.
        settable=("deck", "three_of_a_kind", "trips_equal", "count_same_rank", "three_aces",
                  "three_aces_fire", "fire", "tie_break", "suit_order", *_ROUND,
                  "spare_hand_to", "exchange", "exchange_max", "knock_first_round",
                  "knock_min", "on_31", "close_after_exchange", *_LIVES),
        aliases=("Einunddreißig", "Knack", "Hosn obi", "Швиммен", "Тридцать одно по-немецки"),
    ),
    _IL_31,
)

PRESETS: dict[str, Preset] = {preset.id: preset for preset in _PRESET_LIST}
"""The 15 presets by id, in the order of RULES.md §4."""

_PRESET_RULES: dict[str, Rules] = {
    preset.id: Rules(
        variant=preset.id, family=preset.family, settlement=preset.settlement, **preset.defaults
    )
    for preset in _PRESET_LIST
}


def _key(name: str) -> str:
    return re.sub(r"[\W_]+", "", name.casefold())


_BY_NAME: dict[str, Preset] = {}
for _preset in _PRESET_LIST:
    for _name in (_preset.id, _preset.name, *_preset.aliases):
        _BY_NAME.setdefault(_key(_name), _preset)


def find_preset(name: str) -> Preset:
    """The preset with this id or any of its names, spelled in any case.

    >>> find_preset("Schnauz").id, find_preset("stop the bus").id
    ('schnautz', 'stop-the-bus')
    """
    preset = _BY_NAME.get(_key(name)) if isinstance(name, str) else None
    if preset is None:
        raise OptionError(
            "unknown_variant", N_("unknown variant: {variant!r}"), field="variant", variant=name
        )
    return preset


def make_rules(variant: str | Rules = "scat", options: Mapping[str, Any] | None = None) -> Rules:
    """Build the rules of ``variant`` with ``options`` overriding its defaults.

    Unknown variants or options, options the preset does not use, values of the wrong type or
    out of range, and combinations that cannot apply raise :class:`OptionError`.

    >>> make_rules("scat", {"wild": "jokers"})
    Traceback (most recent call last):
    ...
    thirtyone.errors.OptionError: wild jokers need a deck with jokers (full54 or short36)
    """
    if options is not None and not isinstance(options, Mapping):
        raise OptionError(
            "bad_options", N_("options must be an object of option names and values"),
            field="options",
        )
    if isinstance(variant, Rules):
        if not options:
            return variant
        options = {**variant.overrides(), **options}
        variant = variant.variant
    if not options:
        return find_preset(variant).rules
    preset = find_preset(variant)
    changes: dict[str, Any] = {}
    for name, value in options.items():
        spec = OPTIONS.get(name) if isinstance(name, str) else None
        if spec is None:
            raise OptionError(
                "unknown_option", N_("unknown option: {option!r}"),
                field=f"options.{name}", option=name,
            )
        if name not in preset.settable:
            raise OptionError(
                "option_not_applicable", N_("option {option!r} does not apply to {variant!r}"),
                field=f"options.{name}", option=name, variant=preset.id,
            )
        changes[name] = spec.check(value)
    if "fire" in changes or "three_aces_fire" in changes:
        _spell_fire(changes)
    rules = dataclasses.replace(preset.rules, **changes)
    check_combination(rules)
    return rules


def _fire_of(three_aces_fire: bool) -> Fire:
    return "aces" if three_aces_fire else "off"


def _spell_fire(changes: dict[str, Any]) -> None:
    """``three_aces_fire`` is ``fire``'s other spelling (RULES.md §4.15): true is ``aces`` or
    ``any-trips``, false is ``off``. Either one given sets the other; both given must agree."""
    fire, aces = changes.get("fire"), changes.get("three_aces_fire")
    if fire is None:
        changes["fire"] = _fire_of(bool(aces))
    elif aces is None:
        changes["three_aces_fire"] = fire != "off"
    elif aces != (fire != "off"):
        raise _conflict(
            "fire", N_("fire {value} and three_aces_fire {other} say different things"),
            value=fire, other=str(aces).lower(),
        )


_EARLIER_DEFAULTS: dict[str, dict[str, Any]] = {
    "no-elimination": {"blitz_after_knock": False},
    "schwimmen": {"tie_break": "none"},
}
"""The defaults a preset had before they changed (CHANGELOG.md, *Changed*), by preset id."""


def _earlier_defaults(rules: Rules) -> dict[str, Any]:
    """What a stored rule set of this preset meant by an option it does not name, where that
    differs from today's default: the preset's earlier defaults, and ``knocker_ties``, which
    before ``shared`` existed followed ``knocker_penalty`` (1 was "no knocker rule")."""
    earlier = dict(_EARLIER_DEFAULTS.get(rules.variant, {}))
    if "knocker_ties" in rules.preset.settable:
        earlier["knocker_ties"] = "shared" if rules.knocker_penalty == 1 else "penalty"
    return earlier


def read_rules(data: Mapping[str, Any]) -> Rules:
    """The rules of a stored state's ``rules`` (:meth:`Rules.to_dict`), written by this
    version or an earlier one: an option it does not name keeps the meaning it had when the
    state was saved (:func:`_earlier_defaults`), whatever the preset's default is now, so a
    state keeps the rules it was dealt with.

    >>> read_rules({"variant": "scat", "options": {"knocker_penalty": 1}}).knocker_ties
    'shared'
    >>> make_rules("scat", {"knocker_penalty": 1}).knocker_ties
    'penalty'
    >>> read_rules({"variant": "schwimmen", "options": {}}).tie_break
    'none'
    """
    options = data.get("options") or {}
    variant: Any = data.get("variant")  # checked by make_rules
    rules = make_rules(variant, options or None)
    earlier = {
        name: value for name, value in _earlier_defaults(rules).items()
        if name not in options and getattr(rules, name) != value
    }
    if earlier:
        rules = dataclasses.replace(rules, **earlier)
        check_combination(rules)
    return rules


def _conflict(option: str, message: str, **params: Any) -> OptionError:
    return OptionError(
        "option_conflict", message, field=f"options.{option}", option=option, **params
    )


def check_combination(rules: Rules) -> None:
    """Refuse option values that cannot go together (see :func:`make_rules`): the first
    conflict found, read in this order."""
    _check_cards(rules)
    _check_turns(rules)
    _check_scores(rules)
    _check_family(rules)


def _check_cards(rules: Rules) -> None:
    """The deck, its wild cards and the hands they make (trips, Feuer)."""
    deck = DECKS[rules.deck]
    if rules.wild == "jokers" and rules.deck not in ("full54", "short36"):
        raise _conflict("wild", N_("wild jokers need a deck with jokers (full54 or short36)"))
    if rules.deck == "full54" and rules.wild != "jokers":
        raise _conflict("deck", N_("the jokers of the full54 deck must be wild (wild: jokers)"))
    if rules.wild == "jokers" and rules.deck == "short36" and (
        parse_card(rules.joker_card) not in deck
    ):
        raise _conflict(
            "joker_card", N_("the wild card {card} is not in the deck {deck}"),
            card=rules.joker_card, deck=rules.deck,
        )
    if rules.wild == "jack-of-clubs-trips" and rules.three_of_a_kind == "off":
        raise _conflict(
            "wild", N_("the jack of clubs can only be wild for three of a kind, which is off")
        )
    if rules.trips_equal and rules.three_of_a_kind == "off":
        raise _conflict(
            "trips_equal", N_("trips cannot tie each other when three of a kind is off")
        )
    if rules.fire == "aces" and rules.three_aces is None:
        raise _conflict(
            "three_aces_fire", N_("three aces can be Feuer only when they score (three_aces)")
        )
    if rules.fire == "any-trips" and rules.three_of_a_kind == "off" and not (
            rules.count_same_rank):
        raise _conflict(
            "fire", N_("any three of a kind can be Feuer only when three of a kind counts "
                       "(three_of_a_kind or count_same_rank)"),
        )


def _check_turns(rules: Rules) -> None:
    """The knock, the exchange and what a knock lets the others show."""
    if rules.knocker_caught and not rules.blitz_after_knock:
        raise _conflict(
            "knocker_caught",
            N_("a knocker can be caught by a 31 made after the knock only when it is a blitz "
               "(blitz_after_knock)"),
        )
    if rules.knock_min is not None and rules.close_after_exchange:
        raise _conflict(
            "knock_min", N_("a knock with a minimum cannot also close an exchange "
                            "(close_after_exchange)"),
        )
    if rules.exchange == "one-or-three" and rules.exchange_max != 1:
        raise _conflict(
            "exchange_max", N_("exchange_max applies with exchange: up-to-max, not with "
                               "one-or-three"),
        )
    if rules.blitz_after_knock and rules.blitz == "off" and rules.fire == "off":
        raise _conflict(
            "blitz_after_knock", N_("there is no blitz to show after a knock: blitz is off")
        )
    if rules.honour_tie_break and rules.knocker_ties == "safe":
        raise _conflict(
            "knocker_ties",
            N_("the honour tie-break already decides a tie with the knocker by the cards' "
               "ranks"),
        )


def _check_scores(rules: Rules) -> None:
    """How a hand scores at the showdown."""
    if rules.count_same_rank and rules.three_of_a_kind != "off":
        raise _conflict(
            "count_same_rank",
            N_("cards of one rank cannot add up while three of a kind scores {value}: set "
               "three_of_a_kind to off"),
            value=rules.three_of_a_kind,
        )
    if rules.lose_below is not None and rules.ranking == "brag":
        raise _conflict(
            "lose_below", N_("hands ranked as in brag have no points to fall below")
        )
    if rules.ranking == "brag" and (rules.blitz != "off" or rules.wild != "none"):
        raise _conflict("ranking", N_("the brag ranking has no blitz and no wild cards"))


def _check_family(rules: Rules) -> None:
    """What only one family or settlement has."""
    if (rules.deck == "race24") != (rules.family is Family.RACE):
        raise _conflict("deck", N_("the race24 deck is only for the race to 31"))
    if rules.stakes == "betting" and rules.settlement is Settlement.ESCALATING:
        raise OptionError(
            "not_implemented", N_("option {option!r} value {value!r} is not implemented yet"),
            field="options.stakes", option="stakes", value="betting",
        )
