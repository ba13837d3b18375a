"""JAX101 names the write that changes a static value after JAX saw it.

A write before the value's first static use is traced with it, so it cannot
leave a stale result: the message must not name it, and the default profile
(evidence of a stale result) reports nothing. The same write after a first
call is the one that goes stale, and the message names it with its line.
"""

from __future__ import annotations

import textwrap

from helpers import codes_at, findings_of, line_of

WRITE_BEFORE_THE_CALL = """
    from functools import partial
    import jax

    class _Cfg:  # private: its users build none, so nothing is latent
        def __init__(self):
            self.n = 1

        def __eq__(self, other):
            return type(other) is _Cfg and other.n == self.n

        def __hash__(self):
            return hash(self.n)

    @partial(jax.jit, static_argnums=1)
    def f(x, cfg):
        return x * cfg.n

    def main():
        cfg = _Cfg()
        cfg.n = 3
        return f(1.0, cfg)
"""


def _findings(src: str):
    findings, failed = findings_of(textwrap.dedent(src), "demo.py")
    assert not failed, findings
    return findings


def test_a_write_before_the_static_use_is_not_named_as_the_mutation():
    # jax 0.10.2: main() returns 3.0, the write before the call is seen, so it is not a stale-cache mutation.
    findings = _findings(WRITE_BEFORE_THE_CALL)
    class_line = line_of(WRITE_BEFORE_THE_CALL, "class _Cfg")
    assert {(finding.line, finding.code) for finding in findings} == {(class_line, "JAX101")}
    (message,) = [finding.message for finding in findings]
    assert "cfg.n = ..." not in message
    assert "nothing here changes it after the first call" in message
    # No evidence of a stale result: the default profile reports nothing.
    assert codes_at(WRITE_BEFORE_THE_CALL, profile="default") == set()


def test_a_write_after_the_static_use_is_named_with_its_line():
    # jax 0.10.2: with the write after a first call, main() returns the stale 1.0, so this write is the one to name.
    src = WRITE_BEFORE_THE_CALL.replace("        cfg.n = 3\n", "        f(1.0, cfg)\n        cfg.n = 3\n")
    findings = _findings(src)
    assert {(finding.line, finding.code) for finding in findings} == {(line_of(src, "class _Cfg"), "JAX101")}
    (message,) = [finding.message for finding in findings]
    assert f"after `cfg.n = ...` at line {line_of(src, 'cfg.n = 3')}" in message
