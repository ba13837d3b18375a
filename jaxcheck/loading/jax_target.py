"""The JAX releases a project runs on, read without importing JAX.

In order: `target-jax-version` when configured; else the range the project's
own requirement on `jax` admits (pyproject's `[project]` dependencies,
optional dependencies and dependency groups, Poetry's dependencies,
setup.cfg's `install_requires` and extras, requirements files); else the
version of a `jax` distribution installed beside jaxcheck, read from its
metadata; else the newest behaviour jaxcheck knows.

`packaging` and `importlib.metadata` are imported when a project needs them
(a requirement that names jax; no requirement at all): together they are a
tenth of a warm run on a big project.
"""

from __future__ import annotations

import configparser
import glob
import os
import re
import sys
from functools import lru_cache
from typing import TYPE_CHECKING

from jaxcheck.loading.source import SourceError, read_bytes
from jaxcheck.model.jax_versions import NEWEST, Target

if TYPE_CHECKING:
    from packaging.specifiers import SpecifierSet

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

_REQUIREMENTS_FILES = ("requirements*.txt", "*-requirements.txt", "*_requirements.txt", "requirements/*.txt")
_POETRY_CARET = re.compile(r"^\^\s*(\d+(?:\.\d+)*)$")
_POETRY_TILDE = re.compile(r"^~\s*(\d+(?:\.\d+)*)$")
_COMMENT = re.compile(r"(?:^|\s)#.*")  # `#` at the start of a line or after a space, as pip and setuptools read it
_OPTIONS = re.compile(r"\s-.*")
# A number of a release has a few digits; one of thousands is no release (and Python refuses to make it an int).
_NO_RELEASE_NUMBER = re.compile(r"\d{20,}")


class RequirementError(ValueError):
    """A project file states a requirement on jax that cannot be read as
    releases: a configuration error, named with the file."""  # pip's options after a requirement: `jax==0.4.30 --hash=sha256:...`


def explicit_target(version: str, where: str) -> Target:
    return Target.release(version, f'target-jax-version = "{version}" ({where})')


@lru_cache(maxsize=64)
def inferred_target(root: str | None) -> Target:
    """The releases the project at `root` declares, else the installed jax, else the newest known."""
    if root is not None:
        declared = declared_target(root)
        if declared is not None:
            return declared
    from importlib import metadata

    try:
        installed = metadata.version("jax")
    except metadata.PackageNotFoundError:
        return NEWEST
    return Target.release(installed, f"jax {installed} installed beside jaxcheck; the project declares no requirement on jax")


def declared_target(root: str) -> Target | None:
    """The range the requirements on `jax` written in the project admit; None when it writes none."""
    found: list[tuple[SpecifierSet, bool, str]] = []  # (specifiers, has a marker, where)
    try:
        found += _from_pyproject(root)
        found += _from_setup_cfg(root)
        for pattern in _REQUIREMENTS_FILES:
            for path in sorted(glob.glob(os.path.join(root, pattern))):
                found += _from_requirements_file(path, os.path.relpath(path, root))
    except RequirementError as error:  # its message starts with the file, relative to the project
        raise RequirementError(os.path.join(root, str(error))) from None
    if not found:
        return None
    # Every unconditional requirement holds at once; requirements under
    # environment markers hold in some environments each: their hull.
    always = [_interval(specifiers) for specifiers, marked, _ in found if not marked]
    sometimes = [_interval(specifiers) for specifiers, marked, _ in found if marked]
    interval = _intersection(always) if always else _UNBOUNDED
    if sometimes:
        interval = _intersection([interval, _hull(sometimes)])
    source = "; ".join(dict.fromkeys(where for _, _, where in found))
    if interval is None:
        return Target(None, None, f"{source} (they admit no release together: every release assumed)")
    (low, low_inclusive), (high, high_inclusive) = interval
    return Target(
        str(low) if low is not None else None,
        str(high) if high is not None else None,
        source,
        low_inclusive,
        high_inclusive,
    )


