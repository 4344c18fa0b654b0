"""The browser client at ``/play``: a page of plain ES modules over the hosted tables API.

The page is static apart from its data: the HTML shell carries, as a JSON data block, the
interface texts, card names and hand categories in the request's language (the same catalogs
as the API), so the scripts never hold a user-facing string of their own. Card faces come from
``/play/cards/<code>.svg``, drawn by :func:`thirtyone.faces.card_svg` with the language's rank
letters. Everything the page shows of a game, every move it offers, and the hint a seat asks for
(its own advice, ``/v1/tables/<table>/advice``) come from the API; the computer players' levels
the lobby offers are the engine's (:data:`thirtyone.bots.BOTS`).

The page obeys the strict policy the security layer sends with ``/play`` (``script-src 'self';
style-src 'self'``): no inline script or style, no event handler attributes, no ``style``
attribute (the data block is JSON, which a browser never runs).

>>> from thirtyone.web import create_app
>>> client = create_app({"TESTING": True, "THIRTYONE_SECRET_KEY": "doc"}).test_client()
>>> page = client.get("/play?lang=ru")
>>> page.status_code, page.headers["Content-Language"], '<html lang="ru"' in page.text
(200, 'ru', True)
>>> face = client.get("/play/cards/AS.svg?lang=ru")
>>> face.mimetype, ">Т</text>" in face.text, "туз пик" in face.text
('image/svg+xml', True, True)
"""

from __future__ import annotations

from typing import Any

from babel import Locale
from flask import Blueprint, Response, render_template, request
from flask_babel import get_locale
from werkzeug.exceptions import NotFound

from thirtyone import words
from thirtyone.bots import BOTS
from thirtyone.cards import ALL_CARDS, DECKS
from thirtyone.errors import N_, NP_, CardError
from thirtyone.events import EVENT_MESSAGES, EVENT_PLURALS
from thirtyone.faces import ITALIAN_RANK_LETTERS, card_svg
from thirtyone.hands import CATEGORY_NAMES
from thirtyone.record import SEED_LABEL
from thirtyone.web.i18n import card_name, catalog, gettext, ngettext, pgettext
from thirtyone.web.tables.notices import MESSAGES as TABLE_MESSAGES
from thirtyone.words import LANGUAGES

blp = Blueprint(
    "play", __name__, url_prefix="/play",
    static_folder="play", static_url_path="/static", template_folder="templates",
)

BACK = "back"
"""The card file name of a face-down card: ``/play/cards/back.svg``."""

