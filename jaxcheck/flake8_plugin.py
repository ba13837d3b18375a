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
from jaxcheck.prefilter import may_hold_findings_of_project
from jaxcheck.rules import BAD_INPUT

_STDIN_NAMES = frozenset({"stdin", "-", "<stdin>"})


class JaxcheckPlugin:
    name = "jaxcheck"
    version = __version__

    def __init__(self, tree: object, filename: str, lines: list[str]) -> None:
        self.filename = filename
        self.lines = lines

    def run(self) -> Iterator[tuple[int, int, str, type]]:
        text = "".join(self.lines)
        if not may_hold_findings_of_project(text):
            return  # a configured transform is imported where it is used, so "import" covers it
        try:
            start = os.getcwd() if self.filename in _STDIN_NAMES else self.filename
            config = find_config(start)
            if config.is_excluded(self.filename):
                return
            from jaxcheck.engine import check_file_in_project, check_source

            if self.filename in _STDIN_NAMES:
                findings, _ = check_source(text, self.filename, config, for_flake8=True)
            else:
                findings, _ = check_file_in_project(self.filename, text, config)
        except ConfigError as error:
            yield 1, 0, f"{BAD_INPUT} jaxcheck configuration error: {error}", type(self)
            return
        except Exception as error:  # the flake8 run must go on
            yield 1, 0, f"{BAD_INPUT} jaxcheck failed on this file ({type(error).__name__}: {error})", type(self)
            return
        for finding in findings:
            # flake8 takes 0-based columns and prints them 1-based.
            yield finding.line, finding.column - 1, f"{finding.code} {finding.message}", type(self)
