"""`jaxcheck server`: a language server, for editors that do not lint through flake8.

It needs pygls, an optional dependency (`pip install "jaxcheck[server]"`):
nothing else in jaxcheck imports it.
"""

from __future__ import annotations

import sys


def serve() -> int:
    """Speak the Language Server Protocol on standard input and output until the client says exit."""
    try:
        import lsprotocol.types  # noqa: F401
        import pygls.lsp.server  # noqa: F401
    except ImportError as error:
        print(
            f"jaxcheck: error: the language server needs pygls ({error}); "
            'install it with: pip install "jaxcheck[server]"',
            file=sys.stderr,
        )
        return 2
    from jaxcheck.server.protocol import build_server

    build_server().start_io()
    return 0
