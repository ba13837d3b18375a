"""The facts of a whole project that its findings depend on, gathered in waves.

Parsing is the cost, so a project is not parsed whole: what to read next is
decided from the facts already read (`references`), never from what the
analysis would like to know. Facts come from the on-disk cache when the file
is unchanged.
"""

from __future__ import annotations

import hashlib
import importlib
import os
import warnings
from dataclasses import replace
from typing import TYPE_CHECKING

from jaxcheck import __version__
from jaxcheck import facts as f
from jaxcheck.collector import in_worker
from jaxcheck.failures import deep_recursion, internal_error
from jaxcheck.findings import BAD_INPUT, Finding
from jaxcheck.loading import lanes
from jaxcheck.loading.cache import FactsCache, cache_key
from jaxcheck.loading.codec import decode, encode
from jaxcheck.loading.files import Listing, project_files
from jaxcheck.loading.notebook import Notebook, is_notebook, notebook_text, read_notebook
from jaxcheck.loading.prefilter import may_have_findings
from jaxcheck.loading.project import CACHE_FOLDER, Project
from jaxcheck.loading.references import Reexports, Users, named_modules, offered_names
from jaxcheck.loading.source import SourceError, read_source
from jaxcheck.loading.stamps import NOQA, TAKING_PART, USER, Stamps, digest_of
from jaxcheck.loading.syntax import ASK_LIBCST, parsed, syntax_error_of, without_lone_continuations

if TYPE_CHECKING:
    from concurrent.futures import Future, ProcessPoolExecutor

_MAX_WAVES = 12
_MAX_REEXPORTS = 16
_MIN_FILES_PER_WORKER = 8
_CHUNK = 16  # files per job of a text test (syntax, users) shared with other processes: fewer round trips


# What the walk knows of a folder (`Workspace._walk_state`).
_WALKED, _LISTED, _ABSENT = "walked", "listed", "absent"


def display_path(path: str) -> str:
    """How messages name another file: relative to the working folder when below it."""
    absolute = os.path.abspath(path)
    below = os.path.join(os.getcwd(), "")
    if absolute.startswith(below):  # asked of every file loaded: what `relpath` would say, without its splitting
        return absolute[len(below) :]
    relative = os.path.relpath(absolute)
    return path if relative.startswith("..") else relative


