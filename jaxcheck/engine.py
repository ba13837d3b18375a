"""One engine for every front end: loading -> extraction -> model -> rules -> findings.

`check` finds the files to check and groups them by project; each project
is judged whole (`judge`): its files are loaded in waves, their facts
extracted, the model built from the facts, and every rule run over the model.
The findings of the checked files are then filtered by the config (codes,
profile) and `# noqa`. Nothing that goes wrong in one file stops the others:
it becomes a JAX000 finding in that file.
"""

from __future__ import annotations

import hashlib
import os
from contextlib import nullcontext
from dataclasses import dataclass, field, replace
from typing import Callable, Sequence

from jaxcheck import __version__
from jaxcheck.collector import few_collections
from jaxcheck.config import Config
from jaxcheck.failures import RULE_FAILED, deep_recursion, rule_error
from jaxcheck.findings import BAD_INPUT, Finding
from jaxcheck.loading.cache import Cache, project_cache_folder
from jaxcheck.loading.discovery import files_to_check
from jaxcheck.loading.files import Listing, display_path, inside, project_files
from jaxcheck.loading.loader import Loader
from jaxcheck.loading.notebook import is_notebook
from jaxcheck.loading.pool import Pool
from jaxcheck.loading.project import Project
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
    progress: Callable[[int, int], None] | None = None,
    cache_for: Callable[[Project], Cache] | None = None,
    pool: Pool | None = None,
) -> Result:
    """Check every Python file below `paths`, each with its project around it.

    `config_for(path)` gives the config of each path given; `texts` the text
    of files as given (standard input, an editor's unsaved buffers), read
    from disk otherwise; `alone` analyses each file as a project of its own
    (no other file read, no cache); `progress(read, pending)` is told of the
    files read as they are. A long-lived caller keeps its caches
    (`cache_for(project)`) and its `pool` between runs.
    """
    given = {os.path.abspath(path): text for path, text in (texts or {}).items()}
    found = files_to_check(paths, config_for, given, alone)
    result = Result(files=len(found.checked), checked=found.checked, skipped=found.skipped)
    with nullcontext(pool) if pool is not None else Pool(jobs) as workers:
        for project, group in found.groups.items():
            config = group.config.for_project(project.root)
            if alone:
                cache = Cache(None)
            elif cache_for is not None:
                cache = cache_for(project)
            else:
                cache = Cache(project_cache_folder(project.root) if use_cache and project.marked else None)
            if cache.refused:
                result.notes.append(f"the cache was not used: {cache.refused}")
            checked = list(group.files.values())
            own = {path: text for path, text in given.items() if path in group.files.values()}
            judgement = judge(project, config, cache, workers, own, checked, group.listing, progress)
            _report(judgement, group.files, config, result)
        if workers.note:
            result.notes.append(workers.note)
    return result


@dataclass
class Judgement:
    """A project judged: every rule's findings and the JAX000s of its files, by
    absolute path (with whether jaxcheck failed there), and the loader that read them."""

    results: dict[str, tuple[list[Finding], bool]]
    loader: Loader


