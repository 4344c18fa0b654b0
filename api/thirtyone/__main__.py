"""The ``thirtyone`` command: the engine in a terminal, and the API's server.

With the engine alone: ``thirtyone score AS KS 10S`` says what a hand is worth, ``thirtyone
compare "AS KS QS" "7H 7D 7C"`` ranks hands, ``thirtyone solve 5H`` solves the race to 31,
and ``thirtyone play scat --players 3 --bots greedy`` plays a match against bots, in the
sentences the API says (``--lang ru``, ``it``, ``en``). ``thirtyone options schwimmen`` lists
the options a preset's table may change, and ``-o name=value`` (again for each option) sets
them for ``score``, ``compare`` and ``play``: ``thirtyone play scat -o lose_below=21``.
``thirtyone verify RECORD.json`` replays a match record (``GET /v1/tables/{table}/record``)
with the engine and checks its seed and every result; ``thirtyone replay RECORD.json`` shows
it move by move.

With the server extra (``pip install '.[server]'`` in a clone): ``thirtyone serve`` runs
gunicorn with the API on http://127.0.0.1:8000 and, when the rules site is built
(``build/site``, or ``--site``), the site at ``/``; ``thirtyone openapi`` writes
``openapi.yaml`` as ``flask openapi write --format yaml`` does; ``thirtyone archive migrate``
brings the archive of finished matches (``THIRTYONE_ARCHIVE``) to the current schema.
"""

from __future__ import annotations

import argparse
import gettext
import importlib.util
import json
import os
import secrets
import shlex
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import thirtyone
from thirtyone import record, terminal, words
from thirtyone.bots import BOTS
from thirtyone.errors import N_, ThirtyOneError
from thirtyone.game import view
from thirtyone.hands import compare_hands, score_hand
from thirtyone.race import solve
from thirtyone.review import mistake_text, review
from thirtyone.rules import find_preset

SERVER_MODULES = ("flask", "flask_smorest", "flask_babel", "gunicorn", "yaml")
"""What ``serve`` and ``openapi`` import, all from the server extra."""

def _serve(args: argparse.Namespace) -> None:
    from gunicorn.app.base import BaseApplication

    from thirtyone.web import create_app, serving

    if not os.environ.get("THIRTYONE_SECRET_KEY"):
        # Set before the workers fork, so that they all seal with the same secret.
        os.environ["THIRTYONE_SECRET_KEY"] = secrets.token_urlsafe(32)
        print("THIRTYONE_SECRET_KEY is not set: using a random secret; games will not "
              "survive a restart.", file=sys.stderr)
    # Tables outlive a restart and are shared by the workers unless another store is named.
    os.environ.setdefault("THIRTYONE_STORE", serving.DEFAULT_STORE)
    site = args.site or (Path("build/site") if Path("build/site/index.html").is_file() else None)
    if site is not None:
        os.environ["THIRTYONE_SITE_DIR"] = str(Path(site).resolve())

    class Server(BaseApplication):
        def load_config(self) -> None:
            self.cfg.set("bind", f"{args.host}:{args.port}")
            self.cfg.set("workers", args.workers)
            for name, value in serving.SETTINGS.items():
                self.cfg.set(name, value)
            if args.threads > 1:
                self.cfg.set("worker_class", "thirtyone.web.serving.ThreadWorker")
            self.cfg.set("threads", args.threads)
            self.cfg.set("accesslog", "-" if args.access_log else None)

        def load(self) -> Any:
            return create_app()

    print(f"Serving the API on http://{args.host}:{args.port}/docs"
          + (f" and the rules site from {site}" if site else ""), file=sys.stderr)
    Server().run()


def _archive(args: argparse.Namespace) -> None:
    from thirtyone.web import serving
    from thirtyone.web.archive import ArchiveUnavailable, default_url, migrations, open_archive

    url = args.url or os.environ.get("THIRTYONE_ARCHIVE") or default_url(
        os.environ.get("THIRTYONE_STORE") or serving.DEFAULT_STORE)[0]
    archive = open_archive(url)
    try:
        if args.action == "migrate":
            applied = archive.migrate()
            print(f"applied migrations {applied}" if applied else "nothing to migrate",
                  file=sys.stderr)
        print(f"schema version {archive.schema_version()} of {len(migrations())}")
    except ArchiveUnavailable as error:
        sys.exit(f"thirtyone archive: the archive did not answer: {error}")
    finally:
        archive.close()


def _openapi(args: argparse.Namespace) -> None:
    import yaml

    from thirtyone.web import create_app

    app = create_app({"THIRTYONE_SECRET_KEY": "only the contract is read"})
    with app.app_context():
        spec = app.extensions["thirtyone.api"].spec.to_dict()
    with open(args.output, "w", encoding="utf-8") as file:
        yaml.dump(spec, file)


