"""``bansugoroku serve``: play and analyse in the browser, and the HTTP API
(the ``web`` extra: ``pip install 'bansugoroku-fast[web]'``).

    bansugoroku serve [--host 127.0.0.1] [--port 8000] [--open] [--session-ttl SECONDS]
                      [--workers N] [--access-log]

The server binds the loopback address unless ``--host`` names another
(then it warns: every machine that reaches that address can use it). The
page is at ``/``, the API under ``/api/`` (``/api/openapi.json`` describes
it); see the guide "Playing and analysing in the browser".
"""
from __future__ import annotations

import argparse
import importlib.util

from .common import Commands, whole_number


def add_parser(commands: Commands) -> None:
    serve = commands.add_parser("serve", help="play and analyse in the browser; the HTTP API",
                                description="Serve the page (play against the computer, analyse match files) "
                                            "and the HTTP API on this machine.")
    serve.add_argument("--host", default="127.0.0.1",
                       help="the address to bind (default 127.0.0.1, this machine only; another address warns)")
    serve.add_argument("--port", type=whole_number("port", 1, 65535, out_of_range="port must be 1..65535, got {}"),
                       default=8000, help="the TCP port (default 8000)")
    serve.add_argument("--open", action="store_true", help="open the page in the default browser")
    serve.add_argument("--session-ttl", type=whole_number("session-ttl", 60, out_of_range="session-ttl must be "
                                                          "60 seconds or more, got {}"),
                       default=3600, metavar="SECONDS", help="seconds a page's session lives unused (default 3600)")
    serve.add_argument("--workers", type=whole_number("workers", 1, 64, out_of_range="workers must be 1..64, got {}"),
                       default=1, metavar="N",
                       help="processes answering requests (default 1); with more, the API's stateless calls take "
                            "more load, but the page, whose games need one process, cannot be used")
    serve.add_argument("--access-log", action="store_true", help="log every request (it costs as much as a call)")
    serve.set_defaults(run=run_serve)


def run_serve(args: argparse.Namespace) -> int:
    """Serve until interrupted."""
    missing = [name for name in ("starlette", "uvicorn") if importlib.util.find_spec(name) is None]
    if missing:
        raise SystemExit(f"error: serve needs {' and '.join(missing)}: pip install 'bansugoroku-fast[web]'")
    from ..web.app import run_server

    if args.open and args.workers > 1:
        raise SystemExit("error: --open needs one worker: the page's games live in one process")
    run_server(args.host, args.port, open_browser=args.open, session_ttl=float(args.session_ttl),
               access_log=args.access_log, workers=args.workers)  # Ctrl+C stops it
    return 0
