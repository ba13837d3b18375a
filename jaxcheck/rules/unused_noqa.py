"""JAX001: `# noqa` comments that name JAX codes suppressing nothing, documented like a rule.

A comment is not in the model: `jaxcheck.report.noqa.unused_noqa` reads the
comments of the checked files beside their findings. This class gives the
code its name, summary and page, and is not in `RULES`.
"""

from __future__ import annotations

from typing import ClassVar

UNUSED_NOQA = "JAX001"


class UnusedNoqa:
    """A `# noqa` comment names a JAX code that suppresses nothing on its line,
    or a JAX code or rule name jaxcheck does not know. Off unless selected by
    its exact code or name.

    ## What it does

    Reports, at the comment, each `# noqa: ...` of a checked file whose JAX
    entries include one that does nothing:

    - *unused*: a code (`JAX101`), a prefix (`JAX1`) or a rule name
      (`mutable-static`) with no finding of it on that line, in either profile
      and whatever `select`/`ignore` say (so that the verdict does not change
      with the options of the run); `JAX000` is always unused, as `# noqa` never
      silences bad input;
    - *unknown*: a `JAX` code that is no code nor prefix of one (`JAX999`), a
      lower-case code (`jax101`: codes are matched as written, as in flake8),
      or a name that is no rule's (`mutable-statc`).

    Only JAX entries are judged: `E501` or `F401` in the same comment, and a
    bare `# noqa`, are other tools' business. A file that jaxcheck could not
    analyse (it has a JAX000) is not judged. Under flake8, which reads the
    comments itself, JAX001 is not reported.

    ## Why is this bad?

    A suppression outlives the code it was written for: the class is made
    frozen, the finding goes, and the comment stays to hide the next real one
    on that line. A misspelt code or name hides nothing in `jaxcheck check`
    (while flake8 reads `# noqa: mutable-static` as a bare `# noqa`, hiding
    every code on the line), so the finding it was meant for comes back with
    no hint why. Reported for this example (`--extend-select JAX001`):
    ``example.py:4:38: JAX001 `# noqa` entries that suppress nothing on this
    line (unused: JAX101)``.

    ## Example

    ```python
    import dataclasses


    @dataclasses.dataclass(frozen=True)  # noqa: JAX101
    class Vehicle:
        num_wheels: int
    ```

    ## Use instead

    ```python
    import dataclasses


    @dataclasses.dataclass(frozen=True)
    class Vehicle:
        num_wheels: int
    ```

    Remove the entries the message lists; correct a misspelt code or name
    (`jaxcheck rules` lists them).

    ## Fix

    No automatic fix: an unused entry may be a finding that another profile
    or a later edit brings back, and a misspelt one has no single right
    spelling. Remove or correct the entries the message lists by hand.

    ## Options

    Unlike every other code, JAX001 is reported only when `select` or
    `extend-select` names it exactly, `JAX001` or `unused-noqa`
    (`--extend-select JAX001`, `extend-select = ["unused-noqa"]`): the default
    selects every code, and so do the prefixes `JAX` and `JAX0`, none of them
    turns it on. This is ruff's `explicit-preview-rules` applied to one rule:
    an audit of the comments is something a team asks for, not a finding
    about JAX. The profile does not change it. A JAX001 finding is silenced
    only by `JAX001` or `unused-noqa` in the comment (or by `ignore`,
    `per-file-ignores`).

    ## Known problems

    - Only the checked files are judged; a comment in a file reported only
      because a checked file uses its class is not.
    - `# noqa` is found anywhere on the line, as flake8 finds it, so the
      text `# noqa: JAX101` inside a string on a line with no finding is
      reported too.

    ## JAX versions checked

    Not about JAX: it reads the comments of the checked files.

    ## References

    - ruff's RUF100, `unused-noqa`, whose model this follows.
      https://docs.astral.sh/ruff/rules/unused-noqa/
    - ruff's `lint.explicit-preview-rules`: rules selected only by their full code.
      https://docs.astral.sh/ruff/settings/#lint_explicit-preview-rules
    """

    code: ClassVar[str] = UNUSED_NOQA
    name: ClassVar[str] = "unused-noqa"
    summary: ClassVar[str] = "a `# noqa` names a JAX code that suppresses nothing on its line, or an unknown code or name"
    facts: ClassVar[tuple[str, ...]] = ()  # about comments, not JAX
