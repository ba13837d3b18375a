"""JAX000: the findings of the loader, documented like a rule.

Files that cannot be read, decoded or parsed, and files jaxcheck fails on,
are reported by the loader and the engine, never by a rule's `check`: this
class only gives the code its name, summary and page, and is not in `RULES`.
"""

from __future__ import annotations

from typing import ClassVar

from jaxcheck.findings import BAD_INPUT


class BadInput:
    """jaxcheck could not read, decode, parse or analyse a file, or failed on it
    itself. The message says which; every other file is still checked.

    ## What it does

    Reports one finding per such file, with a message that starts with:

    - `cannot read: ...`: the file cannot be opened (a broken symlink, no
      permission). Reported on line 1.
    - `cannot decode: ...` or `cannot decode as <encoding>: ...`: the bytes are
      not valid in the encoding Python would use, which is UTF-8 unless a BOM or
      a coding cookie (`# -*- coding: latin-1 -*-` on line 1 or 2) says
      otherwise, or the cookie names an unknown encoding. Reported on line 1.
    - `cannot parse: syntax error: ...`: Python refuses to compile the file (a
      typo, a merge conflict, Python 2 code, or what only the compiler checks:
      `return` outside a function, a repeated parameter, a late
      `from __future__` import). Reported where Python stopped, with Python's
      message. The grammar is the Python jaxcheck runs on, as for flake8's
      E999: on Python 3.11, a file using 3.12 syntax (type parameters, `type`
      statements, nested f-string quotes) is one `cannot parse: ... is syntax
      of Python 3.12` finding that says to run jaxcheck on Python 3.12. Other
      `cannot parse: ...` messages, on line 1: a null byte in the source, or
      code nested too deeply for Python's own parser.
    - `cannot analyse: ...`: Python accepts the file, but the code nests too
      deeply for jaxcheck.
    - `jaxcheck failed on this file (...); please report it.`: a bug in
      jaxcheck. The run still checks every other file, then exits with status 2.

    Every checked file is compiled, so a syntax error is reported even in a
    file that cannot hold any other finding.

    Read, decode, parse and analyse errors count as findings (exit status 1).
    Under flake8, files that do not parse get flake8's own E999 instead (flake8
    parses with the Python it runs on, so on Python 3.11 it cannot read 3.12
    syntax); JAX000 there means a jaxcheck failure or a `[tool.jaxcheck]`
    configuration error (`JAX000 jaxcheck configuration error: ...`).

    ## Why is this bad?

    A file jaxcheck cannot read is a file it has not checked: a stale static
    argument in it would go unseen, so it says so instead of skipping it in
    silence or stopping the run. Python 3 refuses these files too. Checked on
    Python 3.11 (jax 0.10.2, CPU): running the example fails with
    `SyntaxError: Missing parentheses in call to 'print'`, and jaxcheck reports
    `example.py:8:1: JAX000 cannot parse: syntax error: Missing parentheses in
    call to 'print'. Did you mean print(...)?`

    ## Example

    ```python
    from functools import partial
    import jax

    @partial(jax.jit, static_argnums=1)
    def scale(x, factor):
        return x * factor

    print scale(2.0, 3)  # a Python 2 print statement
    ```

    ## Use instead

    ```python
    from functools import partial
    import jax

    @partial(jax.jit, static_argnums=1)
    def scale(x, factor):
        return x * factor

    print(scale(2.0, 3))  # 6.0
    ```

    - Syntax error: fix it where the message points; port Python 2 code to
      Python 3 (or exclude it, below).
    - Decode error: save the file as UTF-8, or declare its real encoding on
      line 1 or 2: `# -*- coding: latin-1 -*-`.
    - Read error: fix the link or the permissions, or exclude the path.
    - Newer syntax: run jaxcheck on the Python the file is written for.
    - `cannot analyse` or `jaxcheck failed`: report it to the jaxcheck
      maintainers with the message (it names the error and, for a failure,
      where in jaxcheck it happened) and, if you can, the file.

    ## Fix

    No automatic fix: jaxcheck could not read or parse the file, and a fix is an
    edit of the parsed file.

    ## Options

    JAX000 is reported under both profiles: an unread file is a gap in the
    check whatever the profile. Files that are not meant to be Python 3
    (vendored Python 2 code, templates, test data with deliberate syntax
    errors) can be skipped, or their finding dropped, in `pyproject.toml`:

    ```toml
    [tool.jaxcheck]
    exclude = ["legacy/", "templates/*.py"]          # never read
    per-file-ignores = { "tests/data/*" = ["JAX000"] }
    # ignore = ["JAX000"]                             # or everywhere
    ```

    `# noqa` does not apply to JAX000; use these keys (or `--ignore JAX000`).
    An ignored internal failure still makes the run exit with status 2, so CI
    notices it.

    ## Known problems

    - A file written for a newer Python than jaxcheck runs on is not checked,
      and its classes are unknown to the rest of the project: run jaxcheck on
      the Python the project targets.

    ## JAX versions checked

    Not about JAX: a file is bad input when the Python jaxcheck runs on refuses it.

    ## References

    - flake8's E999 and ruff's E902: a file the linter cannot read or parse is
      one finding with the reason, and every other file is still checked.
    - PEP 263, "Defining Python Source Code Encodings": the coding cookie.
      https://peps.python.org/pep-0263/
    """

    code: ClassVar[str] = BAD_INPUT
    name: ClassVar[str] = "bad-input"
    summary: ClassVar[str] = "a file that cannot be read, decoded, parsed or analysed, or that jaxcheck failed on"
    facts: ClassVar[tuple[str, ...]] = ()  # about Python, not JAX