class Workspace:
    """One project's modules: their text, their facts, and what could not be read."""

    def __init__(
        self,
        project: Project,
        cache: FactsCache,
        pool: Pool | None = None,
        texts=None,
        checked=(),
        is_excluded=lambda path, is_dir: False,
        keywords: tuple[str, ...] = (),
        settings: str = "",
        progress=None,
        listing: Listing | None = None,
    ) -> None:
        self.project = project
        self.is_excluded = is_excluded  # the config's `exclude`
        self.keywords = keywords  # names of configured transforms, for the pre-filter
        self.settings = settings  # what else the findings depend on: the analysis settings, as text
        self.cache = cache
        self.stamps = Stamps(cache, keywords)  # what is known of unchanged files without reading them
        self._digests: dict[str, str] = {}  # absolute path -> its text's digest
        self.pool = pool  # worker processes for parsing, when the run has more than one
        self.texts: dict[str, str] = {}  # absolute path -> Python text, given ones first
        self.notebooks: dict[str, Notebook] = {}  # absolute path -> the notebook its text is the Python of
        self.facts: dict[str, f.ModuleFacts | None] = {}  # absolute path -> facts (None once `drop_facts` let them go)
        self.bad: dict[str, Finding] = {}  # absolute path -> JAX000
        self.internal_errors: set[str] = set()
        self.checked = list(checked)  # absolute paths of the files named by the user, whatever their suffix
        self.import_roots: dict[str, str] = {}  # top-level name -> its module, imported from a folder inside
        self.progress = progress  # told (files parsed, files to parse) as the counts grow, for a progress line
        for path, text in (texts or {}).items():
            self._keep(path, text)
        self._module_paths: dict[str, list[str]] = {}  # module -> its files: each wave asks again for every name
        self._module_folders: dict[str, bool] = {}  # module -> whether the project has a folder of it
        self._name_paths: dict[str, str | None] = {}  # global name -> the file of its module, None if outside
        self._settled: set[str] = set()  # global names whose module is outside the project, or loaded
        self._reexports = Reexports({}, _MAX_REEXPORTS)  # the names' chains of re-exports, kept across waves (`build`)
        self._reexported = 0  # how many of the facts `_canonical` told `_reexports` of
        self._syntax_asked: dict[str, Future] = {}  # path -> the workers' verdict, asked while the model runs
        self._syntax_sent: tuple[list, lanes.Sent] | None = None  # chunks sent to the helper, its verdicts not taken in
        self._refusals: dict[str, Finding] = {}  # path -> the JAX000 of a text Python refused, asked in lanes
        self.quick: set[str] = set()  # paths whose facts `ast` gave and LibCST has not confirmed (`confirm`)
        self._keys: dict[str, str] = {}  # path -> the cache key of its facts
        self._valid: set[str] = set()  # paths whose text Python accepted, in this run or one the cache recalls
        self._walked: Listing | None = listing  # `_listing`: the project's walk, when the run walked it already
        self._listed_set: set[str] | None = None  # `_listed`
        self._offered: dict[str, set[str]] = {}  # module -> what it offers its users (`build`)
        self._confirming: dict = {}  # path -> (the children reading it with LibCST, its index there): `confirm_soon`
        self._noted_names: dict[str, set[str]] = {}  # display path -> `named_modules` of facts read in a wave
        self._noted_offers: dict[str, set[str]] = {}  # display path -> `offered_names` of facts read in a wave

    def files(self) -> list[str]:
        """Every Python file of the project, and the files named or given besides."""
        if self.project.only:
            return list(self.project.only)
        files = self._listing().checked
        known = set(files)
        # A stub beside its module describes the same module: the module speaks for it.
        files = [path for path in files if not (path.endswith(".pyi") and path[:-1] in known)]
        return files + [path for path in dict.fromkeys([*self.checked, *self.texts]) if path not in known]

    def fingerprint(self, files: list[str]) -> str:
        """Changes when anything the project's findings depend on changes: a
        file's text, the set of files, the folders the walk found (where
        names resolve: `_walk_state`), jaxcheck, the configured transforms and
        classes, or the folder messages are relative to.

        Excluded files count too: a class or base they define is still read.
        """
        digest = hashlib.sha256(self._base().encode())
        everything = self._everything()
        named = "".join(f"\0{path}\0{self.digest(path)}" for path in dict.fromkeys([*files, *everything]))
        # The cache's own folder holds no module: the run that makes it leaves the fingerprint as it was.
        folders = ((folder, sorted(names - {CACHE_FOLDER})) for folder, names in self._walked_folders().items())
        named += "".join(f"\1{folder}\0{'/'.join(names)}" for folder, names in folders)
        digest.update(named.encode("utf-8", "surrogatepass"))  # hashed at once: one call, not two a file
        return digest.hexdigest()

    def _base(self) -> str:
        """What the findings depend on besides the files: jaxcheck, the settings, the folder messages are relative to."""
        return f"{__version__}\0{os.getcwd()}\0{self.settings}"

    def _listing_digest(self, files: list[str]) -> str:
        """The digest of which files the project has, not of their texts, and where its modules are named from."""
        everything = self._everything()
        listed = "\0".join(self.project.source_roots) + "\1" + "\0".join(files) + "\1" + "\0".join(everything)
        return digest_of(self._base() + "\1" + listed)

    def loading(self, files: list[str]) -> dict:
        """What decided which files `build` read, for `loads_as` to ask of a
        later run: the files of the project, the texts of those read, what
        the taking-part files offer to their users, the import roots, and
        what each module name looked up resolved to. The walk answers most
        lookups: for those, what it said of the folders they asked about
        (`walk`), and the listing speaks for their files; the others (a link,
        a skipped folder) are asked of the disk again."""
        lookups, folders, walk = {}, {}, {}
        for module, paths in self._module_paths.items():
            if not self._walk_answers(module, False, walk):
                lookups[module] = paths
        for module, held in self._module_folders.items():
            if not self._walk_answers(module, True, walk):
                folders[module] = held
        return {
            "base": self._base(),
            "listing": self._listing_digest(files),
            "read": {path: self.digest(path) for path in [*self.facts, *self.bad]},
            "bad": list(self.bad),
            "offered": {module: sorted(names) for module, names in self._offered.items() if names},
            "import_roots": self.import_roots,
            "lookups": lookups,
            "folders": folders,
            "walk": walk,
        }

    def outside_walk(self, files: list[str], loading: dict) -> dict:
        """What the judgement read from outside the project's walk (through a
        link, in a skipped folder), which the fingerprint does not speak for:
        the digests of those files, and the lookups the walk does not answer."""
        listed = {*files, *self._everything()}
        read = {path: digest for path, digest in loading["read"].items() if path not in listed}
        return {"read": read, "lookups": loading["lookups"], "folders": loading["folders"]}

    def read_as(self, outside: dict) -> bool:
        """Whether what the judgement read from outside the walk (`outside_walk`) is as it was."""
        return all(self.digest(path) == digest for path, digest in outside["read"].items()) and self._looks_up_as(outside)

    def _looks_up_as(self, loading: dict) -> bool:
        """Whether the lookups the walk does not answer find what they found for `loading`."""
        is_dir = self._is_dir()
        is_file = self._is_file(is_dir)
        return all(self.project.module_paths(module, is_file) == paths for module, paths in loading["lookups"].items()) and all(
            self.project.holds_modules(module, is_dir) == held for module, held in loading["folders"].items()
        )

    def _is_file(self, is_dir):
        """`os.path.isfile` for the paths a lookup tries, answered from the walk
        where it can (`_walk_file`), asked of the disk elsewhere: a link, a
        skipped folder (`is_dir` asked of the folder first, once)."""
        folders: dict[str, bool] = {}

        def is_file(path: str) -> bool:
            known = self._walk_file(path)
            if known is not None:
                return known
            folder = os.path.dirname(path)
            found = folders.get(folder)
            if found is None:
                found = folders[folder] = is_dir(folder)
            return found and os.path.isfile(path)

        return is_file

    def _is_dir(self):
        """`os.path.isdir` for the folders a lookup tries, answered from the walk
        where it can (`_walk_folder`), asked of the disk elsewhere."""

        def is_dir(path: str) -> bool:
            known = self._walk_folder(path)
            return known if known is not None else os.path.isdir(path)

        return is_dir

    def _walk_file(self, path: str) -> bool | None:
        """Whether the path is a Python file, as the walk tells (it listed every
        Python file of the folders it walked, and the folders in them); None
        where it cannot tell."""
        state = self._walk_state(os.path.dirname(path))
        if state == _WALKED:
            return path in self._listed()
        return False if state == _ABSENT else None

    def _walk_folder(self, path: str) -> bool | None:
        """Whether the path is a folder, as the walk of the folder holding it
        tells; None where it walked no such folder."""
        state = self._walk_state(path)
        return None if state is None else state != _ABSENT

    def _walk_state(self, folder: str) -> str | None:
        """What the walk knows of a folder: walked, listed in a folder walked
        (and not walked: a link, a skipped folder), or absent from one; None
        where it walked no folder holding it."""
        walked = self._walked_folders()
        if folder.rstrip(os.sep) in walked:
            return _WALKED
        parent, name = os.path.split(folder.rstrip(os.sep))
        names = walked.get(parent)
        if names is None:
            return None
        return _LISTED if name in names else _ABSENT

    def _walk_answers(self, module: str, folder: bool, walk: dict[str, str]) -> bool:
        """Whether the walk answers every question the lookup of the module's
        files (or, `folder`, of its folder) asks; if so, what it said of each
        folder asked about goes into `walk`. While the walk says the same of
        them and lists the same files, the lookup's answer stands (`loads_as`)."""
        states: dict[str, str | None] = {}
        answered = True

        def is_file(path: str) -> bool:
            nonlocal answered
            states[os.path.dirname(path)] = self._walk_state(os.path.dirname(path))
            known = self._walk_file(path)
            answered = answered and known is not None
            return bool(known)

        def is_dir(path: str) -> bool:
            nonlocal answered
            states[path.rstrip(os.sep)] = self._walk_state(path)
            known = self._walk_folder(path)
            answered = answered and known is not None
            return bool(known)

        if folder:
            self.project.holds_modules(module, is_dir)
        else:
            self.project.module_paths(module, is_file)
        if answered:
            walk.update(states)
        return answered

    def _listed(self) -> set[str]:
        """Every file the walk found, as a set (`_walk_file`)."""
        if self._listed_set is None:
            self._listed_set = set(self._everything())
        return self._listed_set

    def loads_as(self, files: list[str], loading: dict) -> bool:
        """Whether `build` would read the same files with the same texts as
        when `loading` was recorded, so that the findings judged then stand.

        `build` chooses from the texts of the files it reads (unchanged here),
        from the list of files (the same) and from the pre-filter's and the
        users' verdicts on the others: when no other file takes part or uses
        what is offered, an edit there changes no finding, and the project is
        not judged again. An editor's save in a monorepo is most often such
        a file. Each verdict is kept by digest: only the edited texts are read.
        When they would, `facts` names the files that took part (without their
        facts, as `drop_facts` leaves them), for `Result.analysed` and flake8's
        stamps; the users' verdicts are under the recorded pattern either way.
        """
        if loading["base"] != self._base() or loading["listing"] != self._listing_digest(files):
            return False
        read = loading["read"]
        if any(self.digest(path) != digest for path, digest in read.items()):
            return False
        offered = loading["offered"]
        users = Users({module: set(names) for module, names in offered.items()}) if offered else None
        if users is not None:
            self.stamps.use_pattern(digest_of(users.key))
        keywords = self.keywords
        for path in files:
            if path in read:
                continue
            if self.verdict(path, TAKING_PART, lambda text: may_have_findings(text, keywords)):
                return False
            if users is not None and self.verdict(path, USER, users.used_by):
                return False
        if not all(path in read for path in self.bad):
            return False
        if self.project.import_roots(files) != loading["import_roots"]:
            return False
        if any(self._walk_state(folder) != state for folder, state in loading["walk"].items()):
            return False
        if not self._looks_up_as(loading):
            return False
        bad = set(loading["bad"])
        self.facts = {path: None for path in read if path not in bad}  # who took part, as `drop_facts` keeps it
        return True

    def _everything(self) -> list[str]:
        """Every file the walk found, excluded or not; none for a project of given files only."""
        return [] if self.project.only else self._listing().every

    def _walked_folders(self) -> dict[str, set[str]]:
        """The folders walked, each with the folders in it; none for a project of given files only."""
        return {} if self.project.only else self._listing().walked

    def _listing(self) -> Listing:
        """The project's files not excluded, every one, and the folders walked
        (`project_files`), by absolute path: walked once a run, for the files,
        the fingerprint and the lookups."""
        if self._walked is None:
            root = os.path.abspath(self.project.root)  # below an absolute root, the walk's paths are absolute
            self._walked = project_files(root, self.is_excluded, packages_only=self.project.loose)
        return self._walked

    def build(self, files: list[str]) -> list[f.ModuleFacts]:
        """The facts the project's findings depend on, read from the facts themselves:

        1. the files that can hold a static use (the pre-filter's text);
        2. the files that use what those offer: their classes, decorated
           functions, functions applying a transform, names bound to calls;
        3. the modules that define what 1 and 2 name, and, a wave at a time,
           the bases, fields and re-exports of what those define.
        """
        if self.pool is not None:
            self.pool.start_helper()
        keywords = self.keywords
        self.import_roots = self.project.import_roots(files)
        self._reexports, self._reexported = Reexports(self.import_roots, _MAX_REEXPORTS), 0

        def may_take_part(text: str) -> bool:
            return may_have_findings(text, keywords)

        self._judge_in_lanes(files, TAKING_PART, may_take_part)
        taking_part = [path for path in files if self.verdict(path, TAKING_PART, may_take_part)]
        self._load(taking_part, whole=True, offering=True)
        offered = self._offered = {module.module: self._offered_by(module) for module in self.facts.values()}
        if any(offered.values()):
            test = Users(offered)
            self.stamps.use_pattern(digest_of(test.key))
            others = [path for path in files if path not in self.facts]
            self._judge_in_lanes(others, USER, test.used_by)
            users = [path for path in others if self.verdict(path, USER, test.used_by)]
            self._load(users, whole=True)
            taking_part += users
        whole = set(taking_part)
        done: set[str] = set()
        named: set[str] = set()
        for _ in range(_MAX_WAVES):
            for path, module in list(self.facts.items()):
                if path not in done:
                    done.add(path)
                    named |= self._named_by(module, whole=path in whole)
            # Re-exports read in this wave may point names of earlier waves elsewhere.
            wanted = self._modules_for(self._canonical(named))
            if not wanted:
                break
            self._load(wanted)
        self._reexports = Reexports({}, _MAX_REEXPORTS)  # its chains serve the build only: not kept while the rules run
        self._start_syntax_check()
        return list(self.facts.values())

    def _named_by(self, module: f.ModuleFacts, whole: bool) -> set[str]:
        """`named_modules`, as found when the module was read (`_noted`), else now."""
        noted = self._noted_names.pop(module.path, None)
        return noted if noted is not None else named_modules(module, whole)

    def _offered_by(self, module: f.ModuleFacts) -> set[str]:
        """`offered_names`, as found when the module was read (`_noted`), else now."""
        noted = self._noted_offers.pop(module.path, None)
        return noted if noted is not None else offered_names(module)

    def _noted(self, whole: bool, offering: bool):
        """What `build` asks of the facts of a file read in a wave, found as
        each comes (`then` of `_parsed`): between the files this process
        reads beside its children, which take more of them meanwhile, not
        after the last. So are the re-exports its names pass through, as far
        as the files read so far tell, and the files of their modules; and
        the chains the file's imports change are followed again at once: the
        next wave's choice follows none again, unless a module had two files."""

        def note(outcome) -> None:
            facts = outcome[0]
            if facts is not None:
                names = self._noted_names[facts.path] = named_modules(facts, whole)
                for name in self._reexports.follow([*self._reexports.add([facts]), *names]):
                    self._file_of(name)
                if offering:
                    self._noted_offers[facts.path] = offered_names(facts)

        return note

    def _judge_in_lanes(self, paths: list[str], which: int, judge) -> None:
        """`judge(text)` of each file whose verdict `which` no run has kept,
        asked by this process beside forked children (`lanes`) when there are
        many, and kept (`verdict` then answers). Text only, no LibCST: no
        child can crash."""
        if self.pool is None or not lanes.can_fork():
            return
        paths = [path for path in paths if path not in self.bad and not self.stamps.knows(self.digest(path), which)]
        if len(paths) < 2 * _MIN_FILES_PER_WORKER:
            return
        chunks = [paths[start : start + _CHUNK] for start in range(0, len(paths), _CHUNK)]

        def judged(chunk: list[str]) -> list[bool]:
            return [judge(self.text(path)) for path in chunk]

        for chunk, verdicts in zip(chunks, lanes.shared(chunks, judged, judged, lambda sent: sent, self.pool.workers - 1)):
            for path, verdict in zip(chunk, verdicts if verdicts is not lanes.MISSING else ()):
                self.stamps.verdict(self.digest(path), which, lambda: verdict)

    def _canonical(self, names: set[str]) -> set[str]:
        """The names with re-exports followed, as far as the loaded `__init__.py` files tell
        (`Reexports`). It is told again of the modules loaded since the last
        wave, in the order the facts are kept: of two files of one module, the
        later counts, whatever order the wave read them in."""
        loaded = list(self.facts.values())
        self._reexports.add(loaded[self._reexported :])
        self._reexported = len(loaded)
        return self._reexports.followed(names)

    def text(self, path: str) -> str:
        """The file's Python: a module's text, a notebook's code cells joined."""
        if path not in self.texts:
            try:
                if is_notebook(path):
                    self._keep(path, notebook_text(path))
                else:
                    status = _stat(path)  # before the read: an edit after it changes the stamp
                    self._keep(path, read_source(path))
                    digest = self._digests.setdefault(path, digest_of(self.texts[path]))
                    self.stamps.observe(path, status, digest)
            except SourceError as error:
                self._refused(path, error)
        return self.texts[path]

    def judged_digest(self, path: str) -> str | None:
        """The digest the file was known by when it was last looked at, None if it never was."""
        return self._digests.get(path)

    def digest(self, path: str) -> str:
        """The digest of the file's text (`digest_of`): from its stamp when unchanged, else read."""
        found = self._digests.get(path)
        if found is None:
            found = None if path in self.texts else self.stamps.known(path)
            if found is None:
                text = self.text(path)
                found = self._digests.get(path) or digest_of(text)  # a file refused has the digest of why
            self._digests[path] = found
        return found

    def verdict(self, path: str, which: int, judge) -> bool:
        """A verdict of the loader on the file's text (`stamps.TAKING_PART`, ...),
        `judge(text)` asked only when no run has judged this text before."""
        if path in self.bad:
            return False
        digest = self.digest(path)
        return path not in self.bad and self.stamps.verdict(digest, which, lambda: judge(self.text(path)))

    def may_have_noqa(self, path: str) -> bool:
        """Whether the file's text holds `noqa`: without one, JAX001 has nothing to judge."""
        return self.verdict(path, NOQA, lambda text: "noqa" in text.lower())

    def save(self) -> None:
        """Keep what this run learnt for the next: the cache's entries, and the files' stamps."""
        self.stamps.save()
        self.cache.save()

    def drop_facts(self) -> None:
        """Keep which files took part, not their facts: for a judgement kept
        after the model is gone, which the collector would walk again and again."""
        self.facts = dict.fromkeys(self.facts)

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
        """A file that cannot be read: its JAX000, and a digest of why, not of an
        empty text (an empty file is not an undecodable one)."""
        self.texts[path] = ""
        self.bad[path] = Finding(display_path(path), 1, 1, BAD_INPUT, str(error))
        self._digests[path] = digest_of(f"\0cannot be read\0{error}")

    def syntax_error(self, path: str, shown_as: str | None = None) -> Finding | None:
        """The file's JAX000 for a syntax error, Python's parser asked once per text."""
        if path in self._valid:  # what `check_syntax` found, asked of every file of a warm run
            return None
        self._take_in_syntax()
        digest = self.digest(path)
        if path in self.bad:
            return self.bad[path]
        if self._known_valid(path):
            return None
        if path in self._refusals:  # Python's verdict, asked by another process
            return replace(self._refusals[path], path=shown_as or display_path(path))
        problem = syntax_error_of(self.text(path), shown_as or display_path(path))
        if problem is None:
            self.cache.mark_valid(digest)
        return problem

    def _known_valid(self, path: str) -> bool:
        return path in self._valid or self.cache.known_valid(self.digest(path))

    def check_syntax(self, paths: list[str]) -> None:
        """Ask Python's parser about each text not known valid, in the pool for
        many: `syntax_error` then answers from the cache. The checked files the
        build did not parse were asked already (`_start_syntax_check`)."""
        self._take_in_syntax()
        pending = []
        for path in paths:
            if path in self.bad or path in self._refusals:
                continue
            if self._known_valid(path):
                self._valid.add(path)
            else:
                pending.append(path)
        asked, self._syntax_asked = self._syntax_asked, {}
        if self.pool is not None and len([path for path in pending if path not in asked]) >= 2 * _MIN_FILES_PER_WORKER:
            asked.update(self._ask_syntax([path for path in pending if path not in asked]))
        if not asked:
            return
        from concurrent.futures.process import BrokenProcessPool  # asked only of a pool: a run of one process never loads it

        try:
            for path in pending:
                future = asked.get(path)
                if future is not None and future.result()[path] is None:
                    self._valid.add(path)
                    self.cache.mark_valid(self.digest(path))
        except BrokenProcessPool:
            self.pool.reset()  # `syntax_error` asks in this process instead
        for future in asked.values():
            future.cancel()

    def _start_syntax_check(self) -> None:
        """Python's verdict on the checked files not parsed, asked of the
        helper or the pool's workers while this process runs the model (else
        shared with forked children now)."""
        if self.pool is None:
            return
        pending = [
            path
            for path in self.checked
            if path not in self.facts and path not in self.bad and not self._known_valid(path)
        ]
        if len(pending) >= 2 * _MIN_FILES_PER_WORKER and lanes.can_fork():
            self._check_syntax_in_lanes(pending)
        elif len(pending) >= 2 * _MIN_FILES_PER_WORKER:
            self._syntax_asked = self._ask_syntax(pending)

    def _check_syntax_in_lanes(self, paths: list[str]) -> None:
        """Python's verdict on each text: sent to the helper, idle while this
        process runs the model (`_take_in_syntax` takes them in), else asked
        by this process beside forked children (`lanes`) before the model
        runs: the pool's threads would keep it from forking for LibCST's
        reading of the files with findings. A child forked now would share
        every page of the facts, and each page the rules then write would
        fault in this process (20,000 faults on the speed corpus)."""
        paths = sorted(paths, key=lambda path: -len(self.text(path)))
        chunks = [
            [(path, self.text(path), display_path(path)) for path in paths[start : start + _CHUNK]]
            for start in range(0, len(paths), _CHUNK)
        ]
        helper = self.pool.helper
        sent = helper.send(chunks, _syntax_chunk) if helper is not None else None
        if sent is not None:
            self._syntax_sent = chunks, sent
        else:
            self._took_syntax(chunks, lanes.shared(chunks, _syntax_chunk_here, _syntax_chunk, lambda sent: sent, self.pool.workers - 1))

    def _take_in_syntax(self) -> None:
        """The helper's verdicts (`_check_syntax_in_lanes`), once they are asked for."""
        if self._syntax_sent is not None:
            chunks, sent = self._syntax_sent
            self._syntax_sent = None
            self._took_syntax(chunks, sent.results(lambda found: found))

    def _took_syntax(self, chunks: list, verdicts: list) -> None:
        """Each chunk's verdicts kept; a chunk a dying child took (or that this
        process left to LibCST) asked again, of children alone."""
        left = [chunk for chunk, found in zip(chunks, verdicts) if found is lanes.MISSING]
        verdicts += lanes.shared(left, None, _syntax_chunk, lambda sent: sent, min(self.pool.workers, len(left)))
        for found in verdicts:
            for path, problem in (found.items() if found is not lanes.MISSING else ()):
                if problem is None:
                    self._valid.add(path)
                    self.cache.mark_valid(self.digest(path))
                else:
                    self._refusals[path] = problem

    def _ask_syntax(self, paths: list[str]) -> dict[str, Future]:
        """Each path -> the future of its chunk's verdicts (path -> JAX000 or None)."""
        from concurrent.futures.process import BrokenProcessPool

        try:
            executor = self.pool.get()
            asked = {}
            for start in range(0, len(paths), _CHUNK):
                chunk = paths[start : start + _CHUNK]
                future = executor.submit(_syntax_chunk, [(path, self.text(path), display_path(path)) for path in chunk])
                asked.update(dict.fromkeys(chunk, future))
            return asked
        except BrokenProcessPool:
            self.pool.reset()
            return {}

    def confirm_soon(self, paths) -> None:
        """Start LibCST's reading of these files for `confirm`, in the pool's
        helper (else a forked child), while this process goes on judging: the
        files the findings of the first rules are in are read while the other
        rules run."""
        if self.pool is None or not lanes.can_fork():
            return
        helper = self.pool.helper
        paths = sorted(set(paths) & self.quick - self._confirming.keys())
        if paths:
            jobs = [self._exact_job(path) for path in paths]
            beside = (helper and helper.send(jobs, _encoded_parse_job)) or lanes.Beside(jobs, _encoded_parse_job, 1)
            self._confirming.update({path: (beside, index) for index, path in enumerate(paths)})

    def confirm(self, paths) -> bool:
        """LibCST reads each of these files whose facts `ast` gave (and those
        `confirm_soon` started on); whether any of their facts changed (or
        LibCST refused the file: its JAX000).

        A finding is reported only from LibCST's facts: its fixes are built
        on LibCST's tree. The quicker reader promises the same facts
        (tests/test_ast_reader.py holds it to that), so this is a check that
        costs a parse of the files with findings, not of the project.
        """
        changed = False
        paths = sorted((set(paths) & self.quick) | self._confirming.keys())
        self.quick -= set(paths)
        started = self._confirmed_soon()
        pending = [path for path in paths if started.get(path, lanes.MISSING) is lanes.MISSING]
        # In the workers when there are any, however few: LibCST's native parser can crash a process.
        # Not told as progress: these files were counted parsed already.
        jobs = [self._exact_job(path) for path in pending]
        outcomes = self._parsed(jobs, 1 if self.pool is not None else len(jobs) + 1, told=False)
        started.update(zip(pending, outcomes))
        for path in paths:
            facts, problem, internal, _ = started[path]
            if facts is None:
                del self.facts[path]
                self.bad[path] = problem
                if internal:
                    self.internal_errors.add(path)
                changed = True
                continue
            if facts != self.facts[path]:
                self.facts[path] = facts
                changed = True
            self.cache.store(self._keys[path], facts, exact=True)
        return changed

    def _exact_job(self, path: str) -> tuple[str, str, str, bool, bool]:
        """The parse job of a file LibCST reads (`confirm`)."""
        return (display_path(path), self.text(path), *self.project.module_name(path), True)

    def _confirmed_soon(self) -> dict:
        """Each file `confirm_soon` started on -> its outcome (MISSING: the child reading it died)."""
        outcomes: dict[int, list] = {}  # id of the children -> what they read, in order
        found = {}
        for path, (beside, index) in self._confirming.items():
            if id(beside) not in outcomes:
                outcomes[id(beside)] = beside.results(_decoded)
            found[path] = outcomes[id(beside)][index]
        self._confirming = {}
        return found

    def _load(self, paths: list[str], whole: bool = False, offering: bool = False) -> None:
        """Facts for each path: from the cache, else parsed (in a pool for many
        files) by the quicker reader where it can (`parse_facts`); what
        `build` asks of each file parsed (whether `whole`, `offering`), found
        as it comes (`_noted`)."""
        pending = []
        for path in paths:
            if path in self.facts or path in self.bad:
                continue
            digest = self.digest(path)
            if path in self.bad:
                continue
            module, is_package = self.project.module_name(path)
            key = cache_key(digest, module, is_package)
            cached = self.cache.load(key)
            if cached is not None:
                # Facts are kept for texts Python refuses too: its verdict is asked apart.
                problem = self.syntax_error(path)
                if problem is None:
                    facts, exact = cached
                    self.facts[path] = _with_path(facts, display_path(path))
                    self._keys[path] = key
                    if not exact:
                        self.quick.add(path)
                else:
                    self.bad[path] = problem
                continue
            # Keyed by the text parsed: the file may have changed since its stamp was taken.
            digest = digest_of(self.text(path))
            pending.append((path, module, is_package, cache_key(digest, module, is_package), digest))
        jobs = [
            (display_path(path), self.text(path), module, is_package, False) for path, module, is_package, _, _ in pending
        ]
        if self.progress is not None and jobs:
            self.progress(0, len(jobs))
        # Once the workers run, a later wave's few files go to them too: they are idle, this process is not.
        # In lanes, this process reads a few files alone, and leaves to a child what only LibCST reads.
        then = self._noted(whole, offering)
        if self.pool is not None:
            outcomes = self._parsed(jobs, 1 if self.pool.started else 2 * _MIN_FILES_PER_WORKER, then=then)
        else:
            outcomes = self._counted((_parse_job(job) for job in jobs), then=then)
        for (path, _, _, key, digest), (facts, problem, internal, exact) in zip(pending, outcomes):
            if facts is not None:
                self.facts[path] = facts
                self._keys[path] = key
                if not exact:
                    self.quick.add(path)
                self.cache.store(key, facts, exact)
                self._valid.add(path)
                self.cache.mark_valid(digest)
            else:
                self.bad[path] = problem
                if internal:
                    self.internal_errors.add(path)

    def _parsed(self, jobs: list, fewest: int, told: bool = True, then=lambda outcome: None) -> list:
        """The outcome of each parse job: shared with other processes when there
        are `fewest` or more (forked ones when it is safe, else the pool's
        workers); each told as progress as it comes, when `told`, and given
        to `then` in this process."""
        if self.pool is not None and lanes.can_fork():
            return self._in_lanes(jobs, told, share=len(jobs) >= fewest, then=then)
        if len(jobs) < fewest:
            return self._counted((_parse_job(job) for job in jobs), told, then)
        from concurrent.futures.process import BrokenProcessPool

        try:
            return self._counted(map(_decoded, self.pool.get().map(_encoded_parse_job, jobs, chunksize=2)), told, then)
        except BrokenProcessPool:
            # A worker died (a crash in native code): each file again in a
            # process of its own, so that only the one at fault is lost.
            self.pool.reset()
            return self._counted((_isolated(job) for job in jobs), told, then)

    def _in_lanes(self, jobs: list, told: bool, share: bool, then=lambda outcome: None) -> list:
        """The parse jobs of this process and of the helper's children (forked
        early: `lanes.Helper`), else, when `share`, of children forked for
        them (`lanes`), the longest texts first. This process reads only with
        `ast`: LibCST's native parser can crash a process, so it reads in a
        child. What this process left to LibCST and what a dying child took go
        to children again; what is lost again, to a child each, and lost
        there, the file's parser crashed: its JAX000."""
        tell = (lambda: self.progress(1, 0)) if told and self.progress is not None else (lambda: None)

        def noted(outcome):
            if outcome is not None:
                then(outcome)
            return outcome

        def read_here(job):
            return noted(here(job))

        def taken_in(sent):
            return noted(_decoded(sent))

        longest_first = sorted(range(len(jobs)), key=lambda index: -len(jobs[index][1]))
        outcomes = [lanes.MISSING] * len(jobs)
        here = None if all(job[4] for job in jobs) else _read_here
        workers = self.pool.workers
        helper = self.pool.helper
        # What this process declines and what a dying child took are read again by children alone.
        for again, children in enumerate(((workers - 1 if share else 0) if here else workers, workers)):
            pending = [index for index in longest_first if outcomes[index] is lanes.MISSING]
            if not pending:
                continue
            items = [jobs[index] for index in pending]
            reader = read_here if here is not None and not again else None
            if not again and helper is not None and helper.alive:
                # The helper's children, forked early, share the first pass, however few the files.
                read = helper.wave(items, _encoded_parse_job, hand_back=reader is not None).results(taken_in, reader, tell)
            else:
                read = lanes.shared(items, reader, _encoded_parse_job, taken_in, min(children, len(pending)), tell, _load_parser)
            for index, outcome in zip(pending, read):
                outcomes[index] = outcome
        for index, outcome in enumerate(outcomes):
            if outcome is lanes.MISSING:
                (outcome,) = lanes.shared([jobs[index]], None, _encoded_parse_job, taken_in, 1, tell)
                if outcome is lanes.MISSING:
                    outcome = _crashed(jobs[index][0])
                    tell()
                outcomes[index] = outcome
        return outcomes

    def _counted(self, outcomes, told: bool = True, then=lambda outcome: None) -> list:
        """The parse outcomes, the progress told of each as it comes (when `told`), each given to `then`."""
        found = []
        for outcome in outcomes:
            then(outcome)
            found.append(outcome)
            if told and self.progress is not None:
                self.progress(1, 0)
        return found

    def _modules_for(self, names: set[str]) -> list[str]:
        """The project files not loaded yet that define the modules of these global names."""
        wanted = []
        for name in sorted(names - self._settled):
            path = self._file_of(name)
            if path is None or path in self.facts or path in self.bad:
                self._settled.add(name)  # outside the project, or loaded: so for every later wave
            elif path not in wanted:
                wanted.append(path)
        return wanted

    def _file_of(self, name: str) -> str | None:
        path = self._name_paths.get(name, "")
        if path == "":
            path = self._name_paths[name] = self._defining_path(name)
        return path

    def _defining_path(self, name: str) -> str | None:
        """The project file of the longest module prefix of the dotted name, if any.

        The prefixes are looked up from the shortest, as long as the project
        has a folder of the last one (`Project.holds_modules`): no longer
        prefix can have a file where no folder holds it. Most names are a
        module's and one of its attributes (`pkg.lax.add`): the module's file
        is looked up once for all of them, and their attributes never."""
        found = None
        module = ""
        for part in name.split("."):
            module = f"{module}.{part}" if module else part
            paths = self._module_paths.get(module)
            if paths is None:
                paths = self._module_paths[module] = self.project.module_paths(module)
            if paths:
                found = paths[0]
            held = self._module_folders.get(module)
            if held is None:
                held = self._module_folders[module] = self.project.holds_modules(module)
            if not held:
                break
        return os.path.abspath(found) if found is not None else None