def _language() -> str:
    """The terminal's language when we speak it (``LANGUAGE``, ``LC_ALL``, ``LANG``), else
    English."""
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        code = os.environ.get(name, "")[:2].lower()
        if code in words.LANGUAGES:
            return code
    return words.LANGUAGES[0]


def _catalog(args: argparse.Namespace) -> gettext.NullTranslations:
    return words.load_catalogs()[args.lang]


def _hand(text: str) -> list[str]:
    """A hand typed as one argument: codes separated by spaces or commas."""
    return text.replace(",", " ").split()


def _option(text: str) -> tuple[str, Any]:
    """``name=value`` as typed, the value read by the option's kind
    (:func:`~thirtyone.hands.portable.option_from_text`)."""
    from thirtyone.hands.portable import option_from_text

    name, equals, value = text.partition("=")
    if not equals:
        raise argparse.ArgumentTypeError(f"an option is name=value, not {text!r}")
    return name.strip(), option_from_text(name.strip(), value)


def _typed(value: Any) -> str:
    """An option's value as ``-o`` takes it."""
    if value is None:
        return "none"
    return str(value).lower() if isinstance(value, bool) else str(value)


def _options(args: argparse.Namespace) -> dict[str, Any] | None:
    return dict(args.option) or None


def _list_options(args: argparse.Namespace) -> None:
    """The options a table of the preset may change: default, allowed values, what it does."""
    translations = _catalog(args)
    for spec in find_preset(args.variant).option_specs():
        if spec.choices:
            allowed = " | ".join(map(str, spec.choices))
        elif spec.minimum is not None:
            allowed = f"{spec.minimum}-{spec.maximum}" + (
                " | none" if spec.kind == "int-or-none" else "")
        else:
            allowed = spec.kind
        print(f"{spec.name} = {_typed(spec.default)}  [{allowed}]")
        print(f"    {translations.gettext(spec.description)}")


def _score(args: argparse.Namespace) -> None:
    translations = _catalog(args)
    score = score_hand(args.cards, args.variant, _options(args))
    print(words.describe_score(translations, score))


def _compare(args: argparse.Namespace) -> None:
    translations = _catalog(args)
    ranking = compare_hands([_hand(hand) for hand in args.hands], args.variant, _options(args))
    for place, group in enumerate(ranking.order, start=1):
        for index in group:
            sentence = words.describe_score(translations, ranking.scores[index])
            print(f"{place}. #{index + 1} {' '.join(_hand(args.hands[index]))}: {sentence}")


def _solve(args: argparse.Namespace) -> None:
    translations = _catalog(args)
    solution = solve(args.taken)
    if solution.wins:
        cards = ", ".join(words.card_name(translations, card) for card in solution.winning_cards)
        print(words.format_message(translations, N_(
            "At {total}, the player to move wins with perfect play by taking: {cards}."),
            {"total": solution.total, "cards": cards}))
    else:
        print(words.format_message(translations, N_(
            "At {total}, the player to move loses against perfect play."),
            {"total": solution.total}))


def _review(args: argparse.Namespace) -> None:
    """Review a match record: each player's accuracy and the biggest mistakes, in words."""
    translations = _catalog(args)
    record = json.loads(Path(args.record).read_text(encoding="utf-8"))
    done = review(record)
    for player in done.players:
        print(translations.ngettext(
            "Seat {seat}: {accurate} of {decisions} decision as good as the best "
            "({accuracy}%).",
            "Seat {seat}: {accurate} of {decisions} decisions as good as the best "
            "({accuracy}%).", player.decisions).format(
            seat=player.seat, decisions=player.decisions,
            accurate=round(player.accuracy * player.decisions),
            accuracy=round(100 * player.accuracy)))
    for decision in done.mistakes:
        print(mistake_text(translations, decision, done.measure))


def _play(args: argparse.Namespace) -> None:
    """A match in the terminal: you hold seat 0, bots the others (:mod:`thirtyone.terminal`)."""
    terminal.play(_catalog(args), args.variant, args.players, bots=args.bots, seed=args.seed,
                  options=_options(args), colour=False if args.no_colour else None)


def _verify(args: argparse.Namespace) -> None:
    translations = _catalog(args)
    for check in record.verify(record.load(args.record)):
        print("OK  " + words.format_message(translations, check.message, check.params))
    print(words.format_message(translations, N_("The record is verified.")))


