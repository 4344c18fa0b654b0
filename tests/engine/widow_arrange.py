"""Hand-built positions for the scripted widow-family tests: a new game with the cards put
where a test wants them, read back through ``GameState.from_dict`` (so every position is one
the state checks accept)."""

from thirtyone.game import GameState, apply_move, new_game


def arrange(variant, players, hands, table, *, options=None, dealer=0, **fields):
    """A game of ``variant`` dealt by ``dealer`` with ``hands`` (one string of codes per seat)
    and ``table`` (a string of codes); the other cards make up the stock in deck order.
    ``fields`` override other state fields (``phase``, ``turn``, ``round``, ...)."""
    state = new_game(variant, players, seed="arranged", options=options, dealer=dealer)
    data = state.to_dict()
    data["hands"] = [hand.split() for hand in hands]
    data["table"] = table.split()
    data["table_face_up"] = fields.pop("table_face_up", data["table_face_up"])
    used = {code for hand in data["hands"] for code in hand} | set(data["table"])
    data["stock"] = [card.code for card in state.rules.deck_cards if card.code not in used]
    data["discard"] = []
    if data["stock"] and fields.pop("discard", False):
        data["discard"] = [data["stock"].pop()]
    data["history"] = []
    data.update(fields)
    return GameState.from_dict(data)


def play(state, *moves):
    """Apply ``moves`` in turn; the last state and every event."""
    events = []
    for move in moves:
        state, happened = apply_move(state, move)
        events += happened
    return state, events


def types(events):
    return [event["type"] for event in events]
