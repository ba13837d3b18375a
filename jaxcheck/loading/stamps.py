"""What a warm run knows of a file without reading it: its text's digest, by
its stamp, and the loader's verdicts on that text, by its digest.

A stamp is what `stat` tells (size, modification and change times in
nanoseconds, inode): a file whose stamp is unchanged since a run read it has
the text that run hashed, so a warm run on a big project stats its files
instead of reading and hashing them. A stamp is trusted only when the file
was last modified more than `_RACY_NS` before the run that read it started
(git's "racy" rule): an edit within the same tick of a coarse clock, keeping
the size, would otherwise go unseen. The verdicts (the pre-filter's, whether
the text uses what the taking-part files offer, whether it has a `# noqa`)
are kept by digest, so an edited file costs its own reading, not the
project's. Both live in the cache's signed `stamps.json`: no repository can
ship stamps that hide a file's text.
"""

from __future__ import annotations

import hashlib
import os
import stat
import time

_RACY_NS = 2 * 10**9  # a stamp this close to the start of the run that read it may hide an edit in the same tick
# A file whose stamp and verdicts are not saved costs the next run a read, a
# hash and the verdicts of its text (about 60 us); saving costs a write of
# every stamp (2 to 4 us each). Saved once this share changed, what is left
# unsaved costs a run less than a write would.
_SAVED_FROM = 1 / 32
NOQA, TAKING_PART, USER = range(3)  # the verdicts kept of a text


def digest_of(text: str) -> str:
    """The text's digest: what the stamps, the facts keys and the syntax verdicts know a text by."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def stamp_of(status: os.stat_result) -> list[int]:
    return [status.st_size, status.st_mtime_ns, status.st_ctime_ns, status.st_ino]


class Stamps:
    """The stamps and verdicts of one project, read from its cache and written back by `save`.

    `keywords` (the configured transforms' names) decide the pre-filter's
    verdict; `users` (the pattern of what the taking-part files offer,
    given by `use_pattern`) decides the users' verdict: kept verdicts made
    under others are not used.
    """

    def __init__(self, cache, keywords: tuple[str, ...]) -> None:
        self.cache = cache
        self._start = time.time_ns()  # before any file is read: an edit after it is newer than the racy bound
        self._keywords = repr(keywords)
        stored = cache.load_stamps() if cache.folder is not None else None
        stored = stored or {}
        self._files: dict[str, list] = stored.get("files", {})  # path -> [*stamp, digest]
        same_keywords = stored.get("keywords") == self._keywords
        self._verdicts: dict[str, list] = stored.get("verdicts", {}) if same_keywords else {}  # digest -> [noqa, taking part, user]
        self._pattern = stored.get("pattern", "")
        self._changed: set[str] = set()  # the paths whose stamps, the digests whose verdicts this run changed
        self._used: set[str] = set()  # digests of this run's texts: the verdicts kept
        self._seen: set[str] = set()  # the paths this run stamped: the stamps kept

    def known(self, path: str) -> str | None:
        """The digest of the file's text, when its stamp says it is the text hashed before; else None."""
        record = self._files.get(path)
        if record is None:
            return None
        self._seen.add(path)
        try:
            status = os.stat(path)
        except OSError:
            return None
        if (
            record[1] != status.st_mtime_ns
            or record[0] != status.st_size
            or record[2] != status.st_ctime_ns
            or record[3] != status.st_ino
        ):  # `stamp_of`, field by field: asked of every file of a warm run
            return None
        self._used.add(record[4])
        return record[4]

    def observe(self, path: str, status: os.stat_result | None, digest: str) -> None:
        """The file was read, its stamp (taken before) and its text's digest: kept when settled."""
        self._used.add(digest)
        self._seen.add(path)
        if status is None or not stat.S_ISREG(status.st_mode) or status.st_mtime_ns >= self._start - _RACY_NS:
            if self._files.pop(path, None) is not None:
                self._changed.add(path)
            return
        record = [*stamp_of(status), digest]
        if self._files.get(path) != record:
            self._files[path] = record
            self._changed.add(path)

    def use_pattern(self, pattern: str) -> None:
        """The users' verdicts from now on are under this pattern: those kept under another are dropped."""
        if pattern != self._pattern:
            self._pattern = pattern
            for verdicts in self._verdicts.values():
                verdicts[USER] = None
            self._changed.update(self._verdicts)

    def knows(self, digest: str, which: int) -> bool:
        """Whether the verdict `which` of the text is kept."""
        verdicts = self._verdicts.get(digest)
        return verdicts is not None and verdicts[which] is not None

    def verdict(self, digest: str, which: int, judge) -> bool:
        """The kept verdict `which` of the text, else `judge()` asked and its answer kept."""
        verdicts = self._verdicts.get(digest)
        if verdicts is None:  # asked of every file several times a run: no list built when known
            verdicts = self._verdicts[digest] = [None, None, None]
        if verdicts[which] is None:
            verdicts[which] = bool(judge())
            self._changed.add(digest)
        self._used.add(digest)
        return verdicts[which]

    def save(self) -> None:
        """Write the stamps and the verdicts of the texts this run saw (others
        are let go), once enough of them changed to be worth the write
        (`_SAVED_FROM`): one file edited in a big project leaves the stamps as
        they are, and the next run reads that file again."""
        files = {path: record for path, record in self._files.items() if path in self._seen}
        changes = len(self._changed) + len(self._files) - len(files)
        if self.cache.folder is None or changes == 0 or changes < _SAVED_FROM * len(files):
            return
        verdicts = {digest: found for digest, found in self._verdicts.items() if digest in self._used}
        self.cache.store_stamps(
            {"keywords": self._keywords, "pattern": self._pattern, "files": files, "verdicts": verdicts}
        )
