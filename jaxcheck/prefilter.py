"""A textual test that skips files which cannot contain a finding, before any parse.

Every finding of the JAX1xx rules needs a static parameter written in the same
module (`static_argnums=`, `static_argnames=`), so a file without the text
`static_arg` has none. Parsing is the dominant cost; most files fail this test.
"""

from __future__ import annotations

TRIGGERS = ("static_arg",)


def may_have_findings(text: str) -> bool:
    return any(trigger in text for trigger in TRIGGERS)