def _replay(args: argparse.Namespace) -> None:
    """Every move of a record with what it caused; with ``--step``, one at a time (Enter)."""
    translations = _catalog(args)
    match = record.load(args.record)
    names = [seat["name"] or f"#{seat['seat']}" for seat in match["seats"]]
    before = None
    for step in record.replay(match):
        seen, before = (None if before is None else view(before, step.move.get("seat"))), step.state
        if step.index < 0:
            for seat, hand in enumerate(step.state.hands):
                if not hand:
                    continue  # the race to 31 deals no hands
                cards = ", ".join(words.card_name(translations, card) for card in hand)
                print(f"{names[seat]}: {cards}")
            continue
        mover = step.move.get("seat")
        who = names[mover] if isinstance(mover, int) and 0 <= mover < len(names) else "*"
        assert seen is not None  # the deal came first
        print(f"{step.index + 1}. {who}: {words.describe_move(translations, step.move, seen)}")
        for event in step.events:
            print("    " + words.event_message(translations, event))
        if args.step and input().strip().lower() == "q":
            return


def _tables_export(args: argparse.Namespace) -> None:
    """Write a variant's portable hand table (:mod:`thirtyone.hands.portable`)."""
    from thirtyone.hands import portable

    data = portable.export(args.variant, _options(args), args.format)
    if args.output == "-":
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
    else:
        Path(args.output).write_bytes(data)
        print(f"{args.output}: {len(data)} bytes", file=sys.stderr)


def _tables_vectors(args: argparse.Namespace) -> None:
    """The table of every rule set of the hand vectors, and ``index.json`` naming them."""
    from thirtyone import conformance
    from thirtyone.hands import portable

    folder = Path(args.folder)
    folder.mkdir(parents=True, exist_ok=True)
    index = []
    for number, (variant, options) in enumerate(conformance.HAND_CASES):
        name = f"{number:02d}-{variant}.bin"
        (folder / name).write_bytes(portable.export(variant, options))
        index.append({"variant": variant, "options": options, "file": name})
    (folder / "index.json").write_text(json.dumps(index, indent=1) + "\n", encoding="utf-8")
    print(f"{folder}: {len(index)} tables", file=sys.stderr)


def _conformance(args: argparse.Namespace) -> None:
    """Write the conformance vectors, or check an implementation (or this engine) with them."""
    from thirtyone import conformance

    if args.write:
        for path in conformance.write(args.dir):
            print(path)
        return
    if args.command_line:
        ask, stop = conformance.over_pipes(shlex.split(args.command_line))
    else:
        ask, stop = conformance.engine_answer, lambda: None
    try:
        report = conformance.check(args.dir, ask, games=not args.hands_only)
    finally:
        stop()
    print("\n".join(report.lines(args.show)))
    if not report.ok:
        sys.exit(1)


