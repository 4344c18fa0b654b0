"""A Python client generated from openapi.yaml by openapi-python-client plays through its models.

The client is generated afresh from the committed contract, then plays a whole sealed game and
asks the race solver, against the app (through httpx's WSGI transport), with the generated
models only: every request body is a model, every move sent is one the server listed, and
every answer parses into models that keep no field the contract did not name.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import shutil
import subprocess
import sys
import typing
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx
import pytest

pytestmark = pytest.mark.slow  # generates and installs a client package

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = "thirtyone_client"


@pytest.fixture(scope="module")
def generated(tmp_path_factory) -> ModuleType:
    generator = shutil.which("openapi-python-client", path=str(Path(sys.executable).parent))
    if generator is None:
        pytest.fail("openapi-python-client is missing: it is in the dev extra")
    folder = tmp_path_factory.mktemp("client")
    config = folder / "config.yaml"
    # No post hooks: formatting the generated code is not what is tested, and costs seconds.
    config.write_text("post_hooks: []\n")
    subprocess.run(
        [generator, "generate", "--path", str(ROOT / "openapi.yaml"), "--config", str(config),
         "--meta", "none", "--output-path", str(folder / PACKAGE)],
        check=True, capture_output=True, timeout=120,
    )
    sys.path.insert(0, str(folder))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(folder))
        for name in [name for name in sys.modules if name.split(".")[0] == PACKAGE]:
            del sys.modules[name]


def client_for(generated: ModuleType, app: Any, key: str | None = None) -> Any:
    """A generated client talking to ``app``; with a seat's ``key``, as that seat."""
    headers = {} if key is None else {"Authorization": f"Bearer {key}"}
    if key is None:
        client = generated.Client(base_url="http://testserver", raise_on_unexpected_status=True)
    else:
        client = generated.AuthenticatedClient(base_url="http://testserver", token=key,
                                               raise_on_unexpected_status=True)
    client.set_httpx_client(httpx.Client(base_url="http://testserver", headers=headers,
                                         transport=httpx.WSGITransport(app=app)))
    return client


@pytest.fixture
def api(generated, app) -> Any:
    return client_for(generated, app)


def operations(generated: ModuleType) -> dict[str, ModuleType]:
    api_package = importlib.import_module(f"{PACKAGE}.api")
    found = {}
    for info in pkgutil.walk_packages(api_package.__path__, f"{PACKAGE}.api."):
        module = importlib.import_module(info.name)
        if hasattr(module, "sync"):
            found[info.name.rsplit(".", 1)[1]] = module
    return found


def op(generated: ModuleType, name: str) -> ModuleType:
    return operations(generated)[name]


def untyped(value: Any, where: str = "answer") -> list[str]:
    """Where an answer parsed into something other than the contract's models: a plain dict,
    or a model holding fields the contract does not name."""
    found = []
    if isinstance(value, dict):
        found.append(where)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += untyped(item, f"{where}[{index}]")
    elif hasattr(value, "additional_properties") and hasattr(value, "to_dict"):
        if value.additional_properties and type(value).__name__ not in ("Options", "GameState"):
            found.append(f"{where}: {sorted(value.additional_properties)}")
        for field in type(value).__attrs_attrs__:
            if field.name != "additional_properties":
                found += untyped(getattr(value, field.name), f"{where}.{field.name}")
    return found