def _from_pyproject(root: str) -> list[tuple[SpecifierSet, bool, str]]:
    path = os.path.join(root, "pyproject.toml")
    try:
        document = tomllib.loads(read_bytes(path).decode("utf-8"))
    except (SourceError, tomllib.TOMLDecodeError, UnicodeDecodeError):
        return []
    except RecursionError:  # the parser recurses once per level of nesting, in any table
        raise RequirementError("pyproject.toml: nested too deeply to read") from None
    found = []
    project = document.get("project")
    if isinstance(project, dict):
        found += _from_strings(project.get("dependencies"), "pyproject.toml [project] dependencies")
        extras = project.get("optional-dependencies")
        if isinstance(extras, dict):
            for extra, requirements in extras.items():
                found += _from_strings(requirements, f"pyproject.toml [project.optional-dependencies] {extra}")
    groups = document.get("dependency-groups")
    if isinstance(groups, dict):
        for group, requirements in groups.items():
            found += _from_strings(requirements, f"pyproject.toml [dependency-groups] {group}")
    poetry = document.get("tool", {}).get("poetry") if isinstance(document.get("tool"), dict) else None
    if isinstance(poetry, dict):
        tables = [("tool.poetry.dependencies", poetry.get("dependencies"))]
        if isinstance(poetry.get("group"), dict):
            tables += [
                (f"tool.poetry.group.{name}.dependencies", group.get("dependencies"))
                for name, group in poetry["group"].items()
                if isinstance(group, dict)
            ]
        for where, table in tables:
            found += _from_poetry(table, f"pyproject.toml [{where}]")
    return found


def _from_strings(requirements, where: str) -> list[tuple[SpecifierSet, bool, str]]:
    if not isinstance(requirements, list):
        return []
    return [found for text in requirements if isinstance(text, str) for found in _parse(text, where)]


def _parse(text: str, where: str) -> list[tuple[SpecifierSet, bool, str]]:
    if "jax" not in text.lower():  # no name spelled otherwise is `jax` once canonical: nothing to parse
        return []
    from packaging.requirements import InvalidRequirement, Requirement

    try:
        requirement = Requirement(text.strip())
    except InvalidRequirement:
        return []
    if requirement.name.lower() != "jax" or requirement.url:
        return []
    _refuse_no_release(str(requirement.specifier), where)
    return [(requirement.specifier, requirement.marker is not None, f"`{text.strip()}` in {where}")]


def _refuse_no_release(constraint: str, where: str) -> None:
    """`where` is the file, relative to the project, and the table in it."""
    number = _NO_RELEASE_NUMBER.search(constraint)
    if number:
        file, _, table = where.partition(" ")
        raise RequirementError(
            f"{file}: the requirement on jax{' in ' + table if table else ''} has a number of "
            f"{len(number[0])} digits or more: not a release"
        )


def _from_poetry(table, where: str) -> list[tuple[SpecifierSet, bool, str]]:
    if not isinstance(table, dict):
        return []
    found = []
    for name, value in table.items():
        if name.lower() != "jax":  # `canonicalize_name`: a name with a separator is never `jax`
            continue
        constraints = value.get("version") if isinstance(value, dict) else value
        for constraint in constraints if isinstance(constraints, list) else [constraints]:
            if isinstance(constraint, dict):
                constraint = constraint.get("version")
            if isinstance(constraint, str):
                _refuse_no_release(constraint, where)
            specifiers = _poetry_specifiers(constraint) if isinstance(constraint, str) else None
            if specifiers is not None:
                marked = isinstance(value, list) or isinstance(value, dict) and "markers" in value
                found.append((specifiers, marked, f'`jax = "{constraint}"` in {where}'))
    return found


def _poetry_specifiers(constraint: str) -> SpecifierSet | None:
    """Poetry's `^0.4.30`, `~0.4.30`, `*` and PEP 440 ranges."""
    from packaging.specifiers import InvalidSpecifier, SpecifierSet

    parts = []
    for part in constraint.split(","):
        part = part.strip()
        caret, tilde = _POETRY_CARET.match(part), _POETRY_TILDE.match(part)
        if part in ("", "*"):
            continue
        if caret:
            release = [int(n) for n in caret[1].split(".")]
            significant = next((i for i, n in enumerate(release) if n), len(release) - 1)
            parts += [f">={caret[1]}", f"<{_bump(release[: significant + 1])}"]
        elif tilde:
            release = [int(n) for n in tilde[1].split(".")]
            parts += [f">={tilde[1]}", f"<{_bump(release[:2] if len(release) > 1 else release)}"]
        else:
            parts.append(part if part[0] in "<>=!~" else f"=={part}")
    try:
        return SpecifierSet(",".join(parts))
    except InvalidSpecifier:
        return None


