"""`[tool.jaxcheck]` in pyproject.toml: found, validated, and asked which codes apply."""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass, replace
from functools import lru_cache

from jaxcheck.loading.jax_target import RequirementError, explicit_target, inferred_target
from jaxcheck.loading.source import SourceError, read_bytes
from jaxcheck.model.jax_versions import Target, parse_version
from jaxcheck.loading.pathmatch import PatternError, compile_pattern, matches_any
from jaxcheck.rules import CODES, EXPLICIT_ONLY, code_of
from jaxcheck.model.transforms import Options, Transform

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

KEYS = (
    "select",
    "extend-select",
    "ignore",
    "per-file-ignores",
    "exclude",
    "extra-transforms",
    "static-bases",
    "singletons",
    "target-jax-version",
    "profile",
)
PROFILES = ("default", "strict")
_DOTTED = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$")
_KEYWORD = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


class ConfigError(Exception):
    """A configuration that cannot be used; the message says what to fix."""


@dataclass(frozen=True)
class Config:
    root: str  # the folder patterns are relative to
    source: str = ""  # the pyproject.toml read, if any
    select: tuple[str, ...] | None = None  # None: every code (but EXPLICIT_ONLY's)
    extend_select: tuple[str, ...] = ()  # added to select
    ignore: tuple[str, ...] = ()
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    exclude: tuple[str, ...] = ()
    options: Options = Options()  # what the analysis itself is told
    # "default": findings with evidence that JAX will go wrong; "strict": the design standard as written.
    profile: str = "default"
    # `target-jax-version` as given, and where; unset, the project tells (`for_project`).
    target_jax_version: str | None = None
    target_given_in: str = ""

    def relative(self, path: str) -> str | None:
        """`path` relative to the root with '/' separators; None when outside it."""
        relative = os.path.relpath(os.path.abspath(path), self.root)
        if relative == ".." or relative.startswith(".." + os.sep):
            return None
        return relative.replace(os.sep, "/")

    def is_excluded(self, path: str, is_dir: bool = False) -> bool:
        if not self.exclude:  # asked of every file and folder a run walks
            return False
        relative = self.relative(path)
        return relative is not None and matches_any(self.exclude, relative, is_dir)

    def is_enabled(self, code: str, path: str) -> bool:
        """Selected (by the longest prefix of `select` or `extend-select`, or by
        default) and not ignored by an equally long or longer one; ruff's rule.
        A code of EXPLICIT_ONLY must be named in full."""
        if not _selected(code, self.select, self.extend_select, self.ignore):
            return False
        if self.per_file_ignores:
            relative = self.relative(path)
            if relative is not None:
                for pattern, codes in self.per_file_ignores:
                    if _longest_prefix(code, codes) and matches_any((pattern,), relative):
                        return False
        return True

    def with_analysis(self, extra_transforms=(), static_bases=(), singletons=(), where: str = "") -> Config:
        """The analysis settings given besides the pyproject's (flake8's
        `--jaxcheck-*` options), added to them and checked like them."""
        table = {"extra-transforms": list(extra_transforms), "static-bases": list(static_bases), "singletons": list(singletons)}
        options = self.options
        return replace(
            self,
            options=replace(
                options,
                transforms=options.transforms + tuple(_transform(entry, where) for entry in table["extra-transforms"]),
                static_bases=tuple(sorted({*options.static_bases, *_dotted_names(table, "static-bases", where)})),
                singletons=tuple(sorted({*options.singletons, *_dotted_names(table, "singletons", where)})),
            ),
        )

    def with_options(
        self,
        select: tuple[str, ...] | None,
        extend_ignore: tuple[str, ...],
        target_jax_version: str | None = None,
        profile: str | None = None,
        extend_select: tuple[str, ...] = (),
    ) -> Config:
        """The command line's `--select`, `--target-jax-version` and `--profile`
        replace the config's; `--ignore` and `--extend-select` add to it."""
        where = "the command line"
        select = _codes(select, where) if select is not None else self.select
        changed = replace(
            self,
            select=select,
            extend_select=self.extend_select + _codes(extend_select, where),
            ignore=self.ignore + _codes(extend_ignore, where),
        )
        if profile is not None:
            changed = changed.with_profile(profile, "the command line")
        return changed.with_target(target_jax_version, "the command line") if target_jax_version else changed

    def with_profile(self, profile: str, where: str) -> Config:
        return replace(self, profile=_profile(profile, where))

    def with_target(self, version: str, where: str) -> Config:
        """`target-jax-version` given besides the pyproject's (the command line, flake8's options)."""
        return replace(self, target_jax_version=_version(version, where), target_given_in=where)

    def for_project(self, root: str | None) -> Config:
        """The analysis told which JAX releases the project at `root` runs on:
        the configured ones, else what the project declares or has installed."""
        if self.target_jax_version is not None:
            target = explicit_target(self.target_jax_version, self.target_given_in)
        else:
            target = _inferred_target(root)
        return replace(self, options=replace(self.options, target=target))


