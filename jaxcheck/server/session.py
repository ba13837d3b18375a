"""What the language server checks: the open documents, each with its project
around it, as `jaxcheck check` would with their unsaved text saved.

A project is read once per session: its facts stay in memory between runs
(`Cache(..., remember=True)`, filled from the on-disk cache the command line
and the flake8 plugin share), so an edit costs the parse of the edited text
and a new judgement of the model, not a reading of the project. The worker
processes are started once, when a cold project first needs them, and end
with the session.
"""

from __future__ import annotations

import os

from jaxcheck.config import Config, ConfigError, find_config, forget_configs
from jaxcheck.engine import check
from jaxcheck.findings import BAD_INPUT, Finding
from jaxcheck.loading.cache import Cache, project_cache_folder
from jaxcheck.loading.jax_target import inferred_target
from jaxcheck.loading.pool import Pool
from jaxcheck.loading.project import Project


class Session:
    def __init__(self, jobs: int | None = None) -> None:
        self._caches: dict[str, Cache] = {}  # project root -> its cache, for the whole session
        self.pool = Pool(jobs or os.cpu_count() or 1)  # started for a cold project's many files; `close` ends it

    def findings(self, texts: dict[str, str]) -> dict[str, list[Finding]]:
        """The findings of each document, by absolute path, given the unsaved
        texts of the open documents (absolute path -> text).

        The config is read again on every run (an edited pyproject.toml takes
        effect at the next change); a config that cannot be used is a JAX000
        on the first line of each document it governs, as in the flake8 plugin.
        """
        forget_configs()
        inferred_target.cache_clear()
        found: dict[str, list[Finding]] = {path: [] for path in texts}
        configs: dict[str, Config] = {}
        for path in texts:
            try:
                config = find_config(path)
            except ConfigError as error:
                found[path] = [Finding(path, 1, 1, BAD_INPUT, f"jaxcheck configuration error: {error}")]
                continue
            if not config.is_excluded(path):
                configs[path] = config
        if configs:
            result = check(
                list(configs),
                configs.__getitem__,
                texts={path: texts[path] for path in configs},
                cache_for=self._cache_for,
                pool=self.pool,
            )
            for finding in result.findings:
                path = os.path.abspath(finding.path)
                if path in found:
                    found[path].append(finding)
        return found

    def close(self) -> None:
        """End the worker processes now: the session is over, and a run in
        progress is abandoned (`Stopped`), not finished by this process."""
        self.pool.stop()

    def _cache_for(self, project: Project) -> Cache:
        cache = self._caches.get(project.root)
        if cache is None:
            folder = project_cache_folder(project.root) if project.marked else None
            cache = self._caches[project.root] = Cache(folder, remember=True)
        cache.begin_run()
        return cache
