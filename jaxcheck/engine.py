"""One engine for every front end: source -> facts -> index -> rules -> findings.

`check_paths` (the CLI) and `check_file_in_project` (the flake8 plugin) analyse
a file with its whole project around it, through a `Workspace`; `check_source`
analyses one text on its own. Nothing that goes wrong in one file stops the
others: it becomes a JAX000 finding in that file.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

from jaxcheck import facts as f
from jaxcheck.loading.cache import FactsCache
from jaxcheck.config import Config
from jaxcheck.loading.files import python_files
from jaxcheck.findings import Finding
from jaxcheck.report.noqa import is_suppressed
from jaxcheck.loading.project import Project, find_project
from jaxcheck.failures import deep_recursion, internal_error
from jaxcheck.findings import BAD_INPUT
from jaxcheck.rules import RULES

_LINE_BREAK = re.compile(r"\r\n?|\n")  # the line breaks LibCST and flake8 count


@dataclass
class Result:
    findings: list[Finding] = field(default_factory=list)
    files: int = 0
    internal_errors: int = 0


def check_paths(paths, config_for, jobs: int, use_cache: bool = True) -> Result:
    """Check every Python file below `paths`, each with its project around it.

    `config_for(path)` gives the config of each path given.
    """
    from jaxcheck.loading.loader import Pool

    groups: dict[Project, tuple[Config, list[str]]] = {}
    seen: set[str] = set()
    for path in paths:
        config = config_for(path)
        for file in python_files(path, config.is_excluded):
            real = os.path.realpath(file)
            if real not in seen:
                seen.add(real)
                project = find_project(file)
                groups.setdefault(project, (config, []))[1].append(file)
    result = Result(files=len(seen))
    pool = Pool(jobs) if jobs > 1 else None
    try:
        for project, (config, files) in groups.items():
            _check_project(project, config, files, pool, use_cache, result)
    finally:
        if pool is not None:
            pool.close()
    return result


def _check_project(project: Project, config: Config, files: list[str], pool, use_cache: bool, result: Result) -> None:
    """The findings of the checked `files` of one project, added to `result`."""
    from jaxcheck.loading.loader import Workspace

    config = config.for_project(project.root)
    cache = FactsCache(project.cache_folder if use_cache else None)
    workspace = Workspace(project, config, cache, pool, checked=files)
    results = project_results(workspace)
    workspace.check_syntax([os.path.abspath(file) for file in files if os.path.abspath(file) not in results])
    for file in files:
        findings, failed = file_findings(workspace, results, file)
        text = workspace.text(os.path.abspath(file))
        result.findings.extend(_filtered(findings, text, file, config, honour_noqa=True))
        result.internal_errors += failed
    result.findings.extend(_caused_by(workspace, results, files, config))
    cache.save()


def _caused_by(workspace, results: dict, files: list[str], config: Config) -> list[Finding]:
    """Findings in files not checked, that a checked file makes findings: a
    static use added in `integrate.py` of a mutable class from `settings.py`
    fails `jaxcheck check integrate.py` (and the pre-commit hook) too."""
    from jaxcheck.loading.loader import display_path

    checked = {os.path.abspath(file) for file in files}
    found = []
    for path, (findings, _) in sorted(results.items()):
        if path in checked:
            continue
        caused = [finding for finding in findings if any(os.path.abspath(file) in checked for file in finding.about)]
        if caused:
            shown = display_path(path)
            caused = [Finding(shown, *finding_fields(finding)) for finding in caused]
            found.extend(_filtered(caused, workspace.text(path), shown, config, honour_noqa=True))
    return found


def project_results(workspace) -> dict[str, tuple[list[Finding], bool]]:
    """The findings of every project file that has rule findings or a JAX000, by
    absolute path: from the cache when no file has changed since, else judged."""
    files = workspace.files()
    fingerprint = workspace.fingerprint(files)
    results = workspace.cache.load_results(fingerprint)
    if results is None:
        analysis = workspace.build(files)
        results = {}
        for path in workspace.bad:
            results[path] = [workspace.bad[path]], path in workspace.internal_errors
        for path, module in workspace.facts.items():
            findings, failed = _rule_findings(module, analysis)
            if findings or failed:
                results[path] = findings, failed
        workspace.cache.store_results(fingerprint, results)
    return results


def file_findings(workspace, results: dict, file: str) -> tuple[list[Finding], bool]:
    """One file's findings, spelled with the path as the user gave it."""
    path = os.path.abspath(file)
    if path in results:
        findings, failed = results[path]
    else:
        problem = workspace.syntax_error(path, file)
        findings, failed = ([problem] if problem else []), False
    return [Finding(file, *finding_fields(finding)) for finding in findings], failed