def _inferred_target(root: str | None) -> Target:
    """`inferred_target`, with a requirement on jax that cannot be read (a
    pyproject.toml nested too deep for the TOML parser, a version of
    thousands of digits) as a `ConfigError` naming the file."""
    try:
        return inferred_target(root)
    except RequirementError as error:
        raise ConfigError(str(error)) from None


@lru_cache(maxsize=256)
def _selected(code: str, select: tuple[str, ...] | None, extend_select: tuple[str, ...], ignore: tuple[str, ...]) -> bool:
    """Whether `select`, `extend-select` and `ignore` enable the code (`Config.is_enabled`): asked of every file."""
    explicit = code in EXPLICIT_ONLY
    selectors = (*(select or ()), *extend_select)
    selected = len(code) if code in selectors else 0 if explicit else _longest_prefix(code, selectors)
    ignored = _longest_prefix(code, ignore)
    if (select is not None or explicit) and selected == 0:
        return False
    return not (ignored and ignored >= selected)


def _longest_prefix(code: str, prefixes) -> int:
    return max((len(prefix) for prefix in prefixes if code.startswith(prefix)), default=0)


def _codes(given, where: str) -> tuple[str, ...]:
    """Codes, prefixes or rule names, each checked, names spelled as their codes."""
    codes = tuple(code_of(entry.strip()) for entry in given)
    for code in codes:
        if not code or not any(known.startswith(code) for known in CODES):
            raise ConfigError(
                f"unknown code {code!r} in {where}: jaxcheck's codes are {', '.join(CODES)} "
                "(a prefix such as 'JAX1' selects a family; a rule's name, such as 'mutable-static', its code)"
            )
    return codes


def split_codes(text: str) -> tuple[str, ...]:
    """'JAX101, JAX102' -> ('JAX101', 'JAX102')"""
    return tuple(part.strip() for part in text.replace(" ", ",").split(",") if part.strip())


def find_config(start: str) -> Config:
    """The config of the nearest pyproject.toml with `[tool.jaxcheck]` above `start`.

    Unless the config names the target JAX release, the requirement on jax of
    the project around `start` is read here too (it is kept for the run), so
    that a project file that cannot be read is a `ConfigError` now, where the
    command and the flake8 plugin report configuration errors, not a crash
    in the middle of the run."""
    config = _find_config(os.path.abspath(start))  # `.` names another folder after a chdir
    if config.target_jax_version is None:
        from jaxcheck.loading.project import find_project

        _inferred_target(find_project(start).root)
    return config


def forget_configs() -> None:
    """Read every pyproject.toml again on the next `find_config` (a long-lived process: the language server)."""
    _find_config.cache_clear()


@lru_cache(maxsize=256)
def _find_config(folder: str) -> Config:
    if not os.path.isdir(folder):
        folder = os.path.dirname(folder)
    current = folder
    while True:
        candidate = os.path.join(current, "pyproject.toml")
        if os.path.isfile(candidate):
            config = load_config(candidate)
            if config is not None:
                return config
        parent = os.path.dirname(current)
        if parent == current:
            return Config(root=folder)
        current = parent


