"""The flake8 plugin: an adapter over `jaxcheck.engine.judge`.

flake8 runs only plugins that take `tree` (pyflakes needs that tree anyway);
the plugin reads the file's lines instead. A file that can hold no finding
(no static use, no class) costs a substring test; the others are judged with
their project around them. flake8 asks file by file, so a project is judged
once per flake8 process (`_judgement`), from the on-disk cache when warm,
and `# noqa` and what flake8's own parser refuses (E999) are left to flake8.
It never raises.
"""

from __future__ import annotations

import atexit
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
        if not may_hold_findings_of_project(text) and _compiles(text, self.filename):
            # A configured transform is imported where it is used, so "import" covers it. A file
            # Python parses but will not compile (`return` outside a function) is a JAX000, as on the command line.
            return
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
            from jaxcheck.report.formats import in_file

            alone = self.filename in _STDIN_NAMES
            path = os.path.join(start, "stdin.py") if alone else self.filename
            findings = _findings(path, text, config, alone)
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


def _findings(path: str, text: str, config, alone: bool) -> list:
    """The findings of one file flake8 asks about, as flake8 reports them: its
    `# noqa` comments and what its own parser refuses are flake8's to judge
    (a notebook named to flake8 is read as JSON: `# noqa` in a cell is ours)."""
    from jaxcheck.engine import filtered, in_cells, spelled
    from jaxcheck.loading.notebook import is_notebook
    from jaxcheck.loading.project import Project, find_project

    from jaxcheck.loading.cache import digest_of

    absolute = os.path.abspath(path)
    project = Project.alone(path) if alone else find_project(path)
    config = config.for_project(project.root)
    if not alone:
        disk = _disk_text(absolute)
        if disk is not None and _as_flake8_reads(disk) == _as_flake8_reads(text):
            text = disk  # the file as on disk: what the command line and the cache saw
    judgement = _judgement(project, config, absolute, text, alone)
    found, _ = judgement.results.get(absolute, ([], False))
    loader = judgement.loader
    digest = digest_of(text)
    if not found and absolute not in loader.facts and not loader.cache.known_valid(digest):
        from jaxcheck.loading.syntax import syntax_error_of

        problem = syntax_error_of(text, path)
        found = [problem] if problem is not None else []
        if problem is None:
            loader.cache.mark_valid(digest)  # saved when flake8 exits
    if any(finding.message.startswith("cannot parse") for finding in found) and _flake8_refuses(text):
        found = [finding for finding in found if not finding.message.startswith("cannot parse")]
    found = [spelled(finding, path) for finding in found]
    kept = filtered(found, judgement.loader.text(absolute), path, config, honour_noqa=is_notebook(path))
    return in_cells(kept, judgement.loader.notebooks)


class _Judged:
    """A project judged in this process: the judgement, the digests of the
    texts it was judged on, the stamps of the files it read, and the files
    flake8 has asked about since (a file asked twice: a new flake8 run)."""

    def __init__(self, judgement, digests: dict, stamps: dict) -> None:
        self.judgement = judgement
        self.digests = digests
        self.stamps = stamps
        self.asked: set[str] = set()


_JUDGED: dict[str, _Judged] = {}  # project root -> its judgement in this flake8 process


def _judgement(project, config, path: str, text: str, alone: bool):
    """The project's judgement: judged once per flake8 process, and again when
    the text flake8 gives differs from the one judged, or (a second flake8
    run in this process) a file the judgement read has changed since."""
    from jaxcheck.engine import judge
    from jaxcheck.loading.cache import Cache, digest_of, project_cache_folder
    from jaxcheck.loading.pool import Pool

    entry = None if alone else _JUDGED.get(project.root)
    if entry is not None:
        stale = entry.digests.get(path) != digest_of(text)
        if not stale and path in entry.asked:  # another run of flake8 in this process
            entry.asked.clear()
            stale = entry.stamps != _stamps(entry.stamps)
        if not stale:
            entry.asked.add(path)
            return entry.judgement
    cache = Cache(project_cache_folder(project.root) if project.marked and not alone else None)
    atexit.register(cache.save)  # what flake8's other files tell it (texts Python accepts), for the next run
    with Pool(1) as pool:
        judgement = judge(project, config, cache, pool, {path: text}, [path])
    loader = judgement.loader
    # What was judged is kept without the facts: flake8's own collections would walk them for every later file.
    loader.facts = dict.fromkeys(loader.facts)
    if not alone:
        read = [*loader.facts, *loader.bad]
        entry = _JUDGED[project.root] = _Judged(judgement, dict(loader.digests), _stamps(read))
        entry.asked.add(path)
    return judgement


def _stamps(paths) -> dict:
    found = {}
    for path in paths:
        try:
            status = os.stat(path)
            found[path] = (status.st_mtime_ns, status.st_size)
        except OSError:
            found[path] = None
    return found


def _as_flake8_reads(text: str) -> str:
    """flake8 reads files with universal newlines, and without a BOM."""
    return text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")


def _disk_text(path: str) -> str | None:
    from jaxcheck.loading.source import SourceError, read_source

    try:
        return read_source(path)
    except SourceError:
        return None


def _compiles(text: str, path: str) -> bool:
    from jaxcheck.loading.syntax import syntax_error_of

    return syntax_error_of(text, path) is None


def _flake8_refuses(text: str) -> bool:
    """Whether flake8's own parse (`ast.parse`) fails on the text, so that it reports E999."""
    import ast
    import warnings

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ast.parse(text)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return True
    return False