class Pool:
    """Worker processes started on first use and kept for the whole run: a
    worker's start (importing the readers) is paid once, not once per wave."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._executor: ProcessPoolExecutor | None = None
        self.started = False  # once the run has workers, LibCST never reads in this process: a crash would end the run
        self.helper: lanes.Helper | None = None  # `start_helper`

    def start_helper(self) -> None:
        """Fork the children that read beside this process and confirm findings
        beside the rules (`lanes.Helper`), while this process is small."""
        if self.helper is None and lanes.can_fork():
            self.helper = lanes.Helper(self.workers - 1)
            self.helper.prepare(_load_parser)  # while this process starts: LibCST ready for the first wave

    def get(self) -> ProcessPoolExecutor:
        self.started = True
        if self._executor is None:
            from concurrent.futures import ProcessPoolExecutor

            _load_parser()  # before the workers fork: the readers are loaded once, not in each of them
            self._executor = ProcessPoolExecutor(max_workers=self.workers, initializer=_start_worker)
        return self._executor

    def reset(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(cancel_futures=True)
        self._executor = None

    def close(self) -> None:
        self.reset()
        if self.helper is not None:
            self.helper.close()
            self.helper = None


def _load_parser() -> None:
    """The readers imported, LibCST's too, nothing read: before workers fork, or
    while this process waits on its children, so that each child that meets a
    file only LibCST reads does not import it again (a tenth of a second); in
    the helper, while the first rules run (`confirm_soon`). A
    worker started without forking (spawn, forkserver) does it once, at its start."""
    importlib.import_module("jaxcheck.extraction").load_libcst()


def _start_worker() -> None:
    """A worker lives to parse: the readers loaded, the collector set for it."""
    _load_parser()
    in_worker()


def _stat(path: str) -> os.stat_result | None:
    try:
        return os.stat(path)
    except OSError:
        return None


def _with_path(facts: f.ModuleFacts, path: str) -> f.ModuleFacts:
    return facts if facts.path == path else replace(facts, path=path)


def _isolated(job: tuple[str, str, str, bool, bool]):
    """`_parse_job` in a process of its own; a crash there is this file's JAX000."""
    from concurrent.futures.process import BrokenProcessPool, ProcessPoolExecutor

    try:
        with ProcessPoolExecutor(max_workers=1) as pool:
            return pool.submit(_parse_job, job).result()
    except BrokenProcessPool:
        return _crashed(job[0])


