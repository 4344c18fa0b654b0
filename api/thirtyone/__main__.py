"""The ``thirtyone`` command: serve the API (and the rules site), or write its contract.

``thirtyone serve`` runs gunicorn with the API on http://127.0.0.1:8000 and, when the rules
site is built (``build/site``, or ``--site``), the site at ``/``. ``thirtyone openapi``
writes ``openapi.yaml`` as ``flask openapi write --format yaml`` does.
"""

from __future__ import annotations

import argparse
import os
import secrets
import sys
from pathlib import Path
from typing import Any


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

    class Server(BaseApplication):  # type: ignore[misc]
        def load_config(self) -> None:
            self.cfg.set("bind", f"{args.host}:{args.port}")
            self.cfg.set("workers", args.workers)
            for name, value in serving.SETTINGS.items():
                self.cfg.set(name, value)
            if args.threads > 1:
                self.cfg.set("worker_class", "gthread")
            self.cfg.set("threads", args.threads)
            self.cfg.set("accesslog", "-" if args.access_log else None)

        def load(self) -> Any:
            return create_app()

    print(f"Serving the API on http://{args.host}:{args.port}/docs"
          + (f" and the rules site from {site}" if site else ""), file=sys.stderr)
    Server().run()


def _openapi(args: argparse.Namespace) -> None:
    import yaml

    from thirtyone.web import create_app

    app = create_app({"THIRTYONE_SECRET_KEY": "only the contract is read"})
    with app.app_context():
        spec = app.extensions["flask-smorest"]["apis"][""]["ext_obj"].spec.to_dict()
    with open(args.output, "w", encoding="utf-8") as file:
        yaml.dump(spec, file)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="thirtyone", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="run the API (and the rules site) with gunicorn")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--workers", type=int, default=2)
    serve.add_argument("--threads", type=int, default=1,
                       help="threads per worker (more than one: the gthread worker)")
    serve.add_argument("--site", type=Path, default=None,
                       help="the built rules site to serve at / (default: build/site)")
    serve.add_argument("--access-log", action="store_true", help="log every request")
    serve.set_defaults(run=_serve)
    openapi = commands.add_parser("openapi", help="write the OpenAPI document as YAML")
    openapi.add_argument("output", nargs="?", default="openapi.yaml")
    openapi.set_defaults(run=_openapi)
    args = parser.parse_args(argv)
    args.run(args)


if __name__ == "__main__":
    main()