# The interface's texts, by the key the scripts use. Placeholders in braces are filled by the
# page (``{seat}``, ``{card}``...). A count after a label ("Stock: 12") needs no plural form;
# a counted noun ("2 lives") is in PLURALS.
TEXTS: dict[str, str] = {
    "title": N_("Play Thirty-One"),
    "heading": N_("Thirty-One"),
    "language": N_("Language"),
    "loading": N_("Loading…"),
    "noscript": N_("The cards are dealt by JavaScript: please turn it on for this page."),
    # The lobby.
    "new_table": N_("Start a table"),
    "variant": N_("Game"),
    "players": N_("Players"),
    "seats": N_("Who plays each seat"),
    "seat_you": N_("You"),
    "seat_bot": N_("Computer"),
    # The computer players' names, one for each seat in turn (a list, by commas).
    "bot_names": N_("Ada, Ben, Cleo, Dan, Eva, Finn, Gia, Hugo, Iris, Jon, Kai, Lena, Max, Nora, "
                    "Otto"),
    "seat_friend": N_("A friend (by invitation)"),
    "options": N_("Options"),
    "start": N_("Start"),
    "starting": N_("Dealing…"),
    "level": N_("Computer players' level"),
    # The table.
    "seat": N_("Seat {seat}"),
    "bot": N_("computer"),
    "dealer": N_("dealer"),
    "knocker": N_("knocked"),
    "free_ride": N_("free ride"),
    "eliminated": N_("out of the match"),
    "lives": N_("Lives"),
    "chips": N_("Chips"),
    "points": N_("Points"),
    "pot": N_("Pot"),
    "stock": N_("Stock"),
    "discard_pile": N_("Discard pile"),
    "empty": N_("empty"),
    "widow": N_("Widow"),
    "table_cards": N_("Table"),
    "table_hand": N_("Table hand {hand}"),
    "layout": N_("Cards to take"),
    "taken": N_("Cards taken"),
    "total": N_("Total"),
    "your_hand": N_("Your hand"),
    # The hand's value as the page scores it from the table's hand table: points, category.
    "hand_value": N_("value: {points} ({category})"),
    "hand_n": N_("Hand {hand}"),
    "hidden_card": N_("face-down card"),
    "game_round": N_("{variant}, round {round}"),
    "your_turn": N_("Your turn."),
    "to_move": N_("{name} is to move."),
    "between_rounds": N_("Round {round} is over."),
    "match_over": N_("The match is over."),
    "winner": N_("Winner: {name}."),
    "winners": N_("Winners: {names}."),
    "you_won": N_("You won!"),
    # What this seat may do now, in words (joined by the language's own "or").
    "ways_draw_stock": N_("draw from the stock"),
    "ways_draw_discard": N_("take the top card of the discard pile"),
    "ways_discard": N_("discard a card"),
    "ways_knock": N_("knock"),
    "ways_stand": N_("keep your cards as they are"),
    "ways_next_round": N_("deal the next round"),
    "ways_take": N_("take a card from the layout"),
    "ways_exchange": N_("exchange cards with the table"),
    "ways_declare": N_("declare your hand"),
    "ways_pass": N_("pass"),
    "ways_join": N_("join the deal"),
    "ways_reveal": N_("turn the table cards face up"),
    "ways_keep": N_("keep one of your two hands"),
    "ways_swap_hand": N_("swap your hand for a table hand"),
    "ways_renew": N_("renew a table hand"),
    "your_moves": N_("You may {moves}."),
    "how_to_play": N_("How to play"),
    "winners_you": N_("Winners: you and {names}."),
    "choose_exchange": N_("To exchange, choose cards from your hand and as many from the table."),
    "clear": N_("Clear the choice"),
    # Round results.
    "result": N_("Result of round {round}"),
    "reason_showdown": N_("Showdown: the hands are shown."),
    "reason_blitz": N_("A blitz ends the round at once."),
    "reason_void": N_("The stock ran out: nobody loses this round."),
    "reason_widow_31": N_("The widow is a 31."),
    "reason_declared": N_("A declared hand wins the deal."),
    "reason_thirty_one": N_("31!"),
    "reason_dealt_31": N_("A 31 was dealt."),
    "reason_stuck": N_("A seat could not take a card without passing 31."),
    "lives_lost": N_("Lives lost"),
    "seed": N_("The deal was fixed before the first move by the seed {seed}."),
    "seed_ok": N_("Its SHA-256 matches the fingerprint published at the start."),
    "seed_bad": N_("Its SHA-256 does NOT match the fingerprint published at the start!"),
    # Invitations and connection.
    "invites": N_("Invite the other players"),
    "waiting_players": N_("Waiting for the invited players: the cards are dealt once every "
                          "seat is taken."),
    "invite_hint": N_("Send each player their own link; it opens this table at their seat."),
    "your_link": N_("Your own link, to come back to this table:"),
    "watch_link": N_("A link to watch this table (it shows no one's cards):"),
    "fingerprint": N_("Fingerprint of the deal, published before the first move (SHA-256 of "
                      "the seed revealed at the end): {sha256}"),
    "copy": N_("Copy"),
    "copied": N_("Copied"),
    "log": N_("What happened"),
    "offline": N_("Connection lost: reconnecting…"),
    "retry_now": N_("Try again now"),
    "unreachable": N_("No answer from the server: check the connection and try again."),
    "server_error": N_("The server answered with an error ({status}); try again in a moment."),
    "gone": N_("This table no longer exists (it expired, or the link is wrong)."),
    "failed": N_("The move was not made: {detail}"),
    "new_game": N_("New game"),
    # The player's settings, kept in the browser.
    "settings": N_("Settings"),
    "bot_speed": N_("Computer players' speed"),
    "speed_slow": N_("Slow"),
    "speed_normal": N_("Normal"),
    "speed_fast": N_("Fast"),
    "sounds": N_("Sounds (your turn, a knock, the end of a round)"),
    "theme": N_("Theme"),
    "theme_system": N_("As the system"),
    "theme_light": N_("Light"),
    "theme_dark": N_("Dark felt"),
    # Hints: the seat's own advice, from the API.
    "hint": N_("Hint"),
    "hint_asking": N_("Thinking…"),
    "hint_best": N_("Hint: {move}"),
    "hint_value": N_("Worth {value} ± {stderr} ({measure}), over {samples} sampled deals."),
    # A spread that rounds to nothing is not written ("± 0" reads as a certainty).
    "hint_value_even": N_("Worth {value} ({measure}), over {samples} sampled deals."),
    "hint_exact": N_("Worth {value} ({measure}), worked out exactly, with no sampling."),
    "hint_failed": N_("No hint: {detail}"),
    # What happened: the log, the moves as they are shown, the rounds and the match.
    "show_log": N_("Show what happened"),
    "last_move": N_("Last move"),
    # A seat's move in words, its player named (the present tense: Russian and Italian need
    # no gender for it).
    "mv_drew_stock": N_("{name} draws from the stock."),
    "mv_drew_discard": N_("{name} takes {card} from the discard pile."),
    "mv_discarded": N_("{name} discards {card}."),
    "mv_exchanged": N_("{name} gives {gave} and takes {took}."),
    "mv_took": N_("{name} takes {card}: {total} in all."),
    "mv_knocked": N_("{name} knocks."),
    "mv_passed": N_("{name} passes."),
    "mv_drew_stock_you": N_("You draw from the stock."),
    "mv_drew_discard_you": N_("You take {card} from the discard pile."),
    "mv_discarded_you": N_("You discard {card}."),
    "mv_exchanged_you": N_("You give {gave} and take {took}."),
    "mv_took_you": N_("You take {card}: {total} in all."),
    "mv_knocked_you": N_("You knock."),
    "mv_passed_you": N_("You pass."),
    "gave": N_("Gave"),
    "took": N_("Took"),
    "history": N_("Rounds so far"),
    "history_round": N_("Round"),
    "history_end": N_("How it ended"),
    "history_shown": N_("Hands shown"),
    "summary": N_("Match summary"),
    "went_out": N_("Out of the match: {seats}."),
    # A table's life: names, the waiting room, the clock, leaving, rematch, the lobby, the record.
    "your_name": N_("Your name"),
    "claim_title": N_("You are invited to take seat {seat} at this table."),
    "claim": N_("Take the seat"),
    "invite_game": N_("{host} invites you to a game of {variant} for {players} players."),
    "invite_game_anonymous": N_("An invitation to a game of {variant} for {players} players."),
    "invite_options": N_("Options chosen:"),
    "yes": N_("yes"),
    "no": N_("no"),
    "online": N_("here"),
    "away": N_("away"),
    "free_seat": N_("free seat"),
    "waiting_room": N_("Waiting for players"),
    "start_now": N_("Start now (the computer plays the free seats)"),
    "clock": N_("{time} left to move"),
    "leave": N_("Leave the match"),
    "leave_confirm": N_("Leave for good: the computer plays your seat"),
    "leave_table": N_("Leave the table"),
    "departed": N_("left: the computer plays"),
    "seat_bot_played": N_("{name} (the computer played the seat)"),
    "your_seat_bot": N_("the computer in your seat"),
    "rematch": N_("Rematch"),
    "rematch_joining": N_("A rematch was opened: taking your seat there…"),
    "public": N_("List the table in the lobby, so anyone may join"),
    "turn_seconds": N_("Seconds per turn (empty: no clock)"),
    "lobby_tables": N_("Tables waiting for players"),
    "lobby_empty": N_("No table is waiting for players now."),
    "join": N_("Join"),
    "watch": N_("Watch"),
    "record_download": N_("Download the match record"),
    "record_check": N_("Check the record here"),
    "record_commitment_ok": N_("The server's seed in the record has the SHA-256 published "
                               "before the first move."),
    "record_commitment_bad": N_("The server's seed in the record does NOT have the SHA-256 "
                                "published before the first move!"),
    "record_deal_ok": N_("The deal's seed is the one derived from the server's seed and the "
                         "players' contributions."),
    "record_deal_bad": N_("The deal's seed is NOT the one derived from the server's seed and the "
                          "players' contributions!"),
    "record_file": N_("Or check a record file"),
    "record_format_bad": N_("This is not a thirtyone match record."),
    "record_table_ok": N_("Its game, seats and names are this table's."),
    "record_table_bad": N_("Its game, seats or names are NOT this table's!"),
    "record_yours_ok": N_("Your own contribution to the deal is in it as you gave it."),
    "record_yours_bad": N_("Your own contribution to the deal is NOT in it as you gave it!"),
    "record_result_ok": N_("Its last round and its winners are the ones this table showed."),
    "record_result_bad": N_("Its last round or its winners are NOT the ones this table showed!"),
    "record_replay": N_("To replay every move with the engine: thirtyone verify RECORD.json"),
}