def _with_server(run: Callable[[argparse.Namespace], None]) -> Callable[[argparse.Namespace], None]:
    """``run``, or how to install what it needs when the server extra is missing."""

    def checked(args: argparse.Namespace) -> None:
        missing = [name for name in SERVER_MODULES if importlib.util.find_spec(name) is None]
        if missing:
            sys.exit(f"thirtyone {args.command} needs the server extra ({', '.join(missing)} "
                     "missing): pip install '.[server]' in a clone of thirtyone, or "
                     "pip install 'thirtyone-VERSION-py3-none-any.whl[server]'")
        run(args)

    return checked


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="thirtyone", description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--version", action="version", version=f"thirtyone {thirtyone.__version__}")
    commands = parser.add_subparsers(dest="command", required=True)
    language = argparse.ArgumentParser(add_help=False)
    language.add_argument("--lang", choices=words.LANGUAGES, default=_language(),
                          help="the language of the sentences (default: the terminal's)")
    variant = argparse.ArgumentParser(add_help=False)
    variant.add_argument("--variant", default="scat", help="a variant id or name (default: scat)")
    options = argparse.ArgumentParser(add_help=False)
    options.add_argument("-o", "--option", type=_option, action="append", default=[],
                         metavar="NAME=VALUE",
                         help="set a rules option (thirtyone options VARIANT lists them)")
    variant = argparse.ArgumentParser(add_help=False, parents=[variant, options])

    listed = commands.add_parser("options", parents=[language],
                                 help="list the options a variant's table may change")
    listed.add_argument("variant", help="a variant id or name: scat, blitz, schwimmen, ...")
    listed.set_defaults(run=_list_options)
    score = commands.add_parser("score", parents=[language, variant], help="score a hand")
    score.add_argument("cards", nargs=3, metavar="CARD", help="three card codes: AS KS 10S")
    score.set_defaults(run=_score)
    compare = commands.add_parser("compare", parents=[language, variant],
                                  help="rank hands, best first")
    compare.add_argument("hands", nargs="+", metavar="HAND", help='a hand: "AS KS QS"')
    compare.set_defaults(run=_compare)
    race = commands.add_parser("solve", parents=[language],
                               help="solve the race to 31 from the cards taken so far")
    race.add_argument("taken", nargs="*", metavar="CARD", help="the cards taken, any order")
    race.set_defaults(run=_solve)
    checked = commands.add_parser("review", parents=[language],
                                  help="review a match record: accuracy and biggest mistakes")
    checked.add_argument("record", metavar="RECORD.json",
                         help="variant, players, seed, dealer, options and the moves played")
    checked.set_defaults(run=_review)
    play = commands.add_parser("play", parents=[language, options],
                               help="play a match against bots; you hold seat 0")
    play.add_argument("variant", help="a variant id or name: scat, blitz, schnautz, ...")
    play.add_argument("--players", type=int, default=3)
    play.add_argument("--bots", choices=sorted(BOTS), default="greedy")
    play.add_argument("--seed", default=None, help="the same seed deals the same match")
    play.add_argument("--no-colour", "--no-color", action="store_true",
                      help="plain text even in a terminal (so does NO_COLOR)")
    play.set_defaults(run=_play)
    verify = commands.add_parser("verify", parents=[language],
                                 help="check a match record by replaying it with the engine")
    verify.add_argument("record", metavar="RECORD.json")
    verify.set_defaults(run=_verify)
    replay = commands.add_parser("replay", parents=[language],
                                 help="show a match record move by move")
    replay.add_argument("record", metavar="RECORD.json")
    replay.add_argument("--step", action="store_true",
                        help="wait for Enter after each move (q and Enter stop)")
    replay.set_defaults(run=_replay)
    serve = commands.add_parser("serve", help="run the API (and the rules site) with gunicorn")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--workers", type=int, default=2)
    serve.add_argument("--threads", type=int, default=1,
                       help="threads per worker (more than one: the gthread worker)")
    serve.add_argument("--site", type=Path, default=None,
                       help="the built rules site to serve at / (default: build/site)")
    serve.add_argument("--access-log", action="store_true", help="log every request")
    serve.set_defaults(run=_with_server(_serve))
    archived = commands.add_parser(
        "archive", help="the archive of finished matches: its schema's version, or migrate it")
    archived.add_argument("action", choices=["migrate", "status"])
    archived.add_argument("--url", default=None,
                          help="the archive (default: THIRTYONE_ARCHIVE, else the SQLite "
                          "file beside the table store)")
    archived.set_defaults(run=_with_server(_archive))
    openapi = commands.add_parser("openapi", help="write the OpenAPI document as YAML")
    openapi.add_argument("output", nargs="?", default="openapi.yaml")
    openapi.set_defaults(run=_with_server(_openapi))
    tables = commands.add_parser("tables", help="portable hand tables for other languages")
    table_commands = tables.add_subparsers(dest="action", required=True)
    export = table_commands.add_parser(
        "export", parents=[options],
        help="write every three-card hand's value and rank (binary, or --format json)")
    export.add_argument("variant", help="a variant id or name: scat, schnautz, ...")
    export.add_argument("--format", choices=("binary", "json"), default="binary")
    export.add_argument("--output", default="-", help="a file (default: standard output)")
    export.set_defaults(run=_tables_export)
    every = table_commands.add_parser(
        "vectors", help="write the table of every rule set of the conformance hand vectors")
    every.add_argument("folder", help="where to write them (and index.json)")
    every.set_defaults(run=_tables_vectors)
    vectors = commands.add_parser(
        "conformance", help="check an implementation against the conformance vectors")
    vectors.add_argument("--dir", type=Path, default=Path("conformance"),
                         help="the vectors' folder (default: ./conformance)")
    vectors.add_argument("--command", dest="command_line", metavar="COMMAND",
                         help="the implementation: reads JSON lines, answers JSON lines "
                              "(default: this engine)")
    vectors.add_argument("--hands-only", action="store_true", help="skip the games")
    vectors.add_argument("--show", type=int, default=10, help="failures to print")
    vectors.add_argument("--write", action="store_true",
                         help="write the vectors from this engine instead")
    vectors.set_defaults(run=_conformance)
    args = parser.parse_args(argv)
    try:
        args.run(args)
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader went away (``thirtyone ... | head``): stop quietly, and keep Python from
        # complaining again when it flushes stdout on exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)
    except ThirtyOneError as error:
        sys.exit(f"thirtyone {args.command}: "
                 + words.format_message(_catalog(args), error.message, error.params))


if __name__ == "__main__":
    main()