def _from_setup_cfg(root: str) -> list[tuple[SpecifierSet, bool, str]]:
    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read_string(read_bytes(os.path.join(root, "setup.cfg")).decode("utf-8"))
    except (SourceError, configparser.Error, UnicodeDecodeError):
        return []
    found = []
    if parser.has_option("options", "install_requires"):
        lines = _requirement_lines(parser.get("options", "install_requires"))
        found += [item for line in lines for item in _parse(line, "setup.cfg install_requires")]
    if parser.has_section("options.extras_require"):
        for extra, text in parser.items("options.extras_require"):
            found += [item for line in _requirement_lines(text) for item in _parse(line, f"setup.cfg extras {extra}")]
    return found


def _from_requirements_file(path: str, shown: str) -> list[tuple[SpecifierSet, bool, str]]:
    try:
        text = read_bytes(path).decode("utf-8")
    except (SourceError, UnicodeDecodeError):
        return []
    return [item for line in _requirement_lines(text) if not line.startswith("-") for item in _parse(line, shown)]


def _requirement_lines(text: str) -> list[str]:
    """The requirements of a requirements file or a setup.cfg list, one a
    line: a line ending with a backslash goes on in the next (pip-compile's
    `jax==0.4.30 \\` then `--hash=...`), comments and the options after a
    requirement dropped. Lines that are options themselves (`-r base.txt`)
    are kept, starting with `-`."""
    joined = re.sub(r"\\\n", " ", "\n".join(text.splitlines()))
    lines = (_COMMENT.sub("", line).strip() for line in joined.split("\n"))
    return [line if line.startswith("-") else _OPTIONS.sub("", line) for line in lines if line]


# An interval of releases: ((low, inclusive), (high, inclusive)); None bounds are open.
_UNBOUNDED = ((None, True), (None, True))


def _interval(specifiers: SpecifierSet):
    from packaging.version import InvalidVersion, Version

    low, high = (None, True), (None, True)
    for specifier in specifiers:
        operator, text = specifier.operator, specifier.version
        try:
            if operator == "==" and text.endswith(".*"):
                prefix = [int(n) for n in text[:-2].split(".")]
                low, high = _higher(low, (Version(text[:-2]), True)), _lower(high, (Version(_bump(prefix)), False))
                continue
            version = Version(text)
        except (InvalidVersion, ValueError):
            continue
        if operator in (">=", ">"):
            low = _higher(low, (version, operator == ">="))
        elif operator in ("<=", "<"):
            high = _lower(high, (version, operator == "<="))
        elif operator in ("==", "==="):
            low, high = _higher(low, (version, True)), _lower(high, (version, True))
        elif operator == "~=":
            low = _higher(low, (version, True))
            high = _lower(high, (Version(_bump(list(version.release[:-1]))), False))
    return low, high


def _bump(release: list[int]) -> str:
    """`0.4` -> `0.5`: the first release past a prefix."""
    return ".".join(map(str, [*release[:-1], release[-1] + 1]))


def _higher(a, b):
    if a[0] is None:
        return b
    if b[0] is None:
        return a
    if a[0] != b[0]:
        return a if a[0] > b[0] else b
    return a[0], a[1] and b[1]


def _lower(a, b):
    if a[0] is None:
        return b
    if b[0] is None:
        return a
    if a[0] != b[0]:
        return a if a[0] < b[0] else b
    return a[0], a[1] and b[1]


def _intersection(intervals):
    """The releases every interval admits; None when there are none."""
    low, high = _UNBOUNDED
    for interval in intervals:
        if interval is None:
            return None
        low, high = _higher(low, interval[0]), _lower(high, interval[1])
    if low[0] is not None and high[0] is not None:
        if low[0] > high[0] or low[0] == high[0] and not (low[1] and high[1]):
            return None
    return low, high


def _hull(intervals):
    """The smallest interval holding every interval."""
    lows = [interval[0] for interval in intervals]
    highs = [interval[1] for interval in intervals]
    low = (None, True) if any(bound[0] is None for bound in lows) else min(lows, key=lambda bound: (bound[0], not bound[1]))
    high = (None, True) if any(bound[0] is None for bound in highs) else max(highs, key=lambda bound: (bound[0], bound[1]))
    return low, high
