"""What each event says, in English, for the web layer to translate.

:func:`~thirtyone.game.apply_move` returns events as dicts with a ``type`` and parameters;
``EVENT_MESSAGES[event["type"]].format(**event)`` is the English sentence. Card parameters are
card codes; a seat is its number. Events only carry public information.

>>> EVENT_MESSAGES["knocked"].format(type="knocked", seat=2)
'Seat 2 knocked.'
"""

from __future__ import annotations

from thirtyone.errors import N_

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
    "fire": N_("Seat {seat} has three aces: Feuer!"),
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
