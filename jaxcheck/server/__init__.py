"""`jaxcheck server`: a language server, for editors that do not lint through flake8.

It needs pygls, an optional dependency (`pip install "jaxcheck[server]"`):
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
            'install it with: pip install "jaxcheck[server]"',
            file=sys.stderr,
        )
        return 2
    import multiprocessing

    from jaxcheck.server.protocol import build_server

    # A cold project is parsed in worker processes. Forked from this one, a
    # worker would inherit the lock of standard input, held by the thread
    # reading the client, and hang closing it: workers start afresh instead.
    multiprocessing.set_start_method("spawn", force=True)
    build_server().start_io()
    return 0