_WORKSPACES: dict = {}  # project root -> (workspace, results, file stamps), for flake8


def check_file_in_project(path: str, text: str, config: Config) -> tuple[list[Finding], bool]:
    """For flake8: one file's findings with its project around it, `# noqa` left to flake8.

    The project is judged once per process, from the cache when it is warm,
    and again when the file's text changes, or a file whose facts this process
    parsed or loaded changes (after a warm start, with findings read from
    `results.json`, only the checked file's text is watched: flake8 processes
    are short-lived).
    """
    from jaxcheck.loading.loader import Workspace

    project = find_project(path)
    config = config.for_project(project.root)
    absolute = os.path.abspath(path)
    entry = _WORKSPACES.get(project.root)
    known = entry[0].texts.get(absolute) if entry is not None else _disk_text(absolute)
    if known is not None and _as_flake8_reads(known) == _as_flake8_reads(text):
        text = known  # the file as on disk: what the CLI and the cache saw
    if entry is None or entry[0].texts.get(absolute) != text or entry[2] != _stamps(entry[0].facts):
        workspace = Workspace(project, config, FactsCache(project.cache_folder), texts={absolute: text})
        results = project_results(workspace)
        workspace.cache.save()
        entry = _WORKSPACES[project.root] = (workspace, results, _stamps(workspace.facts))
    workspace, results, _ = entry
    findings, failed = file_findings(workspace, results, path)
    return _filtered(findings, text, path, config, honour_noqa=False), failed


def _as_flake8_reads(text: str) -> str:
    """flake8 reads files with universal newlines, and without a BOM."""
    return text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")


def _disk_text(path: str) -> str | None:
    from jaxcheck.loading.source import SourceError, read_source

    try:
        return read_source(path)
    except SourceError:
        return None


def _stamps(facts: dict) -> dict:
    stamps = {}
    for path in facts:
        try:
            status = os.stat(path)
            stamps[path] = (status.st_mtime_ns, status.st_size)
        except OSError:
            stamps[path] = None
    return stamps


def finding_fields(finding: Finding) -> tuple:
    return finding.line, finding.column, finding.code, finding.message, finding.about


def _rule_findings(module: f.ModuleFacts, analysis) -> tuple[list[Finding], bool]:
    try:
        with deep_recursion():
            found = {finding for rule in RULES for finding in rule().check(module, analysis)}
    except RecursionError:
        return [Finding(module.path, 1, 1, BAD_INPUT, "cannot analyse: the code nests too deeply for jaxcheck")], False
    except Exception as error:  # a bug of ours must not cost the user the run
        return [internal_error(module.path, error)], True
    return sorted(found), False


def check_source(text: str, path: str, config: Config, for_flake8: bool = False) -> tuple[list[Finding], bool]:
    """The findings in one module's text analysed on its own, filtered by config and `# noqa`.

    The analysis assumes what `config.options` says (`Config.for_project`
    tells it the project's JAX releases).

    Returns the findings and whether jaxcheck itself failed on the file.
    flake8 applies `# noqa` itself (and `--disable-noqa`) and reports syntax
    errors as E999, so for flake8 both are left to it.
    """
    from jaxcheck.model.project import Analysis
    from jaxcheck.model.symbols import Index
    from jaxcheck.loading.prefilter import may_have_findings
    from jaxcheck.loading.syntax import syntax_error_of
    from jaxcheck.loading.loader import parse_facts

    problem = syntax_error_of(text, path)
    if problem is not None:
        return ([] if for_flake8 else _filtered([problem], text, path, config, True)), False
    if not may_have_findings(text, config.options.keywords):
        return [], False
    name = os.path.splitext(os.path.basename(path))[0]
    module, problem, failed = parse_facts(path, text, name, False)
    if module is None:
        return _filtered([problem], text, path, config, not for_flake8), failed
    findings, failed = _rule_findings(module, Analysis(Index([module]), config.options))
    return _filtered(findings, text, path, config, not for_flake8), failed


def _filtered(findings: list[Finding], text: str, path: str, config: Config, honour_noqa: bool) -> list[Finding]:
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