def load_config(path: str) -> Config | None:
    """Read `[tool.jaxcheck]` from a pyproject.toml; None when it has no such table."""
    try:
        document = tomllib.loads(read_bytes(path).decode("utf-8"))
    except SourceError as error:
        raise ConfigError(f"{path}: {error}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise ConfigError(f"{path}: not valid TOML: {error}") from None
    except RecursionError:  # the parser recurses once per level of nesting, in any table
        raise ConfigError(f"{path}: nested too deeply to read") from None
    table = document.get("tool", {}).get("jaxcheck") if isinstance(document.get("tool"), dict) else None
    if table is None:
        return None
    where = f"{path} [tool.jaxcheck]"
    if not isinstance(table, dict):
        raise ConfigError(f"{where}: must be a table")
    unknown = sorted(set(table) - set(KEYS))
    if unknown:
        raise ConfigError(f"{where}: unknown key {unknown[0]!r}; the keys are {', '.join(KEYS)}")
    root = os.path.dirname(os.path.abspath(path))
    select = _code_list(table, "select", where) if "select" in table else None
    if select == ():
        raise ConfigError(f"{where}: 'select' is empty, so no rule would run; remove it to select every code")
    per_file = table.get("per-file-ignores", {})
    if not isinstance(per_file, dict):
        raise ConfigError(f"{where}: 'per-file-ignores' must be a table of pattern = [codes]")
    per_file_ignores = tuple(
        (pattern, _code_list(per_file, pattern, f"{where} per-file-ignores")) for pattern in per_file
    )
    exclude = table.get("exclude", [])
    if not isinstance(exclude, list) or not all(isinstance(item, str) and item for item in exclude):
        raise ConfigError(f"{where}: 'exclude' must be a list of .gitignore-style patterns")
    for key, patterns in (("exclude", exclude), ("per-file-ignores", per_file)):
        for pattern in patterns:
            try:
                compile_pattern(pattern.removeprefix("!"))
            except PatternError as error:
                raise ConfigError(f"{where}: {key!r}: {error}") from None
    target = table.get("target-jax-version")
    return Config(
        root=root,
        source=path,
        profile=_profile(table.get("profile", "default"), where),
        target_jax_version=_version(target, where) if target is not None else None,
        target_given_in=path,
        select=select,
        extend_select=_code_list(table, "extend-select", where),
        ignore=_code_list(table, "ignore", where),
        per_file_ignores=per_file_ignores,
        exclude=tuple(exclude),
        options=Options(
            transforms=tuple(_transform(entry, where) for entry in _names(table, "extra-transforms", where)),
            static_bases=tuple(sorted(set(_dotted_names(table, "static-bases", where)))),
            singletons=tuple(sorted(set(_dotted_names(table, "singletons", where)))),
        ),
    )


def _profile(value, where: str) -> str:
    if value not in PROFILES:
        raise ConfigError(
            f"{where}: 'profile' must be \"default\" (findings with evidence that JAX will go wrong) or "
            f"\"strict\" (the design standard as written), not {value!r}"
        )
    return value


def _version(value, where: str) -> str:
    if not isinstance(value, str) or parse_version(value) is None:
        shown = repr(value) if len(repr(value)) <= 60 else repr(value)[:56] + "...'"  # a version of thousands of digits
        raise ConfigError(
            f"{where}: 'target-jax-version' must be a JAX release such as \"0.11\" or \"0.10.2\", not {shown}"
        )
    return value


def _names(table: dict, key: str, where: str) -> list[str]:
    value = table.get(key, [])
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ConfigError(f"{where}: {key!r} must be a list of strings")
    return value


def _dotted_names(table: dict, key: str, where: str) -> list[str]:
    names = _names(table, key, where)
    for name in names:
        if not _DOTTED.match(name):
            raise ConfigError(f"{where}: {key!r}: {name!r} is not a dotted name such as \"mypkg.config.StaticBase\"")
    return names


def _transform(entry: str, where: str) -> tuple[str, Transform]:
    """`"mypkg.compile:static_argnums"` or `"mypkg.compile:static_argnums,static_argnames"`."""
    name, _, keywords = entry.partition(":")
    parts = [part.strip() for part in keywords.split(",")] if keywords else []
    if not _DOTTED.match(name) or not 1 <= len(parts) <= 2 or not all(_KEYWORD.match(part) for part in parts):
        raise ConfigError(
            f"{where}: 'extra-transforms': {entry!r} should read \"module.function:argnums_keyword\" or "
            "\"module.function:argnums_keyword,argnames_keyword\" (e.g. \"mypkg.compile:static_argnums\")"
        )
    return name, Transform(name, parts[0], parts[1] if len(parts) == 2 else "")


def _code_list(table: dict, key: str, where: str) -> tuple[str, ...]:
    value = table.get(key, [])
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        given = f", not the string {value!r}" if isinstance(value, str) else ""
        raise ConfigError(
            f"{where}: {key!r} must be a list of codes or rule names such as [\"JAX101\", \"mutable-static\"]{given}"
        )
    return _codes(value, f"{where} {key!r}")