def test_every_body_and_answer_is_a_generated_model(generated):
    models = importlib.import_module(f"{PACKAGE}.models")
    found = operations(generated)
    assert {"new_game", "view_game", "validate_move", "play_move", "score_hand",
            "compare_hands", "score_hands", "solve_race", "list_variants", "get_variant",
            "health", "open_table", "get_table", "play_table_move", "poll_table"} <= found.keys()
    for name, module in found.items():
        hints = typing.get_type_hints(module.sync)
        if "body" in hints:
            assert isinstance(hints["body"], type), f"{name}: body {hints['body']}"
            assert hints["body"].__module__.startswith(f"{PACKAGE}.models"), name
        answer = [kind for kind in typing.get_args(hints["return"]) if kind is not type(None)]
        if typing.Any in answer:
            # Only an answer without a body parses to nothing typed: a 204, or a 304 (a cached
            # answer revalidated by its ETag).
            source = inspect.getsource(module)
            assert "status_code == 204" in source or "status_code == 304" in source, name
            answer.remove(typing.Any)
        assert all(getattr(models, kind.__name__, None) is kind for kind in answer), name
    # The parts of a game that were untyped bags: moves, events, the view.
    game = models.MoveResult.__annotations__
    for field in ("legal_moves", "events", "view"):
        assert "Any" not in str(game[field]) and "dict" not in str(game[field]), game[field]


def test_a_sealed_game_played_through_the_generated_models(generated, api):
    models = importlib.import_module(f"{PACKAGE}.models")
    new_game, view_game = op(generated, "new_game"), op(generated, "view_game")
    validate_move, play_move = op(generated, "validate_move"), op(generated, "play_move")
    game = new_game.sync(client=api, body=models.NewGame(
        players=2, variant=models.VariantId.SCAT, seed="generated client", dealer=0,
        options=models.Options.from_dict({"lives": 1}),
    ))
    assert isinstance(game, models.NewGameResult) and not untyped(game)
    token, keys = game.token, game.seat_keys
    events_seen: set[str] = set()
    for _ in range(400):
        if game.is_over:
            break
        # Between rounds nobody is to move and any seat may deal: seat 0 does.
        seat = 0 if game.to_move is None else game.to_move
        mine = view_game.sync(client=api, body=models.GameRequest(
            token=token, seat=seat, seat_key=keys[seat]))
        assert isinstance(mine, models.Game) and not untyped(mine)
        assert all(card is not None for card in mine.view.hands[seat])
        knocks = [move for move in mine.legal_moves if isinstance(move, models.KnockMove)]
        move = knocks[0] if knocks and mine.view.turns > 2 else mine.legal_moves[0]
        request = models.MoveRequest(token=token, seat=seat, seat_key=keys[seat], move=move)
        verdict = validate_move.sync(client=api, body=request)
        assert isinstance(verdict, models.ValidationResult) and verdict.valid
        played = play_move.sync(client=api, body=request, lang="ru")
        assert isinstance(played, models.MoveResult), played
        assert not untyped(played)
        assert all(event.message for event in played.events)
        events_seen |= {type(event).__name__ for event in played.events}
        token, game = played.token, played
    assert game.is_over and game.view.winners
    assert {"DrewEvent", "KnockedEvent", "ShowdownEvent", "RoundOverEvent",
            "MatchWonEvent"} <= events_seen


def test_a_hosted_table_played_through_the_generated_models(generated, app):
    models = importlib.import_module(f"{PACKAGE}.models")
    opened = op(generated, "open_table").sync(client=client_for(generated, app), body=(
        models.NewTable(variant=models.VariantId.SCAT, players=2,
                        bots=models.NewTableBots.from_dict({"1": "greedy"}))))
    assert isinstance(opened, models.NewTableResult) and not untyped(opened)
    key = next(seat.key for seat in opened.seats if seat.bot is None)
    mine = client_for(generated, app, key)
    table, version = opened.table, opened.version
    get_table, play = op(generated, "get_table"), op(generated, "play_table_move")
    poll = op(generated, "poll_table")
    for _ in range(400):
        seen = get_table.sync(table, client=mine)
        assert isinstance(seen, models.Table) and not untyped(seen), seen
        if seen.is_over:
            break
        assert seen.version == version and seen.legal_moves
        knocks = [move for move in seen.legal_moves if isinstance(move, models.KnockMove)]
        move = knocks[0] if knocks and seen.view.turns > 2 else seen.legal_moves[0]
        update = play.sync(table, client=mine, body=models.TableMoveRequest(
            move=move, version=version))
        assert isinstance(update, models.TableUpdate) and not untyped(update), update
        version = update.version
        # The long poll, typed: at once (wait 0) it answers the version just played.
        polled = poll.sync(table, client=mine, after=update.cursor, wait=0)
        assert isinstance(polled, models.TableUpdate) and not untyped(polled), polled
        assert polled.version == version and polled.events == []
    assert seen.is_over and seen.view.seed is not None


