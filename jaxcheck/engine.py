"""One engine for every front end: loading -> extraction -> model -> rules -> findings.

`check` is what the CLI, the flake8 plugin and the tests call: each file is
analysed with its project around it (or, `alone`, as a project of its own),
every rule reads the project's one model, and the findings are filtered by
the config (codes, profile) and `# noqa`. Nothing that goes wrong in one file
stops the others: it becomes a JAX000 finding in that file.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field, replace
from typing import Callable, Sequence

from jaxcheck.collector import few_collections, paused
from jaxcheck.config import Config
from jaxcheck.failures import deep_recursion, internal_error
from jaxcheck.findings import BAD_INPUT, Finding
from jaxcheck.loading.cache import FactsCache
from jaxcheck.loading.files import Listing, located_files, project_files, real_path, skipped_because
from jaxcheck.loading.notebook import is_notebook
from jaxcheck.loading.project import Project, find_project
from jaxcheck.loading.stamps import digest_of
from jaxcheck.report.noqa import LINE_BREAK, is_suppressed, unused_noqa
from jaxcheck.rules import RULES, UNUSED_NOQA


@dataclass
class Result:
    findings: list[Finding] = field(default_factory=list)
    files: int = 0
    internal_errors: int = 0
    analysed: set[str] = field(default_factory=set)  # absolute paths whose facts reached the model
    checked: set[str] = field(default_factory=set)  # absolute paths of the files checked (a baseline's scope)
    texts: dict[str, str] = field(default_factory=dict)  # the text of each file with a finding, by its path as shown
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (path as given or found, why it is not checked)
    notes: list[str] = field(default_factory=list)  # what the user should know of the run (a cache folder not used)


def check(
    paths: Sequence[str],
    config_for: Callable[[str], Config],
    *,
    texts: dict[str, str] | None = None,
    jobs: int = 1,
    use_cache: bool = True,
    alone: bool = False,
    for_flake8: bool = False,
    progress: Callable[[int, int], None] | None = None,
    cache_for: Callable[[Project], FactsCache] | None = None,
) -> Result:
    """Check every Python file below `paths`, each with its project around it.

    `config_for(path)` gives the config of each path given; `texts` the text
    of files as given (flake8's lines, standard input), read from disk
    otherwise; `alone` analyses each file as a project of its own (no other
    file read, no cache); `progress(parsed, pending)` is told of the files
    parsed as they are. For flake8, `# noqa` and syntax errors are left to
    flake8, and a project is judged once per process. `cache_for(project)`
    gives the cache a caller keeps between runs (the language server's).
    """
    if _KEPT is not None:
        _KEPT.clear()  # a run of `--fix` after another: the one before is let go
    with few_collections(kept=_KEPT is not None):
        return _check(paths, config_for, texts, jobs, use_cache, alone, for_flake8, progress, cache_for)


_KEPT: list | None = None  # the workspaces of the last run, when `keep_workspaces` asked for them


def keep_workspaces() -> None:
    """Keep the workspaces of each run until the next, for a program that
    exits without freeing its objects (`cli.program`): a cold run of a
    thousand files would free millions, one at a time, as a run ends."""
    global _KEPT
    _KEPT = []


def _check(paths, config_for, texts, jobs, use_cache, alone, for_flake8, progress, cache_for) -> Result:
    from jaxcheck.loading.loader import Pool

    given = {os.path.abspath(path): text for path, text in (texts or {}).items()}
    groups: dict[Project, tuple[Config, dict[str, str]]] = {}  # project -> its config, its files (-> absolute path)
    seen: set[str] = set()
    result = Result()
    real_folders: dict[str, str] = {}  # folder -> its real path (`real_path`)
    projects: dict[str, Project] = {}  # folder -> the project of its files: found once a folder, not once a file
    listings: dict[tuple, Listing] = {}  # `_walk_key` -> the project's walk, when a folder given is the project
    for path in paths:
        config = config_for(path)
        unreadable: list[tuple[str, str]] = []
        if os.path.abspath(path) in given and not os.path.isdir(path):
            absolute = os.path.abspath(path)
            folders = [(os.path.dirname(absolute), [(path, absolute, real_path(path, real_folders))])]
        else:
            listing = None if alone else _project_walk(path, config, listings)
            folders = list(located_files(path, config.is_excluded, unreadable, real_folders, listing))
        result.skipped.extend(unreadable)
        for folder, files in folders:
            # A file is never a folder here: its project is its folder's, found once a folder.
            in_folder = None if alone else projects.get(folder) or projects.setdefault(folder, find_project(files[0][0]))
            group = None  # the folder's files' group, found once a folder (a project hashes all its fields)
            for file, absolute, real in files:
                if real in seen:
                    continue
                seen.add(real)
                why = "" if absolute in given else skipped_because(file)
                if why:
                    result.skipped.append((file, why))
                    continue
                result.files += 1
                result.checked.add(absolute)
                if alone or group is None:
                    project = Project.alone(file) if alone else in_folder
                    group = groups.get(project) or groups.setdefault(project, (config, {}))
                group[1][file] = absolute
    pool = Pool(jobs) if jobs > 1 else None
    try:
        for project, (config, files) in groups.items():
            cache = cache_for(project) if cache_for is not None and not alone else None
            _check_project(
                project, config, files, pool, use_cache and not alone, given, for_flake8, result, progress, cache,
                listings.get(_walk_key(project.root, config)),
            )
    finally:
        if pool is not None:
            pool.close()
    return result


_JUDGED: dict = {}  # for flake8, per process: project root -> its `_Judgement`


def _project_walk(path: str, config: Config, listings: dict[tuple, Listing]) -> Listing | None:
    """The walk of the project a folder given is (`project_files`), kept in
    `listings` for its loader (`_walk_key`): one walk of a big project, not two. None for
    a folder inside a project, or a folder of loose modules (the loader
    walks only its packages)."""
    if not os.path.isdir(path):
        return None
    project = find_project(path)
    if project.root != os.path.abspath(path) or project.loose:
        return None
    key = _walk_key(project.root, config)
    listing = listings.get(key)
    if listing is None:
        listing = listings[key] = project_files(project.root, config.is_excluded)
    return listing


def _walk_key(root: str, config: Config) -> tuple:
    """What a project's walk depends on: its folder, and what the config excludes."""
    return root, config.root, config.exclude


def _check_project(
    project, config, files, pool, use_cache, given, for_flake8, result, progress=None, cache=None, listing=None
) -> None:
    """The findings of the checked `files` of one project (as given -> their
    absolute paths), added to `result`; `listing`, the project's walk when
    the run made it."""
    from jaxcheck.loading.loader import Workspace

    config = config.for_project(project.root)
    checked = set(files.values())
    texts = {path: text for path, text in given.items() if path in checked}
    if for_flake8:
        workspace, results = _judged_for_flake8(project, config, texts, use_cache)
    else:
        if cache is None:
            cache = FactsCache(project.cache_folder if use_cache else None)
        if cache.refused:
            result.notes.append(f"the cache was not used: {cache.refused}; remove it to let jaxcheck make its own")
        workspace = Workspace(
            project, cache, pool, texts, list(files.values()), progress=progress, listing=listing, **_loading(config)
        )
        results = _project_results(workspace, config)
        workspace.check_syntax([path for path in files.values() if path not in results])
    result.analysed.update(workspace.facts)
    for file, path in files.items():
        findings, failed = _file_findings(workspace, results, file, path, for_flake8)
        result.internal_errors += failed
        # flake8 reads the comments itself; a text without `noqa` has none to judge.
        judge_noqa = not for_flake8 and config.is_enabled(UNUSED_NOQA, file) and workspace.may_have_noqa(path)
        if not findings and not judge_noqa:
            continue  # nothing to report: an unchanged file is not even read
        text = workspace.text(path)
        if judge_noqa:
            findings = findings + unused_noqa(file, text, findings)
        # flake8 reads a notebook named to it as JSON: `# noqa` in a cell is ours to honour.
        kept = _filtered(findings, text, file, config, honour_noqa=not for_flake8 or is_notebook(file))
        if kept and not for_flake8 and not is_notebook(file):  # a cell's line is not a line of the joined text
            result.texts[file] = text
        result.findings.extend(_in_cells(kept, workspace.notebooks))
    if not for_flake8:
        caused = _caused_by(workspace, results, checked, config, result.texts)
        result.findings.extend(_in_cells(caused, workspace.notebooks))
        workspace.save()
        if _KEPT is not None:
            _KEPT.append(workspace)


def _judged_for_flake8(project: Project, config: Config, texts: dict[str, str], use_cache: bool):
    """flake8 asks file by file: the project is judged once per process, from
    the cache when it is warm, and again when a checked file's text changes, or
    a file whose facts this process parsed or loaded changes. flake8 asks of a
    file once a run, so the files are looked at again (`stat`) when a file is
    asked of twice: once a run, not once a file. The judgement is kept
    without its facts: the collector would walk their millions of objects
    in each full collection of flake8's own, for every file checked after."""
    from jaxcheck.loading.loader import Workspace

    entry = _JUDGED.get(project.root)
    for path, text in list(texts.items()):
        known = entry.workspace.texts.get(path) if entry is not None else None
        known = _disk_text(path) if known is None else known
        if known is not None and _as_flake8_reads(known) == _as_flake8_reads(text):
            texts[path] = known  # the file as on disk: what the CLI and the cache saw
    # A file the judgement knew by its stamp was never read: its digest says what was judged.
    stale = entry is None or any(entry.workspace.judged_digest(path) != digest_of(text) for path, text in texts.items())
    if not stale and not entry.asked.isdisjoint(texts):  # another run of flake8 in this process
        entry.asked.clear()
        stale = entry.stamps != _stamps(entry.workspace.facts)
    if stale:
        cache = FactsCache(project.cache_folder if use_cache else None)
        workspace = Workspace(project, cache, texts=texts, **_loading(config))
        results = _project_results(workspace, config)
        workspace.save()
        workspace.drop_facts()
        entry = _JUDGED[project.root] = _Judgement(workspace, results, _stamps(workspace.facts), set())
    entry.asked.update(texts)
    return entry.workspace, entry.results


@dataclass
class _Judgement:
    """A project judged for flake8: its workspace, its findings by path, the
    `stat` of the files its facts came from, and the files asked of since."""

    workspace: object
    results: dict
    stamps: dict
    asked: set[str]


def _loading(config: Config) -> dict:
    """What the loader is told of the config: what to leave out, and what the findings depend on."""
    options = config.options
    # The profile too: LibCST confirms only what the profile reports (`_places`).
    return {"is_excluded": config.is_excluded, "keywords": options.keywords, "settings": repr((options, config.profile))}


def _project_results(workspace, config: Config) -> dict[str, tuple[list[Finding], bool]]:
    """The findings of every project file that has rule findings or a JAX000, by
    absolute path: from the cache when no file has changed since, or when
    only files the judgement did not read changed and none of them now
    takes part (`Workspace.loads_as`); else judged.

    Judged again while a file holding a finding had its facts from the quicker
    reader and LibCST's differ (`Workspace.confirm`): never, while the two agree."""
    files = workspace.files()
    fingerprint = workspace.fingerprint(files)
    stored = workspace.cache.load_results()
    if stored is not None:
        judged_as, outside, results = stored
        if judged_as == fingerprint and workspace.read_as(outside):
            return results
        loading = workspace.cache.load_loading()
        if loading is not None and workspace.loads_as(files, loading):  # only files that take no part changed
            workspace.cache.store_results(fingerprint, results, workspace.outside_walk(files, loading))
            return results
    workspace.build(files)
    results = _judged(workspace, config)
    while workspace.confirm(_places(workspace, results, config)):
        results = _judged(workspace, config)
    if workspace.cache.keeps_results:  # what decided the files read: only for a later run to ask
        loading = workspace.loading(files)
        workspace.cache.store_results(fingerprint, results, workspace.outside_walk(files, loading), loading)
    return results


def _places(workspace, results: dict, config: Config) -> set[str]:
    """The files the findings the profile reports are in, about, or point at
    (where a value became static), by absolute path."""
    by_display = {module.path: path for path, module in workspace.facts.items()}
    places = set()
    for path, (findings, _) in results.items():
        findings = [finding for finding in findings if not finding.strict_only or config.profile == "strict"]
        if findings:
            places.add(path)
        for finding in findings:
            places.update(by_display.get(shown, shown) for shown in finding.about)
            places.update(by_display.get(place.path, place.path) for place in finding.related)
    return places & set(workspace.facts)


def _judged(workspace, config: Config) -> dict[str, tuple[list[Finding], bool]]:
    """Every rule's findings on the workspace's facts, and its JAX000s, by absolute path."""
    from jaxcheck.model.project import Model

    with paused():
        model = Model(list(workspace.facts.values()), config.options, workspace.import_roots)
        results = {path: ([finding], path in workspace.internal_errors) for path, finding in workspace.bad.items()}
        by_display = {module.path: path for path, module in workspace.facts.items()}
        # A rule that fails is reported once, in the first file the model holds.
        first = workspace.facts[min(workspace.facts)].path if workspace.facts else None
        for rule in sorted(RULES, key=lambda rule: not rule.whole_program):
            # LibCST starts on the files of the findings so far, beside the rules still to run (`confirm`).
            workspace.confirm_soon(_places(workspace, results, config))
            try:
                with deep_recursion():
                    found = set(rule().check(model))
            except RecursionError:
                found = {Finding(first, 1, 1, BAD_INPUT, "cannot analyse: the code nests too deeply for jaxcheck")} if first else set()
            except Exception as error:  # a bug of ours must not cost the user the run
                if first is not None:
                    path = by_display[first]
                    findings, _ = results.get(path, ([], False))
                    results[path] = ([*findings, internal_error(first, error)], True)
                continue
            for finding in found:
                path = by_display.get(finding.path)
                if path is not None:
                    findings, failed = results.get(path, ([], False))
                    results[path] = ([*findings, finding], failed)
        return {path: (sorted(set(findings)), failed) for path, (findings, failed) in results.items()}


def _file_findings(workspace, results: dict, file: str, path: str, for_flake8: bool) -> tuple[list[Finding], bool]:
    """One file's findings (`path`: its absolute path), spelled with the path as the user gave it."""
    if path in results:
        findings, failed = results[path]
    else:
        problem = workspace.syntax_error(path, file)
        findings, failed = ([problem] if problem else []), False
    if for_flake8 and any(finding.message.startswith("cannot parse") for finding in findings) and _flake8_refuses(
        workspace.text(path)
    ):
        # flake8 reports what its parser refuses itself (E999); what only the compiler refuses is ours to say.
        findings = [finding for finding in findings if not finding.message.startswith("cannot parse")]
    return [_spelled(finding, file) for finding in findings], failed


def _spelled(finding: Finding, path: str) -> Finding:
    """The finding at `path`, its related places in the same file spelled the same way."""
    related = tuple(replace(item, path=path) if item.path == finding.path else item for item in finding.related)
    return replace(finding, path=path, related=related)


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


def _caused_by(workspace, results: dict, checked: set[str], config: Config, texts: dict[str, str]) -> list[Finding]:
    """Findings in files not checked, that a checked file makes findings: a
    static use added in `integrate.py` of a mutable class from `settings.py`
    fails `jaxcheck check integrate.py` (and the pre-commit hook) too."""
    from jaxcheck.loading.loader import display_path

    found = []
    for path, (findings, _) in sorted(results.items()):
        if path in checked:
            continue
        caused = [finding for finding in findings if any(os.path.abspath(file) in checked for file in finding.about)]
        if caused:
            shown = display_path(path)
            caused = [_spelled(finding, shown) for finding in caused]
            texts[shown] = workspace.text(path)
            found.extend(_filtered(caused, texts[shown], shown, config, honour_noqa=True))
    return found


def _in_cells(findings: list[Finding], notebooks: dict) -> list[Finding]:
    """Positions in a notebook's joined code cells as the cell and the line
    within it: the findings' own, their related places', and the `path:line`
    their messages name (`nb.ipynb:cell 3:2`). Done last: the cache and
    `# noqa` work on the joined text."""
    if not notebooks:
        return findings
    from jaxcheck.loading.loader import display_path

    shown = {display_path(path): notebook for path, notebook in notebooks.items()}
    named = re.compile(r"(?<![\w./\\-])(" + "|".join(map(re.escape, sorted(shown, key=len, reverse=True))) + r"):(\d+)(?!\d)")

    def spelled(match: re.Match) -> str:
        cell, line = shown[match[1]].position(int(match[2]))
        return f"{match[1]}:cell {cell}:{line}" if cell else match[0]

    mapped = []
    for finding in findings:
        notebook = notebooks.get(os.path.abspath(finding.path))
        if notebook is not None:
            cell, line = notebook.position(finding.line)
            finding = replace(finding, line=line, cell=cell)
        related = []
        for place in finding.related:
            notebook = notebooks.get(os.path.abspath(place.path))
            if notebook is not None:
                cell, line = notebook.position(place.line)
                place = replace(place, line=line, note=f"{place.note} (cell {cell})")
            related.append(place)
        message, fix = named.sub(spelled, finding.message), named.sub(spelled, finding.fix)
        mapped.append(replace(finding, related=tuple(related), message=message, fix=fix))
    return mapped


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


def _filtered(findings: list[Finding], text: str, path: str, config: Config, honour_noqa: bool) -> list[Finding]:
    """The findings the config asks for: its codes, its profile, and the `# noqa` comments."""
    if not findings:
        return findings
    lines = LINE_BREAK.split(text)
    kept = []
    for finding in findings:
        if not config.is_enabled(finding.code, path):
            continue
        if finding.strict_only and config.profile != "strict":
            continue
        line_text = lines[finding.line - 1] if 0 < finding.line <= len(lines) else ""
        if honour_noqa and finding.code != BAD_INPUT and is_suppressed(finding.code, line_text):
            continue
        kept.append(finding)
    return kept