PLURALS: dict[str, tuple[str, str]] = {
    "lives_n": NP_("{count} life", "{count} lives"),
    "chips_n": NP_("{count} chip", "{count} chips"),
    "points_n": NP_("{count} point", "{count} points"),
    "rounds_n": NP_("{count} round was played.", "{count} rounds were played."),
    "free_n": NP_("{count} free seat", "{count} free seats"),
    "hint_few": NP_("Only {count} deal was sampled: too few to say what the move is worth.",
                    "Only {count} deals were sampled: too few to say what the move is worth."),
}
"""Texts with a count, by the key the scripts use: each language's own plural forms."""


def plural_forms() -> dict[str, dict[str, str]]:
    """Each text of :data:`PLURALS` by CLDR plural category (``one``, ``few``, ``many``,
    ``other``) in the request's language: the page picks one with ``Intl.PluralRules``, the
    browser's own CLDR rules, and the catalog's forms are asked here for a whole number of
    each category (a category only fractions have, like Russian ``other``, falls back in the
    page to ``many``)."""
    rule = Locale.parse(get_locale().language).plural_form
    examples: dict[str, int] = {}
    for number in range(1000):
        examples.setdefault(rule(number), number)
    return {
        key: {category: ngettext(singular, plural, number)
              for category, number in examples.items()}
        for key, (singular, plural) in PLURALS.items()
    }


