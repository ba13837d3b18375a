"""One engine for every front end: source -> facts -> index -> rules -> findings.

The CLI and the flake8 plugin both call `check_source`; `check_paths` adds file
discovery and a process pool. Nothing that goes wrong in one file stops the
others: it becomes a JAX000 finding in that file.
"""

from __future__ import annotations

import ast
import os
import re
import sys
import traceback
from contextlib import contextmanager
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from jaxcheck.config import Config
from jaxcheck.discovery import python_files
from jaxcheck.findings import Finding
from jaxcheck.noqa import is_suppressed
from jaxcheck.prefilter import may_have_findings
from jaxcheck.project import module_name
from jaxcheck.rules import BAD_INPUT, RULES
from jaxcheck.source import SourceError, read_source

_LINE_BREAK = re.compile(r"\r\n?|\n")  # the line breaks LibCST and flake8 count
_RECURSION_LIMIT = 20_000
# Below this many files a process pool costs more than it saves.
_MIN_FILES_PER_WORKER = 8


@dataclass
class Result:
    findings: list[Finding] = field(default_factory=list)
    files: int = 0
    internal_errors: int = 0


def check_source(text: str, path: str, config: Config, for_flake8: bool = False) -> tuple[list[Finding], bool]:
    """The findings in one module's text, filtered by config and `# noqa`.

    Returns the findings and whether jaxcheck itself failed on the file.
    flake8 applies `# noqa` itself (and `--disable-noqa`) and reports syntax
    errors as E999, so for flake8 both are left to it.
    """
    failed = False
    try:
        findings = _syntax_errors(text, path)
        if findings:
            findings = [] if for_flake8 else findings
        elif may_have_findings(text):
            with _deep_recursion():
                findings = _raw_findings(text, path)
    except RecursionError:
        findings = [Finding(path, 1, 1, BAD_INPUT, "cannot analyse: the code nests too deeply for jaxcheck")]
    except Exception as error:  # a bug of ours must not cost the user the run
        failed = True
        where = traceback.extract_tb(error.__traceback__)[-1]
        findings = [
            Finding(
                path,
                1,
                1,
                BAD_INPUT,
                f"jaxcheck failed on this file ({type(error).__name__}: {error} at "
                f"{os.path.basename(where.filename)}:{where.lineno}); please report it. Other files were checked.",
            )
        ]
    return _filtered(findings, text, path, config, not for_flake8), failed


@contextmanager
def _deep_recursion():
    """LibCST and the extractor recurse once or twice per nesting level: a long
    `a + b + ...` chain that Python accepts needs more than the default 1000
    frames. From Python 3.11 on, Python-to-Python calls do not use the C stack,
    so a higher limit is safe there."""
    old = sys.getrecursionlimit()
    if sys.version_info >= (3, 11):
        sys.setrecursionlimit(max(old, _RECURSION_LIMIT))
    try:
        yield
    finally:
        sys.setrecursionlimit(old)


def _raw_findings(text: str, path: str) -> list[Finding]:
    from jaxcheck.analysis import Analysis
    from jaxcheck.extract import ParseError, facts_from_source
    from jaxcheck.index import Index

    name, is_package = module_name(path)
    try:
        module = facts_from_source(text, path, name, is_package)
    except ParseError as error:
        return [Finding(path, error.line, error.column, BAD_INPUT, f"cannot parse: {error}")]
    analysis = Analysis(Index([module]))
    findings = {finding for rule in RULES for finding in rule().check(module, analysis)}
    return sorted(findings)


def _syntax_errors(text: str, path: str) -> list[Finding]:
    """Python's own parser first: its messages are the ones users know, it costs
    a fraction of LibCST's parse, and it rejects the deep nesting on which
    LibCST's native parser crashes."""
    try:
        ast.parse(text, path)
    except SyntaxError as error:
        return [Finding(path, error.lineno or 1, error.offset or 1, BAD_INPUT, f"cannot parse: syntax error: {error.msg}")]
    except (ValueError, MemoryError) as error:
        return [Finding(path, 1, 1, BAD_INPUT, f"cannot parse: {error}")]
    except RecursionError:
        return [Finding(path, 1, 1, BAD_INPUT, "cannot parse: the code nests too deeply for Python's own parser")]
    return []


def _filtered(findings: list[Finding], text: str, path: str, config: Config, honour_noqa: bool = True) -> list[Finding]:
    if not findings:
        return findings
    lines = _LINE_BREAK.split(text)
    kept = []
    for finding in findings:
        if not config.is_enabled(finding.code, path):
            continue
        line_text = lines[finding.line - 1] if 0 < finding.line <= len(lines) else ""
        if honour_noqa and finding.code != BAD_INPUT and is_suppressed(finding.code, line_text):
            continue
        kept.append(finding)
    return kept


def check_file(path: str, config: Config) -> tuple[list[Finding], bool]:
    try:
        text = read_source(path)
    except SourceError as error:
        return _filtered([Finding(path, 1, 1, BAD_INPUT, str(error))], "", path, config), False
    return check_source(text, path, config)


def _check_file_job(job: tuple[str, Config]) -> tuple[list[Finding], bool]:
    return check_file(*job)


def check_paths(paths, config_for, jobs: int) -> Result:
    """Check every Python file below `paths`; `config_for(path)` gives each path's config."""
    work: list[tuple[str, Config]] = []
    seen: set[str] = set()
    for path in paths:
        config = config_for(path)
        for file in python_files(path, config.is_excluded):
            if os.path.realpath(file) not in seen:
                seen.add(os.path.realpath(file))
                work.append((file, config))
    result = Result(files=len(work))
    workers = min(jobs, len(work) // _MIN_FILES_PER_WORKER)
    if workers > 1:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            outcomes = list(pool.map(_check_file_job, work, chunksize=4))
    else:
        outcomes = [_check_file_job(job) for job in work]
    for findings, failed in outcomes:
        result.findings.extend(findings)
        result.internal_errors += failed
    return result
