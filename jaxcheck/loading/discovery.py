"""Which files a run checks, grouped by the project each belongs to.

Each path given is walked (or taken as it is, for a file), and each file
found joins the group of its project, found once per folder. A file is
checked once, however many paths lead to it; a file whose real path is
outside its project (a link to `/proc/self/environ`, to another project's
module) is never read, and a note says so.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Callable, Protocol, Sequence

from jaxcheck.loading.files import Listing, located_files, project_files, real_path, skipped_because
from jaxcheck.loading.project import Project, find_project


class Config(Protocol):
    """What the walk asks of a path's config (`jaxcheck.config.Config`)."""

    root: str
    exclude: tuple[str, ...]

    def is_excluded(self, path: str, is_dir: bool = False) -> bool: ...


@dataclass
class ProjectFiles:
    """The files to check of one project: as the user spelled them -> their absolute paths."""

    config: Config
    files: dict[str, str] = field(default_factory=dict)
    listing: Listing | None = None  # the project's own walk, when a folder given was the project


@dataclass
class Discovery:
    groups: dict[Project, ProjectFiles] = field(default_factory=dict)
    checked: set[str] = field(default_factory=set)  # absolute paths of the files checked
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (path as given or found, why it is not checked)


def files_to_check(
    paths: Sequence[str], config_for: Callable[[str], Config], given: dict[str, str], alone: bool
) -> Discovery:
    """The files below `paths` to check, by project; `given` holds the texts
    of files not read from disk (by absolute path); `alone` makes each file
    a project of its own."""
    found = Discovery()
    seen: set[str] = set()
    real_folders: dict[str, str] = {}
    projects: dict[str, Project] = {}  # folder -> the project of its files
    listings: dict[tuple, Listing] = {}
    for path in paths:
        config = config_for(path)
        unreadable: list[tuple[str, str]] = []
        listing = None
        if os.path.abspath(path) in given and not os.path.isdir(path):
            absolute = os.path.abspath(path)
            folders = [(os.path.dirname(absolute), [(path, absolute, real_path(path, real_folders))])]
        else:
            listing = None if alone else _project_walk(path, config, listings)
            folders = list(located_files(path, config.is_excluded, unreadable, real_folders, listing))
        found.skipped.extend(unreadable)
        for folder, files in folders:
            in_folder = None if alone else projects.get(folder) or projects.setdefault(folder, find_project(files[0][0]))
            for file, absolute, real in files:
                if real in seen:
                    continue
                seen.add(real)
                project = Project.alone(file) if alone else in_folder
                why = "" if absolute in given else _skipped_because(file, absolute, real, project)
                if why:
                    found.skipped.append((file, why))
                    continue
                found.checked.add(absolute)
                group = found.groups.get(project) or found.groups.setdefault(project, ProjectFiles(config))
                group.files[file] = absolute
                if listing is not None and project.root == os.path.abspath(path):
                    group.listing = listing
    return found


def _skipped_because(file: str, absolute: str, real: str, project: Project) -> str:
    """Why a file found or named is not checked, or ""."""
    if not real.startswith(os.path.join(project.real_root, "")):
        return f"a link to a file outside the project ({real}): not read"
    return skipped_because(file)


def _project_walk(path: str, config: Config, listings: dict[tuple, Listing]) -> Listing | None:
    """The walk of the project a folder given is (`project_files`), kept for its
    loader: one walk of a big project, not two. None for a folder inside a
    project, or a folder of loose modules (whose packages alone are walked)."""
    if not os.path.isdir(path):
        return None
    project = find_project(path)
    if project.root != os.path.abspath(path) or project.loose:
        return None
    key = (project.root, config.root, config.exclude)
    listing = listings.get(key)
    if listing is None:
        listing = listings[key] = project_files(project.root, config.is_excluded)
    return listing