def judge(
    project: Project,
    config: Config,
    cache: Cache,
    pool: Pool,
    texts: dict[str, str],
    checked: list[str],
    listing: Listing | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Judgement:
    """The findings of a project, for the `checked` files among its own:
    stored ones when nothing they depend on has changed, else judged anew.
    `texts` are the checked files' texts as given, by absolute path."""
    files, folders = _project_files(project, config, listing, checked, texts)
    loader = Loader(project, cache, pool, texts, config.options.keywords, progress, files, folders)
    with few_collections():
        fingerprint = _fingerprint(loader, files, folders, config)
        results = cache.results(fingerprint)
        if results is None:
            loader.load(files)  # loading and extraction
            results = _judged(loader, config)  # the model and the rules
            cache.store_results(fingerprint, results)
        for path, problem in loader.syntax_errors([path for path in checked if path not in results]).items():
            results[path] = ([problem], False)
        cache.save()
    return Judgement(_rule_failures_shown(results, loader, checked), loader)


def _rule_failures_shown(results: dict, loader: Loader, checked: list[str]) -> dict:
    """The results, a rule's failure moved to the first file checked when the
    model held it elsewhere: it must reach the user, and make the run exit 2."""
    shown = next((path for path in sorted(checked) if path in results or path in loader.facts), None)
    if shown is None:
        return results
    moved = {}
    for path, (findings, failed) in results.items():
        failures = [finding for finding in findings if finding.template.startswith(RULE_FAILED)]
        if failures and path not in checked:
            results = {**results, path: ([item for item in findings if item not in failures], failed)}
            moved.update(dict.fromkeys(failures))
    if moved:
        findings, _ = results.get(shown, ([], False))
        display = loader.facts[shown].path if shown in loader.facts else shown
        results[shown] = (sorted({*findings, *(replace(item, path=display) for item in moved)}), True)
    return results


def _project_files(
    project: Project, config: Config, listing: Listing | None, checked: list[str], texts
) -> tuple[list[str], list[str]]:
    """Every Python file of the project (a stub beside its module aside) and
    the files checked or given besides; and the folders its walk went through."""
    if project.only:
        return list(project.only), []
    if listing is None:
        listing = project_files(os.path.abspath(project.root), config.is_excluded, packages_only=project.loose)
    known = set(listing.every)
    # A link out of the project is not the project's: it is never read.
    outside = {path for path in listing.links if not inside(path, project.real_root)}
    files = [path for path in listing.every if not (path.endswith(".pyi") and path[:-1] in known) and path not in outside]
    return files + [path for path in dict.fromkeys([*checked, *texts]) if path not in known], sorted(listing.walked)


def _fingerprint(loader: Loader, files: list[str], folders: list[str], config: Config) -> str:
    """Changes when anything the findings depend on changes: a file's text,
    the files and folders of the project, jaxcheck, the settings, or the
    folder messages are relative to."""
    digest = hashlib.sha256(f"{__version__}\0{os.getcwd()}\0{config.options!r}\0{config.profile}".encode())
    digest.update("".join(f"\0{path}\0{loader.digest(path)}" for path in files).encode("utf-8", "surrogatepass"))
    digest.update("\1".join(folders).encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


def _judged(loader: Loader, config: Config) -> dict[str, tuple[list[Finding], bool]]:
    """Every rule's findings on the loaded facts, and the JAX000s, by absolute path."""
    from jaxcheck.model.project import Model

    model = Model(list(loader.facts.values()), config.options, loader.import_roots)
    results = {path: ([finding], path in loader.internal_errors) for path, finding in loader.bad.items()}
    by_display = {module.path: path for path, module in loader.facts.items()}
    # A rule that fails is reported once, in the first file the model holds.
    first = loader.facts[min(loader.facts)].path if loader.facts else None
    for rule in RULES:
        try:
            with deep_recursion():
                found = set(rule().check(model))
        except RecursionError:
            found = {Finding(first, 1, 1, BAD_INPUT, "cannot analyse: the code nests too deeply for jaxcheck")} if first else set()
        except Exception as error:  # a bug of ours must not cost the user the run
            if first is not None:
                path = by_display[first]
                findings, _ = results.get(path, ([], False))
                results[path] = ([*findings, rule_error(first, error)], True)
            continue
        for finding in found:
            path = by_display.get(finding.path)
            if path is not None:
                findings, failed = results.get(path, ([], False))
                results[path] = ([*findings, finding], failed)
    return {path: (sorted(set(findings)), failed) for path, (findings, failed) in results.items()}


def _report(judgement: Judgement, files: dict[str, str], config: Config, result: Result) -> None:
    """The findings of the checked `files` (as given -> absolute paths), and those
    in other files that the checked ones cause, filtered and added to `result`."""
    loader = judgement.loader
    result.analysed.update(loader.facts)
    checked = set(files.values())
    for file, path in files.items():
        findings, failed = judgement.results.get(path, ([], False))
        findings = [spelled(finding, file) for finding in findings]
        result.internal_errors += failed
        judge_noqa = config.is_enabled(UNUSED_NOQA, file) and "noqa" in loader.text(path).lower()
        if not findings and not judge_noqa:
            continue
        text = loader.text(path)
        if judge_noqa:
            findings = findings + unused_noqa(file, text, findings)
        kept = filtered(findings, text, file, config, honour_noqa=True)
        if kept and not is_notebook(file):  # a cell's line is not a line of the joined text
            result.texts[file] = text
        result.findings.extend(in_cells(kept, loader.notebooks))
    for path, (findings, _) in sorted(judgement.results.items()):
        if path in checked:
            continue
        # A static use added in `integrate.py` of a mutable class from `settings.py`
        # fails `jaxcheck check integrate.py` (and the pre-commit hook) too.
        caused = [finding for finding in findings if any(os.path.abspath(file) in checked for file in finding.about)]
        if caused:
            shown = display_path(path)
            result.texts[shown] = loader.text(path)
            caused = filtered([spelled(finding, shown) for finding in caused], result.texts[shown], shown, config, True)
            result.findings.extend(in_cells(caused, loader.notebooks))


def spelled(finding: Finding, path: str) -> Finding:
    """The finding at `path`, as the user's path spells it, and the places it
    names or relates spelled the same way (SPEC 4: one spelling per run): the
    same file as `path`, another with its `./`, or absolute when `path` is."""
    related = tuple(replace(item, path=_like(item.path, finding.path, path)) for item in finding.related)
    places = tuple(replace(place, path=_like(place.path, finding.path, path)) for place in finding.places)
    return replace(finding, path=path, related=related, places=places)


def _like(other: str, own: str, path: str) -> str:
    """`other`, a file a finding at `own` names, spelled as `path` spells `own`."""
    if other == own:
        return path
    if os.path.isabs(path):
        return os.path.abspath(other)
    if path.startswith("./") and not other.startswith(("./", "../", os.sep)) and not os.path.isabs(other):
        return "./" + other
    return other


def in_cells(findings: list[Finding], notebooks: dict) -> list[Finding]:
    """Positions in a notebook's joined code cells as the cell and the line
    within it: the findings' own, and those of the places they name and
    relate. Done last: the cache and `# noqa` work on the joined text."""
    if not notebooks:
        return findings
    mapped = []
    for finding in findings:
        notebook = notebooks.get(os.path.abspath(finding.path))
        if notebook is not None:
            cell, line = notebook.position(finding.line)
            finding = replace(finding, line=line, cell=cell)
        mapped.append(
            replace(
                finding,
                related=tuple(_in_cell(place, notebooks) for place in finding.related),
                places=tuple(_in_cell(place, notebooks) for place in finding.places),
            )
        )
    return mapped


def _in_cell(place, notebooks: dict):
    """A place (`Related`, `Place`) at its cell and line within it, when it is in a notebook."""
    notebook = notebooks.get(os.path.abspath(place.path))
    if notebook is None:
        return place
    cell, line = notebook.position(place.line)
    return replace(place, line=line, cell=cell)


def filtered(findings: list[Finding], text: str, path: str, config: Config, honour_noqa: bool) -> list[Finding]:
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