def _crashed(path: str):
    """The outcome of a file whose parser crashed the process reading it."""
    message = "jaxcheck failed on this file (its parser process crashed); please report it. Other files were checked."
    return None, Finding(path, 1, 1, BAD_INPUT, message), True, True


def _syntax_chunk(jobs: list[tuple[str, str, str]]) -> dict[str, Finding | None]:
    return {path: syntax_error_of(text, shown) for path, text, shown in jobs}


def _syntax_chunk_here(jobs: list[tuple[str, str, str]]) -> dict[str, Finding | None] | None:
    """`_syntax_chunk` without LibCST: None when it would have to ask it."""
    found = {path: syntax_error_of(text, shown, libcst=False) for path, text, shown in jobs}
    return None if any(problem is ASK_LIBCST for problem in found.values()) else found


def _parse_job(job: tuple[str, str, str, bool, bool]):
    return parse_facts(*job)


def _read_here(job: tuple[str, str, str, bool, bool]):
    """`_parse_job` where `ast` reads the file; None where LibCST would."""
    return parse_facts(*job, libcst=False)


def _encoded_parse_job(job: tuple[str, str, str, bool, bool]):
    """`_parse_job` in a worker: the facts sent back as the cache encodes them
    (plain tuples pickle in half the time slotted dataclasses do), or as
    they are when they nest too deep to encode."""
    facts, *rest = _parse_job(job)
    if facts is not None:
        try:
            with deep_recursion():
                return (encode(facts), *rest)
        except RecursionError:
            pass
    return (facts, *rest)


