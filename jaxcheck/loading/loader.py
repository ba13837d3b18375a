"""The facts of a whole project that its findings depend on, gathered in waves.

Reading is the cost, so a project is not read whole: what to read next is
decided from the facts already read (`references`), never from what a rule
would like to know:

1. the files that can hold a static use (the pre-filter's text test);
2. the files that use what those offer: their classes, decorated functions,
   functions applying a transform, names bound to calls;
3. the modules that define what 1 and 2 name, and, a wave at a time, the
   bases, fields and re-exports of what those define.

Names resolve to the files the project's walk found, and no others: a module
in a skipped folder (`venv/`) or through a link is not the project's. A
file's facts come from the cache when its text is unchanged, else from the
pool's workers (`read_module`).
"""

from __future__ import annotations

import os
import warnings
from dataclasses import replace
from typing import Iterable

from jaxcheck import facts as f
from jaxcheck.failures import deep_recursion, internal_error
from jaxcheck.findings import BAD_INPUT, Finding
from jaxcheck.loading.cache import Cache, digest_of, facts_key
from jaxcheck.loading.files import display_path
from jaxcheck.loading.notebook import Notebook, is_notebook, notebook_text, read_notebook
from jaxcheck.loading.pool import Pool
from jaxcheck.loading.prefilter import may_have_findings
from jaxcheck.loading.project import Project
from jaxcheck.loading.references import Reexports, Users, named_modules, offered_names
from jaxcheck.loading.source import SourceError, read_source
from jaxcheck.loading.syntax import parsed, syntax_error_of

_MAX_WAVES = 12
_MAX_REEXPORTS = 16