def event_templates() -> dict[str, Any]:
    """The events' sentences in the request's language, as templates: the page fills them
    itself to count seats from 1, as it does everywhere (the API's messages say the API's
    seat numbers, from 0). ``plurals`` are the counted ones: the counted parameter and a
    template by CLDR plural category (as :func:`plural_forms`)."""
    rule = Locale.parse(get_locale().language).plural_form
    examples: dict[str, int] = {}
    for number in range(1000):
        examples.setdefault(rule(number), number)
    return {
        "messages": {kind: gettext(template)
                     for kind, template in {**EVENT_MESSAGES, **TABLE_MESSAGES}.items()},
        "plurals": {kind: [counted, {category: ngettext(singular, plural, number)
                                     for category, number in examples.items()}]
                    for kind, (counted, (singular, plural)) in EVENT_PLURALS.items()},
        "sources": {source: pgettext("event source", source) for source in ("stock", "discard")},
    }


def texts() -> dict[str, str]:
    """The interface texts in the request's language."""
    return {key: gettext(text) for key, text in TEXTS.items()}


def italian_card_name(code: str) -> str:
    """A card of the Italian pack by its regional name in the request's language."""
    return words.italian_card_name(catalog(), code)


def rank_letters() -> dict[str, str]:
    """The letters printed on the court cards and ace, and the joker's word, in the request's
    language (Russian cards read Т К Д В)."""
    return {
        "A": pgettext("rank letter on a card", "A"),
        "K": pgettext("rank letter on a card", "K"),
        "Q": pgettext("rank letter on a card", "Q"),
        "J": pgettext("rank letter on a card", "J"),
        "X": pgettext("word on a joker card", "JOKER"),
    }


DEFAULT_LEVEL = "greedy"
"""The computer players' level unless the lobby or a start link (``&level=``) chooses another."""

LEVEL_NAMES: dict[str, str] = {
    "random": N_("Beginner (random moves)"),
    "greedy": N_("Casual (best hand now)"),
    "strong": N_("Strong (thinks ahead)"),
}
"""The name of each of the engine's bot levels (:data:`thirtyone.bots.BOTS`) in the lobby."""


def levels() -> dict[str, str]:
    """Every bot level the engine has, in its order, by its name in the request's language."""
    return {level: gettext(LEVEL_NAMES[level]) for level in BOTS}


LANGUAGE_NAMES: dict[str, str] = {"en": "English", "ru": "Русский", "it": "Italiano"}
"""Each language by its own name, as a language switcher shows it."""


@blp.get("")
def page() -> str:
    """The page; the scripts take it from there (lobby, table, invitations)."""
    language = get_locale().language
    data: dict[str, Any] = {
        "language": language,
        "languages": {code: LANGUAGE_NAMES[code] for code in LANGUAGES},
        "texts": texts(),
        "plurals": plural_forms(),
        # The label of the deal's seed derivation, so the page checks a record by the same formula.
        "seed_label": SEED_LABEL,
        # A hand of three of a kind may be worth 30½: every fraction is written the same way.
        "fraction": pgettext("fraction", "{points} points"),
        "cards": {card.code: card_name(card) for card in ALL_CARDS},
        "italian_cards": {card.code: italian_card_name(card.code)
                          for card in DECKS["italian40"]},
        "categories": {key: gettext(name) for key, name in CATEGORY_NAMES.items()},
        "levels": levels(),
        "events": event_templates(),
        # The rules site's first-game walkthrough in the page's language (English at the root).
        "how_to_play": "/first-game/" if language == "en" else f"/{language}/first-game/",
        "default_level": DEFAULT_LEVEL,
    }
    return render_template("play.html", data=data, language=language, title=data["texts"]["title"])


@blp.get("/cards/<name>.svg")
def card(name: str) -> Response:
    """A card's face in the request's language, or the back (``back.svg``)."""
    if name == BACK:
        svg = card_svg(None)
    else:
        try:
            if request.args.get("pack") == "italian":
                svg = card_svg(name, ranks=ITALIAN_RANK_LETTERS, pack="italian",
                               label=italian_card_name(name))
            else:
                svg = card_svg(name, ranks=rank_letters(), label=card_name(name))
        except CardError:
            raise NotFound() from None
    response = Response(svg, mimetype="image/svg+xml")
    response.cache_control.public = True
    response.cache_control.max_age = 86_400
    return response