def _decoded(outcome):
    sent, *rest = outcome
    return (sent if sent is None or isinstance(sent, f.ModuleFacts) else decode(sent), *rest)


def parse_facts(path: str, text: str, module: str, is_package: bool, exact: bool = False, libcst: bool = True):
    """(facts, None, False, by LibCST) for a text Python accepts; else (None,
    a JAX000 finding, whether jaxcheck itself failed, True); without
    `libcst`, None where LibCST would read the text.

    Python's `ast` reads the text where it gives LibCST's facts
    (`extraction.quick_facts`), LibCST the rest and, when `exact`, all
    (JAXCHECK_AST_READER=0 makes every read exact: the tests' switch to
    compare the two). Python's verdict comes first: LibCST accepts some texts
    Python refuses (`return` at module level, a bad escape), and its native
    parser crashes on brackets nested thousands deep, which Python refuses.
    LibCST is imported only when a file needs it: a run of one process whose
    files `ast` reads never loads it.
    """
    from jaxcheck.extraction import ParseError, facts_from_source, quick_facts

    exact = exact or os.environ.get("JAXCHECK_AST_READER") == "0"
    if exact and not libcst:
        return None
    # The quick reader's tree is parsed with Python's verdict; an exact read needs only the verdict.
    tree, problem = (None, syntax_error_of(text, path, libcst)) if exact else parsed(text, path, libcst)
    if problem is ASK_LIBCST:
        return None
    if problem is not None:
        return None, problem, False, True
    try:
        with deep_recursion(), warnings.catch_warnings():
            warnings.simplefilter("ignore")  # what Python says of the user's code (an invalid escape) is not ours to print
            facts = None if exact or tree is None else quick_facts(text, path, module, is_package, tree)
            if facts is not None:
                return facts, None, False, False
            if not libcst:
                return None
            try:
                return facts_from_source(text, path, module, is_package), None, False, True
            except ParseError:
                readable = without_lone_continuations(text)
                if readable is None:
                    raise
                return facts_from_source(readable, path, module, is_package), None, False, True
    except ParseError as error:
        message = f"cannot analyse: Python accepts this file, but LibCST, which jaxcheck reads code with, refuses it ({error})"
        return None, Finding(path, error.line, error.column, BAD_INPUT, message), False, True
    except RecursionError:
        return None, Finding(path, 1, 1, BAD_INPUT, "cannot analyse: the code nests too deeply for jaxcheck"), False, True
    except Exception as error:  # a bug of ours must not cost the user the run
        return None, internal_error(path, error), True, True
