"""The flake8 plugin: a thin adapter over `jaxcheck.engine.check_source`.

flake8 runs only plugins that take `tree` (pyflakes needs that tree anyway);
the plugin reads the file's lines instead. A file that can hold no finding
(no static use, no class) costs a substring test; the others are judged with
their project around them, gathered once per flake8 process and read from the
on-disk cache when warm. It never raises.
"""

from __future__ import annotations

import os
from typing import Iterator

from jaxcheck import __version__
from jaxcheck.config import ConfigError, find_config
from jaxcheck.loading.prefilter import may_hold_findings_of_project
from jaxcheck.findings import reason
from jaxcheck.rules import BAD_INPUT

_STDIN_NAMES = frozenset({"stdin", "-", "<stdin>"})
_OPTIONS = {
    "extra-transforms": "mypkg.compile:static_argnums,static_argnames",
    "static-bases": "mypkg.config.StaticBase",
    "singletons": "mypkg.registry.REGISTRY",
}


class JaxcheckPlugin:
    name = "jaxcheck"
    version = __version__
    # `--jaxcheck-*` options (or `jaxcheck-*` keys in flake8's own config):
    # what `[tool.jaxcheck]` says of the analysis, added to it.
    analysis: dict[str, tuple[str, ...]] = {}
    target_jax_version = ""  # `--jaxcheck-target-jax-version`: replaces `[tool.jaxcheck]`'s
    profile = ""  # `--jaxcheck-profile`: likewise

    def __init__(self, tree: object, filename: str, lines: list[str]) -> None:
        self.filename = filename
        self.lines = lines

    @classmethod
    def add_options(cls, manager) -> None:
        for key, example in _OPTIONS.items():
            manager.add_option(
                f"--jaxcheck-{key}",
                default="",
                parse_from_config=True,
                help=f"[tool.jaxcheck] {key!r}, added to pyproject.toml's: entries separated by spaces or "
                f"newlines, e.g. {example}",
            )
        manager.add_option(
            "--jaxcheck-target-jax-version",
            default="",
            parse_from_config=True,
            help="[tool.jaxcheck] 'target-jax-version', which it replaces: the JAX release messages are "
            "written for, e.g. 0.11 (default: what the project requires, else the installed jax)",
        )
        manager.add_option(
            "--jaxcheck-profile",
            default="",
            parse_from_config=True,
            help="[tool.jaxcheck] 'profile', which it replaces: default (findings with evidence that JAX will go "
            "wrong) or strict (the design standard as written)",
        )

    @classmethod
    def parse_options(cls, options) -> None:
        cls.analysis = {
            key: tuple(getattr(options, f"jaxcheck_{key.replace('-', '_')}", "").split()) for key in _OPTIONS
        }
        cls.target_jax_version = getattr(options, "jaxcheck_target_jax_version", "").strip()
        cls.profile = getattr(options, "jaxcheck_profile", "").strip()

    def run(self) -> Iterator[tuple[int, int, str, type]]:
        text = "".join(self.lines)
        if not may_hold_findings_of_project(text):
            return  # a configured transform is imported where it is used, so "import" covers it
        try:
            start = os.getcwd() if self.filename in _STDIN_NAMES else self.filename
            config = find_config(start)
            if any(self.analysis.values()):
                config = config.with_analysis(
                    self.analysis["extra-transforms"],
                    self.analysis["static-bases"],
                    self.analysis["singletons"],
                    "flake8's --jaxcheck-* options",
                )
            if self.target_jax_version:
                config = config.with_target(self.target_jax_version, "flake8's --jaxcheck-target-jax-version")
            if self.profile:
                config = config.with_profile(self.profile, "flake8's --jaxcheck-profile")
            if config.is_excluded(self.filename):
                return
            from jaxcheck.engine import check
            from jaxcheck.report.formats import in_file

            alone = self.filename in _STDIN_NAMES
            path = os.path.join(start, "stdin.py") if alone else self.filename
            result = check([path], lambda _: config, texts={path: text}, alone=alone, for_flake8=True)
            findings = result.findings
        except ConfigError as error:
            yield 1, 0, f"{BAD_INPUT} jaxcheck configuration error: {error} [bad-input]", type(self)
            return
        except Exception as error:  # the flake8 run must go on
            yield 1, 0, f"{BAD_INPUT} jaxcheck failed on this file ({type(error).__name__}: {reason(error)}) [bad-input]", type(self)
            return
        for finding in findings:
            # flake8 takes 0-based columns and prints them 1-based; a notebook
            # named to it is read as its JSON, so the cell goes in the message.
            line, column, message = in_file(finding)
            yield line, column - 1, f"{finding.code} {message}", type(self)