class Loader:
    """One project's files as this run reads them: their texts, their facts,
    and the JAX000 of each that cannot be read or parsed."""

    def __init__(
        self,
        project: Project,
        cache: Cache,
        pool: Pool,
        texts: dict[str, str] | None = None,
        keywords: tuple[str, ...] = (),
        progress=None,
        files: Iterable[str] = (),
        folders: Iterable[str] = (),
    ) -> None:
        self.project = project
        self.cache = cache
        self.pool = pool
        self.keywords = keywords  # names of configured transforms, for the pre-filter
        self.progress = progress  # told (files read, files to read) as the counts grow
        self.texts: dict[str, str] = {}  # absolute path -> its Python (a notebook's code cells joined)
        self.notebooks: dict[str, Notebook] = {}  # absolute path -> the notebook its text is the Python of
        self.facts: dict[str, f.ModuleFacts] = {}  # absolute path -> facts
        self.bad: dict[str, Finding] = {}  # absolute path -> its JAX000
        self.internal_errors: set[str] = set()
        self.import_roots: dict[str, str] = {}  # top-level name -> its module, imported from a folder inside
        self.digests: dict[str, str] = {}  # absolute path -> the digest of its text, as this run knows it
        self._given = set(texts or ())
        # What the project's walk found: names resolve to these files only, so
        # that the findings depend on nothing the fingerprint does not count.
        self._files = set(files)
        self._folders = {folder.rstrip(os.sep) for folder in folders}
        self._files_of: dict[str, str | None] = {}  # global name -> the project file of its module
        self._modules: dict[str, tuple[str | None, bool]] = {}  # module -> `_module`
        for path, text in (texts or {}).items():
            self._keep(path, text)

    # Texts

    def text(self, path: str) -> str:
        """The file's Python: a module's text, a notebook's code cells joined ("" when it cannot be read)."""
        if path not in self.texts:
            try:
                if is_notebook(path):
                    self._keep(path, notebook_text(path))
                else:
                    status = _stat(path)  # before the read: an edit after it changes the stamp
                    self._keep(path, read_source(path))
                    self.cache.observe(path, status, self.digest(path))
            except SourceError as error:
                self._refused(path, error)
        return self.texts[path]

    def digest(self, path: str) -> str:
        """The digest of the file's text: from its stamp when unchanged, else read."""
        found = self.digests.get(path)
        if found is None:
            if path not in self.texts and path not in self._given:
                found = self.cache.known_digest(path)
            if found is None:
                text = self.text(path)
                found = self.digests.get(path) or digest_of(text)  # a file refused has the digest of why
            self.digests[path] = found
        return found

    def _keep(self, path: str, text: str) -> None:
        if not is_notebook(path):
            self.texts[path] = text
            return
        try:
            notebook = self.notebooks[path] = read_notebook(text)
        except SourceError as error:
            self._refused(path, error)
        else:
            self.texts[path] = notebook.python

    def _refused(self, path: str, error: SourceError) -> None:
        """A file that cannot be read: its JAX000, and a digest of why (an empty file is not an unreadable one)."""
        self.texts[path] = ""
        self.bad[path] = Finding(display_path(path), 1, 1, BAD_INPUT, str(error))
        self.digests[path] = digest_of(f"\0cannot be read\0{error}")

    # Waves

    def load(self, files: list[str]) -> None:
        """Read the facts the findings of the project's `files` depend on (the module docstring's waves)."""
        keywords = self.keywords
        self.import_roots = self.project.import_roots(files)
        reexports = Reexports(self.import_roots, _MAX_REEXPORTS)
        taking_part = [path for path in files if path not in self.bad and may_have_findings(self.text(path), keywords)]
        self._read(taking_part)
        offered = {module.module: offered_names(module) for module in self.facts.values()}
        if any(offered.values()):
            users = Users(offered)
            others = [path for path in files if path not in self.facts and path not in self.bad]
            using = [path for path in others if users.used_by(self.text(path))]
            self._read(using)
            taking_part += using
        whole = set(taking_part)
        named: set[str] = set()
        done = 0
        for _ in range(_MAX_WAVES):
            new = list(self.facts.items())[done:]  # read in the last wave, in the order they were kept
            done += len(new)
            for path, module in new:
                named |= named_modules(module, whole=path in whole)
            reexports.add([module for _, module in new])  # re-exports read now may point earlier names elsewhere
            wanted = self._modules_for(reexports.followed(named))
            if not wanted:
                break
            self._read(wanted)

    def _modules_for(self, names: set[str]) -> list[str]:
        """The project files not read yet that define the modules of these global names."""
        wanted = []
        for name in sorted(names):
            path = self._file_of(name)
            if path is not None and path not in self.facts and path not in self.bad and path not in wanted:
                wanted.append(path)
        return wanted

    def _file_of(self, name: str) -> str | None:
        """The project file of the longest module prefix of the dotted name, if
        any. Prefixes are looked up from the shortest, as long as the project
        has a folder of the last one: no longer prefix can have a file where
        no folder holds it."""
        if name in self._files_of:
            return self._files_of[name]
        found = None
        module = ""
        for part in name.split("."):
            module = f"{module}.{part}" if module else part
            path, holds = self._module(module)
            found = path or found
            if not holds:
                break
        self._files_of[name] = found
        return found

    def _module(self, module: str) -> tuple[str | None, bool]:
        """The project file of a module (None if it has none), and whether the
        project has a folder of it; asked once a module, for all the names in it."""
        known = self._modules.get(module)
        if known is None:
            paths = self.project.module_paths(module, self._files.__contains__)
            holds = self.project.holds_modules(module, lambda folder: folder.rstrip(os.sep) in self._folders)
            known = self._modules[module] = (os.path.abspath(paths[0]) if paths else None, holds)
        return known

    # Reading

    def _read(self, paths: list[str]) -> None:
        """Facts for each path: from the cache, else read by the pool."""
        pending = []
        for path in paths:
            if path in self.facts or path in self.bad:
                continue
            digest = self.digest(path)
            if path in self.bad:
                continue
            module, is_package = self.project.module_name(path)
            key = facts_key(digest, module, is_package)
            cached = self.cache.facts(key)  # kept only for texts Python accepts
            if cached is not None:
                self.facts[path] = _with_path(cached, display_path(path))
                continue
            pending.append((path, key, (display_path(path), self.text(path), module, is_package)))
        if not pending:
            return
        if self.progress is not None:
            self.progress(0, len(pending))
        told = (lambda: self.progress(1, 0)) if self.progress is not None else (lambda: None)
        outcomes = self.pool.map(read_module, [job for _, _, job in pending], told)
        for (path, key, _), (facts, problem, internal) in zip(pending, outcomes):
            if facts is not None:
                self.facts[path] = facts
                self.cache.store_facts(key, facts)
                self.cache.mark_valid(self.digest(path))
            else:
                self.bad[path] = problem
                if internal:
                    self.internal_errors.add(path)

    def syntax_errors(self, paths: list[str]) -> dict[str, Finding]:
        """The JAX000 of each of these files that cannot be read or that Python
        refuses: those not read for facts are asked of Python's parser now
        (in the pool, for many), unless an earlier run saw their text pass."""
        found, pending = {}, []
        for path in paths:
            if path in self.facts:
                continue
            digest = self.digest(path)
            if path in self.bad:
                found[path] = self.bad[path]
            elif not self.cache.known_valid(digest):
                pending.append(path)
        verdicts = self.pool.map(_syntax_job, [(self.text(path), display_path(path)) for path in pending])
        for path, problem in zip(pending, verdicts):
            if problem is None:
                self.cache.mark_valid(self.digest(path))
            else:
                found[path] = problem
        return found


def read_module(job: tuple[str, str, str, bool]) -> tuple[f.ModuleFacts | None, Finding | None, bool]:
    """(facts, None, False) of a text Python accepts; else (None, its JAX000,
    whether jaxcheck itself failed). Run in the pool's workers."""
    from jaxcheck.extraction import facts_from_source

    path, text, module, is_package = job
    tree, problem = parsed(text, path)
    if problem is not None:
        return None, problem, False
    try:
        with deep_recursion(), warnings.catch_warnings():
            warnings.simplefilter("ignore")  # what Python says of the user's code (an invalid escape) is not ours to print
            if tree is None:  # an expression too long or deep for `ast.parse`, which the compiler accepts
                return None, Finding(path, 1, 1, BAD_INPUT, "cannot analyse: the code nests too deeply for jaxcheck"), False
            return facts_from_source(text, path, module, is_package, tree), None, False
    except RecursionError:
        return None, Finding(path, 1, 1, BAD_INPUT, "cannot analyse: the code nests too deeply for jaxcheck"), False
    except Exception as error:  # a bug of ours must not cost the user the run
        return None, internal_error(path, error), True


def _syntax_job(job: tuple[str, str]) -> Finding | None:
    return syntax_error_of(*job)


def _stat(path: str) -> os.stat_result | None:
    try:
        return os.stat(path)
    except OSError:
        return None


def _with_path(facts: f.ModuleFacts, path: str) -> f.ModuleFacts:
    return facts if facts.path == path else replace(facts, path=path)