def test_the_race_and_the_hands_through_the_generated_models(generated, api):
    models = importlib.import_module(f"{PACKAGE}.models")
    solution = op(generated, "solve_race").sync(
        client=api, body=models.Position(taken=["5H", "5S"]), lang="it")
    assert isinstance(solution, models.Solution) and not untyped(solution)
    assert solution.winning_values == [2] and solution.wins is True
    score = op(generated, "score_hand").sync(
        client=api, body=models.ScoreRequest(hand=["A♠", "ks", "T♠"]))
    assert isinstance(score, models.Score) and score.points == 31
    variants = op(generated, "list_variants").sync(client=api)
    assert isinstance(variants, models.VariantList) and not untyped(variants)


def test_a_table_life_through_the_generated_client(generated, app):
    """Open with an invitation, claim, move, leave, rematch: every answer of a table's life,
    its own events included (seat_claimed, table_started, seat_left, rematch), parses into
    the generated models with no exception and no untyped part."""
    models = importlib.import_module(f"{PACKAGE}.models")
    opened = op(generated, "open_table").sync(client=client_for(generated, app), body=(
        models.NewTable(variant=models.VariantId.SCAT, players=2, name="Ana")))
    assert isinstance(opened, models.NewTableResult) and not untyped(opened)
    keys = {seat.seat: seat.key for seat in opened.seats if seat.key}
    invitation = next(seat.invitation for seat in opened.seats if seat.invitation)
    claimed = op(generated, "claim_seat").sync(
        opened.table, 1, client=client_for(generated, app),
        body=models.ClaimSeat(invitation=invitation, name="Bo"))
    assert isinstance(claimed, models.ClaimedTable) and not untyped(claimed), claimed
    keys[1] = claimed.key
    types = [event.type_ for event in claimed.events]
    assert types[:2] == ["seat_claimed", "table_started"]
    get_table, play = op(generated, "get_table"), op(generated, "play_table_move")
    seen = get_table.sync(opened.table, client=client_for(generated, app, keys[0]))
    if seen.legal_moves:
        update = play.sync(opened.table, client=client_for(generated, app, keys[0]),
                           body=models.TableMoveRequest(move=seen.legal_moves[0],
                                                        version=seen.version))
        assert isinstance(update, models.TableUpdate) and not untyped(update), update
    left = op(generated, "leave_table").sync(opened.table,
                                             client=client_for(generated, app, keys[1]))
    assert isinstance(left, models.TableUpdate) and not untyped(left), left
    assert left.events[0].type_ == "seat_left"
    for _ in range(400):
        seen = get_table.sync(opened.table, client=client_for(generated, app, keys[0]))
        assert isinstance(seen, models.Table) and not untyped(seen), seen
        if seen.is_over:
            break
        if seen.legal_moves:
            knocks = [move for move in seen.legal_moves if isinstance(move, models.KnockMove)]
            play.sync(opened.table, client=client_for(generated, app, keys[0]),
                      body=models.TableMoveRequest(move=(knocks or seen.legal_moves)[0],
                                                   version=seen.version))
    assert seen.is_over
    rematch = op(generated, "rematch").sync(opened.table,
                                            client=client_for(generated, app, keys[0]))
    assert isinstance(rematch, models.ClaimedTable) and not untyped(rematch), rematch
    polled = op(generated, "poll_table").sync(opened.table, client=client_for(generated, app),
                                               after=seen.cursor, wait=0)
    assert isinstance(polled, models.TableUpdate) and not untyped(polled), polled
    assert [event.type_ for event in polled.events] == ["rematch"]
