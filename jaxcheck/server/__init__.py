"""`jaxcheck server`: a language server, for editors that do not lint through flake8.

It needs pygls, an optional dependency (`pip install ".[server]"` in a clone of jaxcheck):
nothing else in jaxcheck imports it.
"""

from __future__ import annotations

import sys


def serve() -> int:
    """Speak the Language Server Protocol on standard input and output until the client says exit."""
    import importlib

    try:
        importlib.import_module("pygls.lsp.server")
    except ImportError as error:
        print(
            f"jaxcheck: error: the language server needs pygls ({error}); "
            'install it, in a clone of jaxcheck, with: pip install ".[server]"',
            file=sys.stderr,
        )
        return 2
    from jaxcheck.server.protocol import build_server

    server = build_server()
    try:
        server.start_io()
    finally:  # `exit` with or without `shutdown`, or the client gone: the workers end with the server
        server.stop_runs()
    return 0
