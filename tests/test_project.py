"""Whole-project analysis (issue 3), as a user meets it: real `jaxcheck check`
and real `flake8 --select JAX` in subprocesses, on small projects in tmp_path.

Each project has a `pyproject.toml`, so its root is tmp_path and its cache is
its folder in the user's cache (`cache_of`). A class defined in one module and passed static in
another is judged with its own module's facts and reported in its own module
(SPEC 3, location rule); the message names the static use as `path:line`,
relative to the working folder. Expectations are exact (path, line, column,
code) sets, and the findings of the CLI and of flake8 are compared whole
(path, line, column, code, message), after dropping the `./` that
`jaxcheck check .` puts in front of paths.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import FLAKE8_LINE, TEXT_LINE, flake8_here, flake8_run, jaxcheck_here, jaxcheck_run, line_of, located, text_findings, write
from jaxcheck.loading.cache import project_cache_folder

SHIPPED = ".jaxcheck_cache"  # where jaxcheck once kept its cache: a repository can ship one
# These projects are about finding classes across modules: they are judged by
# the design standard (the strict profile), which needs no evidence of a change.
PYPROJECT = '[project]\nname = "demo"\nversion = "0"\n\n[tool.jaxcheck]\nprofile = "strict"\n'

# --- the sample project: settings.py defines the class, integrate.py passes it static ---------

SETTINGS = """\
class Settings:
    def __init__(self, steps):
        self.steps = steps
"""

FROZEN_SETTINGS = """\
import dataclasses


@dataclasses.dataclass(frozen=True)
class Settings:
    steps: int
"""

INTEGRATE = """\
from functools import partial

import jax

from pkg.settings import Settings


@partial(jax.jit, static_argnums=1)
def integrate(x, settings: Settings):
    return x * settings.steps
"""
USE = "@partial(jax.jit"  # the static use: the transform's application
MUTABLE = ("JAX101", "JAX102")  # a plain class: mutable, and hashes by identity

SAMPLE = {
    "pkg/__init__.py": "",
    "pkg/settings.py": SETTINGS,
    "pkg/integrate.py": INTEGRATE,
}


def make(root: Path, files: dict[str, str]) -> Path:
    """A project at `root`: a pyproject.toml (so `root` is the project root) and `files`."""
    write(root, "pyproject.toml", PYPROJECT)
    for relative, content in files.items():
        write(root, relative, content)
    return root


def norm(path: str) -> str:
    return path[2:] if path.startswith("./") else path


def _findings(completed: subprocess.CompletedProcess, pattern) -> list[tuple[str, int, int, str, str]]:
    assert "Traceback" not in completed.stderr, completed.stderr
    assert "PluginExecutionFailed" not in completed.stderr + completed.stdout, completed.stderr
    assert "JAX000" not in completed.stdout, completed.stdout
    found = [(norm(path), *rest) for path, *rest in text_findings(completed.stdout, pattern)]
    assert completed.returncode == (1 if found else 0), (completed.returncode, completed.stdout, completed.stderr)
    return sorted(set(found))


def cli(root: Path, *args: str) -> list[tuple[str, int, int, str, str]]:
    """`jaxcheck check args...` in `root` (in this process): its findings, `./` dropped from paths."""
    return _findings(jaxcheck_here("check", *args, cwd=root), TEXT_LINE)


def flake8(root: Path, *args: str) -> list[tuple[str, int, int, str, str]]:
    """`flake8 --select JAX args...` in `root` (in this process): its findings, `./` dropped from paths."""
    return _findings(flake8_here(*args, cwd=root), FLAKE8_LINE)


def where(findings) -> set[tuple[str, int, int, str]]:
    return {finding[:4] for finding in findings}


def at(path: str, line: int, codes=MUTABLE, column: int = 1) -> set[tuple[str, int, int, str]]:
    return {(path, line, column, code) for code in codes}


def assert_names_use(findings, use: str, cls: str = "Settings") -> None:
    """Every finding names the class and the static use as `path:line` (`use` is that,
    or a `path:` whose line is left open)."""
    assert findings
    pattern = re.escape(use) + (r"(?!\d)" if use[-1].isdigit() else r"\d+\b")
    for finding in findings:
        message = finding[4]
        assert f"`{cls}`" in message, message
        assert re.search(pattern, message), (use, message)


def cache_of(root: Path) -> Path:
    """The project's cache folder, in the user's cache (the tests': `conftest.py`)."""
    return Path(project_cache_folder(str(root)))


def cache_entries(root: Path) -> dict[str, Path]:
    """The project's cache entries by name: `results`, `stamps`, `valid` and `facts/<key>`."""
    folder = cache_of(root)
    return {
        str(path.relative_to(folder)): path
        for path in [*folder.glob("*"), *folder.glob("facts/*")]
        if path.is_file() and not path.name.startswith(".tmp-")
    }

def tree(root: Path) -> dict[str, str]:
    """Every file below `root` outside the cache, with a digest of its content."""
    listing = {}
    for folder, folders, files in os.walk(root):
        folders[:] = [name for name in folders if name != SHIPPED]
        for name in files:
            path = Path(folder, name)
            listing[str(path.relative_to(root))] = hashlib.sha256(path.read_bytes()).hexdigest()
    return listing


# --- 1. settings/integrate: same findings three ways ------------------------------------------------


def test_settings_integrate_same_findings_from_cli_flake8_and_flake8_on_one_file(tmp_path: Path) -> None:
    make(tmp_path, SAMPLE)
    use = f"pkg/integrate.py:{line_of(INTEGRATE, USE)}"
    expected = at("pkg/settings.py", 1)

    cold_package = flake8(tmp_path, "pkg")  # flake8 first, from a cold cache
    assert where(cold_package) == expected
    assert_names_use(cold_package, use)
    shutil.rmtree(cache_of(tmp_path))

    by_cli = cli(tmp_path, ".")
    assert where(by_cli) == expected
    assert_names_use(by_cli, use)
    assert by_cli == cold_package
    assert cache_of(tmp_path).is_dir() and not (tmp_path / SHIPPED).exists()

    assert flake8(tmp_path, "pkg") == by_cli  # warm
    assert flake8(tmp_path, "pkg/settings.py") == by_cli  # one file, once the index exists
    assert cli(tmp_path, "pkg/settings.py") == by_cli

    shutil.rmtree(cache_of(tmp_path))
    assert flake8(tmp_path, "pkg/settings.py") == by_cli  # one file, cold
    shutil.rmtree(cache_of(tmp_path))
    assert cli(tmp_path, "--no-cache", "pkg/settings.py") == by_cli
    assert not cache_of(tmp_path).exists()
    # The file with the use has no finding of its own; checked alone, the CLI
    # shows the class's findings it makes (flake8 reports a file's own only).
    assert cli(tmp_path, "pkg/integrate.py") == by_cli
    assert flake8(tmp_path, "pkg/integrate.py") == []


DRIVER = """\
from pkg.integrate import integrate
from pkg.settings import Settings

first = integrate(1.0, Settings(3))
"""


def test_use_by_a_call_site_in_a_third_module(tmp_path: Path) -> None:
    # The static parameter is not annotated: the class is found from a call in another module.
    integrate = INTEGRATE.replace("settings: Settings", "settings").replace("from pkg.settings import Settings\n", "")
    make(tmp_path, {"pkg/__init__.py": "", "pkg/settings.py": SETTINGS, "pkg/integrate.py": integrate, "pkg/driver.py": DRIVER})
    by_cli = cli(tmp_path, ".")
    assert where(by_cli) == at("pkg/settings.py", 1)
    assert_names_use(by_cli, f"pkg/driver.py:{line_of(DRIVER, 'first =')}")
    assert flake8(tmp_path, "pkg") == by_cli
    shutil.rmtree(cache_of(tmp_path))
    assert flake8(tmp_path, "pkg/settings.py") == by_cli


def test_use_is_named_relative_to_the_working_folder(tmp_path: Path) -> None:
    make(tmp_path, SAMPLE)
    line = line_of(INTEGRATE, USE)
    from_root = cli(tmp_path, ".")
    assert_names_use(from_root, f"pkg/integrate.py:{line}")
    from_package = cli(tmp_path / "pkg", ".")  # the cache's results were stored for another folder
    assert where(from_package) == at("settings.py", 1)
    assert_names_use(from_package, f"integrate.py:{line}")
    assert not any("pkg/integrate.py" in finding[4] for finding in from_package)
    assert flake8(tmp_path / "pkg", "settings.py") == from_package
    assert cli(tmp_path, ".") == from_root
    # From the folder above the project, every path (the use's too) starts with the project's folder.
    name = tmp_path.name
    from_above = cli(tmp_path.parent, f"{name}/pkg/settings.py")
    assert where(from_above) == at(f"{name}/pkg/settings.py", 1)
    assert_names_use(from_above, f"{name}/pkg/integrate.py:{line}")
    assert flake8(tmp_path.parent, f"{name}/pkg/settings.py") == from_above


# --- 2. layouts and imports --------------------------------------------------------------------------

# Each case: files, the file defining the mutable class, the file holding the static use.
LAYOUTS = {
    "src_layout": (
        {"src/pkg/__init__.py": "", "src/pkg/settings.py": SETTINGS, "src/pkg/integrate.py": INTEGRATE},
        "src/pkg/settings.py",
        "src/pkg/integrate.py",
    ),
    "src_layout_namespace_package": (
        {"src/pkg/settings.py": SETTINGS, "src/pkg/integrate.py": INTEGRATE},
        "src/pkg/settings.py",
        "src/pkg/integrate.py",
    ),
    "flat_namespace_package": (
        {"pkg/settings.py": SETTINGS, "pkg/integrate.py": INTEGRATE},
        "pkg/settings.py",
        "pkg/integrate.py",
    ),
    "relative_import": (
        {
            "pkg/__init__.py": "",
            "pkg/settings.py": SETTINGS,
            "pkg/integrate.py": INTEGRATE.replace("from pkg.settings import", "from .settings import"),
        },
        "pkg/settings.py",
        "pkg/integrate.py",
    ),
    "relative_import_from_parent_package": (
        {
            "pkg/__init__.py": "",
            "pkg/core/__init__.py": "",
            "pkg/core/settings.py": SETTINGS,
            "pkg/solver/__init__.py": "",
            "pkg/solver/integrate.py": INTEGRATE.replace("from pkg.settings import", "from ..core.settings import"),
        },
        "pkg/core/settings.py",
        "pkg/solver/integrate.py",
    ),
    "relative_import_in_src_layout": (
        {
            "src/pkg/__init__.py": "",
            "src/pkg/core/__init__.py": "",
            "src/pkg/core/settings.py": SETTINGS,
            "src/pkg/solver/__init__.py": "",
            "src/pkg/solver/integrate.py": INTEGRATE.replace("from pkg.settings import", "from ..core.settings import"),
        },
        "src/pkg/core/settings.py",
        "src/pkg/solver/integrate.py",
    ),
    "reexport_through_init": (
        {
            "pkg/__init__.py": "from .settings import Settings\n",
            "pkg/settings.py": SETTINGS,
            "pkg/integrate.py": INTEGRATE.replace("from pkg.settings import", "from pkg import"),
        },
        "pkg/settings.py",
        "pkg/integrate.py",
    ),
    "reexport_two_levels_src_layout": (
        {
            "src/pkg/__init__.py": "from .core import Settings\n",
            "src/pkg/core/__init__.py": "from pkg.core.settings import Settings\n",
            "src/pkg/core/settings.py": SETTINGS,
            "src/pkg/integrate.py": INTEGRATE.replace("from pkg.settings import", "from pkg import"),
        },
        "src/pkg/core/settings.py",
        "src/pkg/integrate.py",
    ),
    "reexport_as_package_attribute": (
        {
            "pkg/__init__.py": "from .settings import Settings\n",
            "pkg/settings.py": SETTINGS,
            "pkg/integrate.py": INTEGRATE.replace("from pkg.settings import Settings", "import pkg").replace(
                "settings: Settings", "settings: pkg.Settings"
            ),
        },
        "pkg/settings.py",
        "pkg/integrate.py",
    ),
    "alias": (
        {
            "pkg/__init__.py": "",
            "pkg/settings.py": SETTINGS,
            "pkg/integrate.py": INTEGRATE.replace("import Settings", "import Settings as Options").replace(
                "settings: Settings", "settings: Options"
            ),
        },
        "pkg/settings.py",
        "pkg/integrate.py",
    ),
    "module_alias": (
        {
            "pkg/__init__.py": "",
            "pkg/settings.py": SETTINGS,
            "pkg/integrate.py": INTEGRATE.replace("from pkg.settings import Settings", "from pkg import settings as cfg").replace(
                "settings: Settings", "settings: cfg.Settings"
            ),
        },
        "pkg/settings.py",
        "pkg/integrate.py",
    ),
    # A regular package inside a namespace package (`orbax/checkpoint`, no
    # `orbax/__init__.py`) is imported by its full name from the root.
    "package_inside_a_namespace_package": (
        {
            "ns/pkg/__init__.py": "",
            "ns/pkg/settings.py": SETTINGS,
            "ns/pkg/integrate.py": INTEGRATE.replace("pkg.settings", "ns.pkg.settings"),
        },
        "ns/pkg/settings.py",
        "ns/pkg/integrate.py",
    ),
    # A monorepo: no marker between the package and the repository's root, so
    # Python imports `pkg` from the folder above its topmost `__init__.py`.
    "package_below_the_root_of_a_monorepo": (
        {
            "services/trainer/pkg/__init__.py": "",
            "services/trainer/pkg/settings.py": SETTINGS,
            "services/trainer/pkg/integrate.py": INTEGRATE,
        },
        "services/trainer/pkg/settings.py",
        "services/trainer/pkg/integrate.py",
    ),
    "subpackage_below_the_root_of_a_monorepo": (
        {
            "libs/core/pkg/__init__.py": "",
            "libs/core/pkg/config/__init__.py": "",
            "libs/core/pkg/config/settings.py": SETTINGS,
            "libs/core/pkg/integrate.py": INTEGRATE.replace("pkg.settings", "pkg.config.settings"),
        },
        "libs/core/pkg/config/settings.py",
        "libs/core/pkg/integrate.py",
    ),
    # One package of the monorepo imports another, through a re-export of its `__init__.py`.
    "package_of_a_monorepo_imported_by_another": (
        {
            "libs/core/pkg/__init__.py": "from pkg.settings import Settings\n",
            "libs/core/pkg/settings.py": SETTINGS,
            "services/trainer/app/__init__.py": "",
            "services/trainer/app/integrate.py": INTEGRATE.replace("from pkg.settings import", "from pkg import"),
        },
        "libs/core/pkg/settings.py",
        "services/trainer/app/integrate.py",
    ),
    # A namespace package (no `__init__.py`) beside a regular one below the same folder.
    "namespace_package_below_the_root_of_a_monorepo": (
        {
            "services/trainer/pkg/settings.py": SETTINGS,
            "services/trainer/app/__init__.py": "",
            "services/trainer/app/integrate.py": INTEGRATE,
        },
        "services/trainer/pkg/settings.py",
        "services/trainer/app/integrate.py",
    ),
    "import_cycle_use_in_importer": (
        {
            "pkg/__init__.py": "",
            "pkg/settings.py": "import pkg.integrate\n\n\n" + SETTINGS,
            "pkg/integrate.py": INTEGRATE,
        },
        "pkg/settings.py",
        "pkg/integrate.py",
    ),
    "import_cycle_through_init": (
        {
            "pkg/__init__.py": "from pkg.integrate import integrate\nfrom pkg.settings import Settings\n",
            "pkg/settings.py": "from pkg import integrate\n\n\n" + SETTINGS,
            "pkg/integrate.py": INTEGRATE.replace("from pkg.settings import", "from pkg import"),
        },
        "pkg/settings.py",
        "pkg/integrate.py",
    ),
}


@pytest.mark.parametrize("case", sorted(LAYOUTS))
def test_layouts_and_imports(tmp_path: Path, case: str) -> None:
    files, defining, using = LAYOUTS[case]
    make(tmp_path, files)
    line = line_of(files[defining], "class Settings")
    by_cli = cli(tmp_path, ".")
    assert where(by_cli) == at(defining, line)
    assert_names_use(by_cli, f"{using}:{line_of(files[using], USE)}")
    top = defining.split("/")[0]
    assert flake8(tmp_path, top) == by_cli
    assert flake8(tmp_path, defining) == by_cli  # warm
    shutil.rmtree(cache_of(tmp_path))
    assert flake8(tmp_path, defining) == by_cli  # cold
    assert cli(tmp_path, "--no-cache", defining) == by_cli



def test_import_roots_are_the_folders_above_topmost_packages(tmp_path: Path) -> None:
    from jaxcheck.loading.project import find_project

    make(
        tmp_path,
        {
            "services/trainer/pkg/__init__.py": "",  # services/trainer is an import root
            "services/trainer/pkg/sub/__init__.py": "",
            "services/trainer/tools/convert.py": "",  # a namespace package beside it
            "services/trainer/run.py": "",  # a module beside it
            "services/trainer/not-a-name.py": "",
            "services/server/app/__init__.py": "",  # a second root
            "services/server/tools/serve.py": "",  # `tools` is offered twice: ambiguous
            "top/__init__.py": "",  # imported from the project's root already
            "libs/top/__init__.py": "",  # so another `top` is not it
            "notes/readme.py": "",  # no package: not a root
            "services/trainer/logging/__init__.py": "",  # the standard library's name keeps its meaning
            "lib/__init__.py": "",
            "lib/_src/ops/__init__.py": "",  # a namespace portion of the package `lib`: not a root
        },
    )
    project = find_project(str(tmp_path))
    files = [str(path) for path in tmp_path.rglob("*.py")]
    assert project.import_roots(files) == {
        "pkg": "services.trainer.pkg",
        "run": "services.trainer.run",
        "app": "services.server.app",
    }
    assert find_project(str(tmp_path / "services/trainer/run.py")).import_roots(files) == project.import_roots(files)


def test_a_vendored_library_never_stands_for_it() -> None:
    from jaxcheck.facts import Ref
    from jaxcheck.model.symbols import Symbols

    symbols = Symbols([], {"jax": "third_party.jax.jax", "pkg": "services.trainer.pkg"})
    assert symbols.canonical(Ref("jax.jit")) == Ref("jax.jit")
    assert symbols.canonical(Ref("pkg.settings.Settings")) == Ref("services.trainer.pkg.settings.Settings")


SCALE_CONFIG = "SCALE = 1.0\n"
SCALE_MODEL = """\
import jax

from pkg import config


@jax.jit
def apply(x):
    return x * config.SCALE
"""
SCALE_MAIN = """\
from pkg import config
from pkg.model import apply


def run():
    first = float(apply(2.0))
    config.SCALE = 4.0
    return first, float(apply(2.0))
"""


@pytest.mark.parametrize("fixed", [False, True], ids=["stale", "fixed"])
def test_a_global_changed_through_its_module_in_a_third_module(tmp_path: Path, fixed: bool) -> None:
    # Nothing in model.py but a module-level `@jax.jit` says it matters (JAX204).
    model, main = SCALE_MODEL, SCALE_MAIN
    if fixed:  # the value is an argument, read anew on every call
        model = model.replace("def apply(x):", "def apply(x, scale):").replace("config.SCALE", "scale")
        main = main.replace("apply(2.0)", "apply(2.0, config.SCALE)")
    make(tmp_path, {"pkg/__init__.py": "", "pkg/config.py": SCALE_CONFIG, "pkg/model.py": model, "pkg/main.py": main})
    run = subprocess.run(
        [sys.executable, "-c", "from pkg.main import run; print(run())"], cwd=tmp_path, capture_output=True, text=True
    )
    assert run.stdout.strip() == ("(2.0, 8.0)" if fixed else "(2.0, 2.0)"), run.stderr  # stale: 2.0 where 8.0 is right
    by_cli = cli(tmp_path, ".")
    expected = set() if fixed else {("pkg/main.py", line_of(main, "config.SCALE = 4.0"), 5, "JAX204")}
    assert where(by_cli) == expected
    assert flake8(tmp_path, "pkg") == by_cli


CYCLE_A = """\
from functools import partial

import jax

from pkg.b import Options


@partial(jax.jit, static_argnums=1)
def run(x, options: Options):
    return x * options.scale
"""

CYCLE_B = """\
from pkg.a import run


class Options:
    def __init__(self, scale):
        self.scale = scale


def main():
    return run(1.0, Options(2))
"""


def test_import_cycle_class_defined_in_the_module_that_imports_the_use(tmp_path: Path) -> None:
    # a imports b for the class; b imports a for the function and calls it.
    make(tmp_path, {"pkg/__init__.py": "", "pkg/a.py": CYCLE_A, "pkg/b.py": CYCLE_B})
    by_cli = cli(tmp_path, ".")
    assert where(by_cli) == at("pkg/b.py", line_of(CYCLE_B, "class Options"))
    for finding in by_cli:
        assert "`Options`" in finding[4]
        assert f"pkg/a.py:{line_of(CYCLE_A, USE)}" in finding[4] or f"pkg/b.py:{line_of(CYCLE_B, 'return run')}" in finding[4]
    assert flake8(tmp_path, "pkg") == by_cli
    shutil.rmtree(cache_of(tmp_path))
    assert flake8(tmp_path, "pkg/b.py") == by_cli
    shutil.rmtree(cache_of(tmp_path))
    assert flake8(tmp_path, "pkg/a.py") == []


def test_reexport_cycle_that_never_defines_the_class_ends_clean(tmp_path: Path) -> None:
    # `pkg.Settings` -> `pkg.b.Settings` -> `pkg.Settings` ...: nothing defines it, nothing is guessed.
    files = {
        "pkg/__init__.py": "from pkg.b import Settings\n",
        "pkg/b.py": "from pkg import Settings\n",
        "pkg/c.py": "from .d import Settings\n",
        "pkg/d.py": "from .c import Settings\n",
        "pkg/integrate.py": INTEGRATE.replace("from pkg.settings import", "from pkg import"),
        "pkg/other.py": INTEGRATE.replace("from pkg.settings import", "from pkg.c import"),
    }
    make(tmp_path, files)
    assert cli(tmp_path, ".") == []
    assert flake8(tmp_path, "pkg") == []


def test_cycle_of_bases_across_modules_ends(tmp_path: Path) -> None:
    # class A(B) in a.py, class B(A) in b.py: Python would refuse it at import; jaxcheck must not loop.
    files = {
        "pkg/__init__.py": "",
        "pkg/a.py": "from pkg.b import B\n\n\nclass A(B):\n    pass\n",
        "pkg/b.py": "from pkg.a import A\n\n\nclass B(A):\n    pass\n\n\nclass C(B):\n    pass\n",
        "pkg/use.py": USE_CONFIG.replace("from MODULE import Config", "from pkg.b import C as Config"),
    }
    make(tmp_path, files)
    by_cli = cli(tmp_path, ".")
    assert flake8(tmp_path, "pkg") == by_cli
    shutil.rmtree(cache_of(tmp_path))
    assert flake8(tmp_path, "pkg/b.py") == [x for x in by_cli if x[0] == "pkg/b.py"]


MEMBERS = """\
from dataclasses import dataclass


class Settings:
    def __init__(self, steps):
        self.steps = steps

    def bump(self):
        self.steps += 1


@dataclass
class Plain:
    steps: int
"""

MEMBERS_USE = """\
from functools import partial

import jax

from pkg.settings import Plain, Settings


@partial(jax.jit, static_argnums=1)
def integrate(x, settings: Settings):
    return x * settings.steps


@partial(jax.jit, static_argnums=1)
def plain(x, p: Plain):
    return x * p.steps
"""

MEMBERS_DRIVER = """\
from pkg.integrate import integrate, plain
from pkg.settings import Plain, Settings

s = Settings(2)
first = integrate(1.0, s)
second = plain(1.0, Plain(2))
"""


def test_member_at_fault_and_unhashable_class_are_located_in_the_class_module(tmp_path: Path) -> None:
    # The mutation is a method of the class (JAX101 at it); a default @dataclass is unhashable (JAX106 at the class).
    files = {"pkg/__init__.py": "", "pkg/settings.py": MEMBERS, "pkg/integrate.py": MEMBERS_USE, "pkg/driver.py": MEMBERS_DRIVER}
    make(tmp_path, files)
    by_cli = cli(tmp_path, ".")
    assert where(by_cli) == {
        ("pkg/settings.py", line_of(MEMBERS, "class Settings"), 1, "JAX102"),
        ("pkg/settings.py", line_of(MEMBERS, "self.steps += 1"), 9, "JAX101"),
        ("pkg/settings.py", line_of(MEMBERS, "class Plain"), 1, "JAX106"),
    }
    uses = {
        "Settings": (f"pkg/driver.py:{line_of(MEMBERS_DRIVER, 'first =')}", f"pkg/integrate.py:{line_of(MEMBERS_USE, USE)}"),
        "Plain": (
            f"pkg/driver.py:{line_of(MEMBERS_DRIVER, 'second =')}",
            f"pkg/integrate.py:{line_of(MEMBERS_USE, 'def plain') - 1}",
        ),
    }
    for finding in by_cli:
        cls = "Plain" if finding[3] == "JAX106" else "Settings"
        assert f"`{cls}`" in finding[4]
        assert any(re.search(re.escape(use) + r"(?!\d)", finding[4]) for use in uses[cls]), finding[4]
    assert flake8(tmp_path, "pkg") == by_cli
    shutil.rmtree(cache_of(tmp_path))
    assert flake8(tmp_path, "pkg/settings.py") == by_cli


# --- 3. classes with the same name in different modules ----------------------------------------------

FROZEN_CONFIG = """\
from dataclasses import dataclass


@dataclass(frozen=True)
class Config:
    steps: int
"""

MUTABLE_CONFIG = """\
class Config:
    def __init__(self, steps):
        self.steps = steps
"""

USE_CONFIG = """\
from functools import partial

import jax

from MODULE import Config


@partial(jax.jit, static_argnums=1)
def run(x, config: Config):
    return x * config.steps


def main():
    return run(1.0, Config(2))
"""


def same_name_project(frozen_module: str, mutable_module: str, used: str) -> dict[str, str]:
    files = {"pkg/__init__.py": "", "pkg/one/__init__.py": "", "pkg/two/__init__.py": ""}
    files[frozen_module.replace(".", "/") + ".py"] = FROZEN_CONFIG
    files[mutable_module.replace(".", "/") + ".py"] = MUTABLE_CONFIG
    files["pkg/use.py"] = USE_CONFIG.replace("MODULE", used)
    return files


@pytest.mark.parametrize(
    "frozen_module, mutable_module",
    [("pkg.a", "pkg.b"), ("pkg.b", "pkg.a"), ("pkg.one.config", "pkg.two.config"), ("pkg.two.config", "pkg.one.config")],
)
def test_same_name_frozen_class_used_static_mutable_one_never(tmp_path: Path, frozen_module, mutable_module) -> None:
    make(tmp_path, same_name_project(frozen_module, mutable_module, used=frozen_module))
    assert cli(tmp_path, ".") == []
    assert flake8(tmp_path, "pkg") == []
    shutil.rmtree(cache_of(tmp_path))
    assert flake8(tmp_path, mutable_module.replace(".", "/") + ".py") == []


@pytest.mark.parametrize(
    "frozen_module, mutable_module",
    [("pkg.a", "pkg.b"), ("pkg.b", "pkg.a"), ("pkg.one.config", "pkg.two.config"), ("pkg.two.config", "pkg.one.config")],
)
def test_same_name_mutable_class_used_static_frozen_one_never(tmp_path: Path, frozen_module, mutable_module) -> None:
    make(tmp_path, same_name_project(frozen_module, mutable_module, used=mutable_module))
    mutable_path = mutable_module.replace(".", "/") + ".py"
    by_cli = cli(tmp_path, ".")
    assert where(by_cli) == at(mutable_path, 1)
    assert_names_use(by_cli, "pkg/use.py:", cls="Config")
    assert flake8(tmp_path, "pkg") == by_cli
    shutil.rmtree(cache_of(tmp_path))
    assert flake8(tmp_path, mutable_path) == by_cli
    assert flake8(tmp_path, frozen_module.replace(".", "/") + ".py") == []


LOCAL_FROZEN_USE = """\
from dataclasses import dataclass
from functools import partial

import jax

from pkg.b import Config as OtherConfig


@dataclass(frozen=True)
class Config:
    steps: int


@partial(jax.jit, static_argnums=1)
def run(x, config: Config):
    return x * config.steps


def main():
    other = OtherConfig(3)
    return run(1.0, Config(other.steps))
"""


def test_local_class_shadows_an_imported_one_of_the_same_name(tmp_path: Path) -> None:
    # The module's own frozen Config is static; pkg.b's mutable Config is used, but never static.
    make(tmp_path, {"pkg/__init__.py": "", "pkg/a.py": LOCAL_FROZEN_USE, "pkg/b.py": MUTABLE_CONFIG})
    assert cli(tmp_path, ".") == []
    assert flake8(tmp_path, "pkg") == []
    shutil.rmtree(cache_of(tmp_path))
    assert flake8(tmp_path, "pkg/b.py") == []


# --- 4. inheritance across modules ---------------------------------------------------------------

FROZEN_BASE = """\
from dataclasses import dataclass


@dataclass(frozen=True)
class FrozenBase:
    steps: int
"""

VALUE_BASE = """\
class ValueBase:
    __slots__ = ("steps",)

    def __init__(self, steps):
        object.__setattr__(self, "steps", steps)

    def __setattr__(self, name, value):
        raise AttributeError("ValueBase is immutable")

    def __delattr__(self, name):
        raise AttributeError("ValueBase is immutable")

    def __hash__(self):
        return hash((type(self), self.steps))

    def __eq__(self, other):
        return type(self) is type(other) and self.steps == other.steps
"""

MUTABLE_BASE = """\
class MutableBase:
    def __init__(self, steps):
        self.steps = steps
"""

VALUE_HASHED_MUTABLE_BASE = """\
class MutableBase:
    def __init__(self, steps):
        self.steps = steps

    def __hash__(self):
        return hash((type(self), self.steps))

    def __eq__(self, other):
        return type(self) is type(other) and self.steps == other.steps
"""

FROZEN_SUBCLASS = """\
from dataclasses import dataclass

from pkg.base import FrozenBase


@dataclass(frozen=True)
class Config(FrozenBase):
    scale: float = 1.0
"""

PLAIN_SUBCLASS = """\
from pkg.base import BASE


class Config(BASE):
    def doubled(self):
        return 2 * self.steps
"""

USE_SUBCLASS = """\
from functools import partial

import jax

from pkg.config import Config


@partial(jax.jit, static_argnums=1)
def run(x, config: Config):
    return x * config.steps


def main():
    return run(1.0, Config(2))
"""


def inheritance_project(base: str, config: str) -> dict[str, str]:
    return {"pkg/__init__.py": "", "pkg/base.py": base, "pkg/config.py": config, "pkg/use.py": USE_SUBCLASS}


@pytest.mark.parametrize(
    "base, config",
    [
        pytest.param(FROZEN_BASE, FROZEN_SUBCLASS, id="frozen_dataclass_subclass_of_frozen_base"),
        pytest.param(FROZEN_BASE, PLAIN_SUBCLASS.replace("BASE", "FrozenBase"), id="plain_subclass_of_frozen_base"),
        pytest.param(VALUE_BASE, PLAIN_SUBCLASS.replace("BASE", "ValueBase"), id="base_with_value_hash_and_blocked_setattr"),
    ],
)
def test_immutable_base_in_another_module_counts(tmp_path: Path, base: str, config: str) -> None:
    make(tmp_path, inheritance_project(base, config))
    assert cli(tmp_path, ".") == []
    assert flake8(tmp_path, "pkg") == []
    shutil.rmtree(cache_of(tmp_path))
    assert flake8(tmp_path, "pkg/config.py") == []
    assert flake8(tmp_path, "pkg/base.py") == []


@pytest.mark.parametrize(
    "base, codes",
    [
        pytest.param(MUTABLE_BASE, MUTABLE, id="plain_mutable_base"),
        pytest.param(VALUE_HASHED_MUTABLE_BASE, ("JAX101",), id="value_hashed_but_mutable_base"),
    ],
)
def test_mutable_base_in_another_module_is_reported_in_the_subclass_module(tmp_path: Path, base: str, codes) -> None:
    config = PLAIN_SUBCLASS.replace("BASE", "MutableBase")
    make(tmp_path, inheritance_project(base, config))
    by_cli = cli(tmp_path, ".")
    assert where(by_cli) == at("pkg/config.py", line_of(config, "class Config"), codes)
    assert_names_use(by_cli, "pkg/use.py:", cls="Config")
    assert flake8(tmp_path, "pkg") == by_cli
    shutil.rmtree(cache_of(tmp_path))
    assert flake8(tmp_path, "pkg/config.py") == by_cli
    assert flake8(tmp_path, "pkg/base.py") == []


SAME_NAME_BASES_USE = """\
from functools import partial

import jax

from pkg.bad import Config as Bad
from pkg.good import Config


@partial(jax.jit, static_argnums=1)
def run(x, config: Config):
    return x * config.steps


@jax.jit(static_argnums=0)
def twice(bad: Bad):
    return 2 * bad.steps
"""


MODULE_ATTRIBUTE_BASES = """\
import pkg.base
from pkg import base


class Config(base.MutableBase):
    def doubled(self):
        return 2 * self.steps


class Frozen(pkg.base.FrozenBase):
    def doubled(self):
        return 2 * self.steps
"""

MODULE_ATTRIBUTE_USE = """\
from functools import partial

import jax

from pkg.config import Config, Frozen


@partial(jax.jit, static_argnums=(1, 2))
def run(x, config: Config, frozen: Frozen):
    return x * config.steps * frozen.steps
"""


def test_bases_named_through_a_module(tmp_path: Path) -> None:
    # `base.MutableBase` and `pkg.base.FrozenBase`: the base is named by a module attribute.
    files = {
        "pkg/__init__.py": "",
        "pkg/base.py": MUTABLE_BASE + "\n\n" + FROZEN_BASE,
        "pkg/config.py": MODULE_ATTRIBUTE_BASES,
        "pkg/use.py": MODULE_ATTRIBUTE_USE,
    }
    make(tmp_path, files)
    by_cli = cli(tmp_path, ".")
    assert where(by_cli) == at("pkg/config.py", line_of(MODULE_ATTRIBUTE_BASES, "class Config"))
    assert_names_use(by_cli, f"pkg/use.py:{line_of(MODULE_ATTRIBUTE_USE, USE)}", cls="Config")
    assert flake8(tmp_path, "pkg") == by_cli
    shutil.rmtree(cache_of(tmp_path))
    assert flake8(tmp_path, "pkg/config.py") == by_cli


def test_same_name_bases_in_two_modules_are_not_confused(tmp_path: Path) -> None:
    # pkg.frozen.base.Base is a frozen dataclass, pkg.loose.base.Base a plain class.
    files = {
        "pkg/__init__.py": "",
        "pkg/frozen/__init__.py": "",
        "pkg/frozen/base.py": FROZEN_BASE.replace("FrozenBase", "Base"),
        "pkg/loose/__init__.py": "",
        "pkg/loose/base.py": MUTABLE_BASE.replace("MutableBase", "Base"),
        "pkg/good.py": PLAIN_SUBCLASS.replace("pkg.base import BASE", "pkg.frozen.base import Base").replace("BASE", "Base"),
        "pkg/bad.py": PLAIN_SUBCLASS.replace("pkg.base import BASE", "pkg.loose.base import Base").replace("BASE", "Base"),
        "pkg/use.py": SAME_NAME_BASES_USE,
    }
    make(tmp_path, files)
    by_cli = cli(tmp_path, ".")
    assert where(by_cli) == at("pkg/bad.py", line_of(files["pkg/bad.py"], "class Config"))
    assert_names_use(by_cli, f"pkg/use.py:{line_of(SAME_NAME_BASES_USE, '@jax.jit(static_argnums=0)')}", cls="Config")
    assert flake8(tmp_path, "pkg") == by_cli
    shutil.rmtree(cache_of(tmp_path))
    assert flake8(tmp_path, "pkg/good.py") == []
    assert flake8(tmp_path, "pkg/bad.py") == by_cli


def test_base_reexported_through_a_package_and_a_chain_of_modules(tmp_path: Path) -> None:
    mid = FROZEN_SUBCLASS.replace("class Config(FrozenBase)", "class Mid(FrozenBase)").replace(
        "from pkg.base import FrozenBase", "from pkg import FrozenBase"
    )
    config = FROZEN_SUBCLASS.replace("class Config(FrozenBase)", "class Config(Mid)").replace(
        "from pkg.base import FrozenBase", "from .mid import Mid"
    ).replace("scale: float = 1.0", "offset: int = 0")
    files = {
        "pkg/__init__.py": "from pkg.base import FrozenBase\n",
        "pkg/base.py": FROZEN_BASE,
        "pkg/mid.py": mid,
        "pkg/config.py": config,
        "pkg/use.py": USE_SUBCLASS,
    }
    make(tmp_path, files)
    assert cli(tmp_path, ".") == []
    assert flake8(tmp_path, "pkg") == []
    # The same chain with a mutable base at its root is reported at the static class.
    files["pkg/base.py"] = MUTABLE_BASE.replace("MutableBase", "FrozenBase")
    files["pkg/mid.py"] = PLAIN_SUBCLASS.replace("class Config(BASE)", "class Mid(FrozenBase)").replace(
        "from pkg.base import BASE", "from pkg import FrozenBase"
    )
    files["pkg/config.py"] = PLAIN_SUBCLASS.replace("class Config(BASE)", "class Config(Mid)").replace(
        "from pkg.base import BASE", "from .mid import Mid"
    )
    make(tmp_path, files)
    by_cli = cli(tmp_path, ".")
    assert where(by_cli) == at("pkg/config.py", line_of(files["pkg/config.py"], "class Config"))
    assert flake8(tmp_path, "pkg") == by_cli


# --- 5. the cache ---------------------------------------------------------------------------------


def test_the_cache_is_outside_the_project_and_a_warm_run_prints_the_same(tmp_path: Path) -> None:
    make(tmp_path, SAMPLE)
    before = tree(tmp_path)
    first = jaxcheck_run("check", ".", cwd=tmp_path)
    assert (cache_of(tmp_path) / "results").is_file() and tree(tmp_path) == before
    second = jaxcheck_run("check", ".", cwd=tmp_path)
    assert (second.returncode, second.stdout, second.stderr) == (first.returncode, first.stdout, first.stderr)
    assert first.returncode == 1
    assert where(_findings(first, TEXT_LINE)) == at("pkg/settings.py", 1)
    assert not list(cache_of(tmp_path).rglob(".tmp-*"))  # no half-written entry left behind


def test_stale_cache_after_editing_the_class(tmp_path: Path) -> None:
    make(tmp_path, SAMPLE)
    bug = cli(tmp_path, ".")
    assert where(bug) == at("pkg/settings.py", 1)
    write(tmp_path, "pkg/settings.py", FROZEN_SETTINGS)
    assert cli(tmp_path, ".") == []
    assert flake8(tmp_path, "pkg/settings.py") == []
    write(tmp_path, "pkg/settings.py", SETTINGS)
    assert cli(tmp_path, ".") == bug
    assert flake8(tmp_path, "pkg/settings.py") == bug


def test_stale_cache_after_editing_the_module_that_uses_the_class(tmp_path: Path) -> None:
    # settings.py does not change: its findings depend on integrate.py all the same.
    make(tmp_path, SAMPLE)
    bug = cli(tmp_path, ".")
    assert flake8(tmp_path, "pkg/settings.py") == bug
    # Same size, same folder listing: only the text tells (argument 0 is `x`, a plain number).
    write(tmp_path, "pkg/integrate.py", INTEGRATE.replace("static_argnums=1", "static_argnums=0"))
    assert flake8(tmp_path, "pkg/settings.py") == []
    assert cli(tmp_path, ".") == []
    write(tmp_path, "pkg/integrate.py", INTEGRATE)
    assert flake8(tmp_path, "pkg/settings.py") == bug
    assert cli(tmp_path, ".") == bug


def test_stale_cache_after_removing_and_restoring_the_use(tmp_path: Path) -> None:
    make(tmp_path, SAMPLE)
    bug = cli(tmp_path, ".")
    (tmp_path / "pkg/integrate.py").unlink()
    assert cli(tmp_path, ".") == []
    assert flake8(tmp_path, "pkg/settings.py") == []
    write(tmp_path, "pkg/integrate.py", INTEGRATE)
    assert flake8(tmp_path, "pkg/settings.py") == bug
    assert cli(tmp_path, ".") == bug


def test_stale_cache_after_moving_the_class_to_another_module(tmp_path: Path) -> None:
    # Same text, another module name: the cached facts of `pkg.settings` must not speak for `pkg.options`.
    make(tmp_path, SAMPLE)
    cli(tmp_path, ".")
    (tmp_path / "pkg/settings.py").rename(tmp_path / "pkg/options.py")
    write(tmp_path, "pkg/settings.py", FROZEN_SETTINGS)
    assert cli(tmp_path, ".") == []
    write(tmp_path, "pkg/integrate.py", INTEGRATE.replace("pkg.settings", "pkg.options"))
    moved = cli(tmp_path, ".")
    assert where(moved) == at("pkg/options.py", 1)
    assert flake8(tmp_path, "pkg/options.py") == moved


GARBAGE = {
    "garbage": lambda data: b"\x00\xff not a pickle at all {{{",
    "empty": lambda data: b"",
    "truncated": lambda data: data[: len(data) // 2],
    "another_type": lambda data: pickle.dumps([1, 2, 3]),
}


@pytest.mark.parametrize("kind", sorted(GARBAGE))
@pytest.mark.parametrize("front_end", ["cli", "flake8_one_file"])
def test_damaged_cache_entries_are_discarded_and_replaced(tmp_path: Path, kind: str, front_end: str) -> None:
    make(tmp_path, SAMPLE)
    bug = cli(tmp_path, ".")
    before = cache_entries(tmp_path)
    assert {"results", "valid"} <= set(before) and len(before) >= 4
    for path in before.values():
        path.write_bytes(GARBAGE[kind](path.read_bytes()))
    if front_end == "cli":
        assert cli(tmp_path, ".") == bug
    else:
        assert flake8(tmp_path, "pkg/settings.py") == bug
    after = cache_entries(tmp_path)
    assert {"results", "valid"} <= set(after)
    for name, path in after.items():
        assert not isinstance(pickle.loads(path.read_bytes()), list), name  # every entry the run read is whole again
    assert cli(tmp_path, ".") == bug  # and the repaired cache gives the same again


@pytest.mark.parametrize("kind", sorted(GARBAGE))
def test_damaged_facts_entries_behind_stale_results(tmp_path: Path, kind: str) -> None:
    # The results are stale after an edit, so the run must read the (damaged) facts of the unchanged files.
    make(tmp_path, SAMPLE)
    bug = cli(tmp_path, ".")
    for name, path in cache_entries(tmp_path).items():
        if name.startswith("facts"):
            path.write_bytes(GARBAGE[kind](path.read_bytes()))
    write(tmp_path, "pkg/integrate.py", INTEGRATE + "# edited\n")  # a file the findings rest on
    assert cli(tmp_path, ".") == bug
    write(tmp_path, "pkg/integrate.py", INTEGRATE)
    assert flake8(tmp_path, "pkg/settings.py") == bug


def test_cache_entry_that_is_a_folder_does_not_crash(tmp_path: Path) -> None:
    make(tmp_path, SAMPLE)
    bug = cli(tmp_path, ".")
    results = cache_of(tmp_path) / "results"
    results.unlink()
    results.mkdir()  # a folder where a file was
    assert cli(tmp_path, ".") == bug
    assert flake8(tmp_path, "pkg/settings.py") == bug


def test_results_of_the_right_fingerprint_but_the_wrong_shape_are_rebuilt(tmp_path: Path) -> None:
    make(tmp_path, SAMPLE)
    bug = cli(tmp_path, ".")
    results = cache_of(tmp_path) / "results"
    fingerprint, found = pickle.loads(results.read_bytes())
    results.write_bytes(pickle.dumps((fingerprint, {path: ("not findings", 1) for path in found})))
    assert cli(tmp_path, ".") == bug
    assert pickle.loads(results.read_bytes()) == (fingerprint, found)  # rebuilt


def test_no_cache_creates_nothing(tmp_path: Path) -> None:
    make(tmp_path, SAMPLE)
    before = tree(tmp_path)
    by_cli = cli(tmp_path, "--no-cache", ".")
    assert where(by_cli) == at("pkg/settings.py", 1)
    assert not cache_of(tmp_path).exists()
    assert tree(tmp_path) == before


def test_writes_nothing_in_the_project(tmp_path: Path) -> None:
    make(tmp_path, SAMPLE)
    before = tree(tmp_path)
    cli(tmp_path, ".")
    cli(tmp_path, "pkg/settings.py")
    flake8(tmp_path, "pkg")
    shutil.rmtree(cache_of(tmp_path))
    flake8(tmp_path, "pkg/settings.py")
    flake8(tmp_path / "pkg", "settings.py")
    assert tree(tmp_path) == before and not (tmp_path / SHIPPED).exists()
    assert not list(cache_of(tmp_path).rglob(".tmp-*"))


def test_concurrent_cold_runs_share_the_cache(tmp_path: Path) -> None:
    make(tmp_path, SAMPLE)
    expected = cli(tmp_path, "--no-cache", ".")
    commands = [[sys.executable, "-m", "jaxcheck", "check", "."]] * 3 + [
        [sys.executable, "-m", "flake8", "--select", "JAX", "pkg/settings.py"]
    ] * 3
    processes = [
        subprocess.Popen(command, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for command in commands
    ]
    for command, process in zip(commands, processes):
        stdout, stderr = process.communicate(timeout=60)
        completed = subprocess.CompletedProcess(command, process.returncode, stdout, stderr)
        pattern = TEXT_LINE if "jaxcheck" in command else FLAKE8_LINE
        assert _findings(completed, pattern) == expected
    for path in cache_entries(tmp_path).values():
        pickle.loads(path.read_bytes())
    assert not list(cache_of(tmp_path).rglob(".tmp-*"))
    assert cli(tmp_path, ".") == expected


# --- 6. parallel flake8 -------------------------------------------------------------------------

FILLER = """\
from dataclasses import dataclass
from functools import partial

import jax


@dataclass(frozen=True)
class Options{n}:
    steps: int


@partial(jax.jit, static_argnums=1)
def step{n}(x, options: Options{n}):
    return x * options.steps


def main{n}():
    return step{n}(1.0, Options{n}({n}))
"""

MODELS = """\
class Model:
    def __init__(self, width):
        self.width = width


class Unused:
    def __init__(self, depth):
        self.depth = depth
"""

TRAIN = """\
from functools import partial

import jax

from pkg.models import Model


@partial(jax.jit, static_argnames="model")
def apply(x, model):
    return x * model.width


def train():
    model = Model(4)
    return apply(1.0, model=model)
"""


def big_project(root: Path, fillers: int = 18) -> Path:
    files = dict(SAMPLE)
    files["pkg/models.py"] = MODELS
    files["pkg/train.py"] = TRAIN
    files["pkg/nested/__init__.py"] = ""
    for n in range(fillers):
        folder = "pkg/nested" if n % 2 else "pkg"
        files[f"{folder}/filler{n}.py"] = FILLER.format(n=n)
    return make(root, files)


def big_expected() -> set[tuple[str, int, int, str]]:
    return at("pkg/settings.py", 1) | at("pkg/models.py", line_of(MODELS, "class Model"))


def test_parallel_flake8_gives_the_same_findings_as_the_cli(tmp_path: Path) -> None:
    big_project(tmp_path)
    assert len(list(tmp_path.rglob("*.py"))) >= 20
    by_cli = cli(tmp_path, ".")
    assert where(by_cli) == big_expected()
    assert_names_use([x for x in by_cli if x[0] == "pkg/settings.py"], f"pkg/integrate.py:{line_of(INTEGRATE, USE)}")
    assert_names_use(
        [x for x in by_cli if x[0] == "pkg/models.py"], f"pkg/train.py:{line_of(TRAIN, 'return apply')}", cls="Model"
    )
    for _ in range(2):  # from a cold cache, twice in a row
        shutil.rmtree(cache_of(tmp_path))
        completed = flake8_run("-vv", "-j", "2", "pkg", cwd=tmp_path)
        assert _findings(completed, FLAKE8_LINE) == by_cli
        # flake8's log names the process of each line: the files were checked in a pool, not serially.
        assert re.search(r"PoolWorker-\d", completed.stderr), completed.stderr[-2000:]
    assert flake8(tmp_path, "-j", "2", "pkg") == by_cli  # warm
    assert flake8(tmp_path, "-j", "2", ".") == by_cli
    for path in cache_entries(tmp_path).values():
        pickle.loads(path.read_bytes())
    assert not list(cache_of(tmp_path).rglob(".tmp-*"))


def test_cli_worker_pool_gives_the_same_findings_as_one_process(tmp_path: Path) -> None:
    # 20+ files with a static use: enough for `--jobs 2` to parse in a pool.
    big_project(tmp_path)
    one = cli(tmp_path, "--no-cache", "--jobs", "1", ".")
    assert where(one) == big_expected()
    assert cli(tmp_path, "--no-cache", "--jobs", "2", ".") == one
    assert cli(tmp_path, "--jobs", "2", ".") == one
    assert cli(tmp_path, "--jobs", "2", ".") == one


# --- 7. classes from outside the project ---------------------------------------------------------

EXTERNAL = {
    "stdlib_annotation": (
        "from fractions import Fraction\n",
        "value: Fraction",
        "run(1.0, Fraction(1, 3))",
    ),
    # Not `argparse.Namespace`: jaxcheck knows it is unhashable (JAX106).
    "stdlib_mutable_class": (
        "import argparse\n",
        "value: argparse.ArgumentParser",
        "run(1.0, argparse.ArgumentParser(prog='run'))",
    ),
    "installed_package_class": (
        "from pycodestyle import Checker\n",
        "value: Checker",
        "run(1.0, Checker(lines=['x = 1\\n']))",
    ),
    "aliased_module": (
        "import fractions as fr\n",
        "value: fr.Fraction",
        "run(1.0, fr.Fraction(2))",
    ),
}

EXTERNAL_USE = """\
from functools import partial

import jax

IMPORT

@partial(jax.jit, static_argnums=1)
def run(x, ANNOTATION):
    return x * value.numerator


def main():
    return CALL
"""


@pytest.mark.parametrize("case", sorted(EXTERNAL))
def test_class_from_outside_the_project_is_left_alone(tmp_path: Path, case: str) -> None:
    imports, annotation, call = EXTERNAL[case]
    use = EXTERNAL_USE.replace("IMPORT", imports).replace("ANNOTATION", annotation).replace("CALL", call)
    # A project module with the same last name must not be taken for the library's.
    make(tmp_path, {"pkg/__init__.py": "", "pkg/use.py": use, "pkg/fractions.py": SETTINGS.replace("Settings", "Fraction")})
    assert cli(tmp_path, ".") == []
    assert flake8(tmp_path, "pkg") == []


SUBCLASS_OF_EXTERNAL = """\
from fractions import Fraction


class Ratio(Fraction):
    def doubled(self):
        return 2 * self.numerator
"""


def test_project_subclass_of_an_unreadable_base_is_not_guessed(tmp_path: Path) -> None:
    # Fraction is immutable and hashes by value; its project subclass inherits that.
    use = USE_SUBCLASS.replace("from pkg.config import Config", "from pkg.ratio import Ratio").replace(
        "Config", "Ratio"
    ).replace("config.steps", "config.doubled()")
    make(tmp_path, {"pkg/__init__.py": "", "pkg/ratio.py": SUBCLASS_OF_EXTERNAL, "pkg/use.py": use})
    assert cli(tmp_path, ".") == []
    assert flake8(tmp_path, "pkg") == []


# --- bugs found while writing these tests ---------------------------------------------------------

LIST_DRIVER = """\
from pkg.integrate import integrate

result = integrate(1.0, [1, 2, 3])
"""


def test_unhashable_value_at_a_call_site_in_another_module_flake8_same_as_cli(tmp_path: Path) -> None:
    integrate = INTEGRATE.replace("settings: Settings", "settings").replace("from pkg.settings import Settings\n", "")
    make(tmp_path, {"pkg/__init__.py": "", "pkg/integrate.py": integrate, "pkg/driver.py": LIST_DRIVER})
    by_cli = cli(tmp_path, ".")
    assert where(by_cli) == {("pkg/driver.py", 3, 25, "JAX106")}
    assert flake8(tmp_path, "pkg") == by_cli
    shutil.rmtree(cache_of(tmp_path))
    assert flake8(tmp_path, "pkg/driver.py") == by_cli


EXCLUDED_BASE_PYPROJECT = PYPROJECT + 'exclude = ["pkg/base.py"]\n'


def test_stale_cache_after_editing_an_excluded_module_the_analysis_reads(tmp_path: Path) -> None:
    make(tmp_path, inheritance_project(MUTABLE_BASE, PLAIN_SUBCLASS.replace("BASE", "MutableBase")))
    write(tmp_path, "pyproject.toml", EXCLUDED_BASE_PYPROJECT)
    bug = cli(tmp_path, ".")
    assert where(bug) == at("pkg/config.py", line_of(PLAIN_SUBCLASS, "class Config"))
    write(tmp_path, "pkg/base.py", FROZEN_BASE.replace("FrozenBase", "MutableBase"))
    assert cli(tmp_path, "--no-cache", ".") == []
    assert flake8(tmp_path, "pkg/config.py") == []
    assert cli(tmp_path, ".") == []


# --- checking only the file that adds a static use ---------------------------------------------


def test_checking_the_file_with_the_use_reports_the_class_it_makes_a_finding(tmp_path: Path) -> None:
    # A commit that only adds the static uses in integrate.py must fail `jaxcheck check integrate.py`
    # (what the pre-commit hook runs on the staged file): the finding is at the class, in settings.py.
    # The default profile: equal objects built in a loop (JAX102), one changed after its use (JAX101).
    write(tmp_path, "pyproject.toml", "[project]\nname = 'p'\n")
    write(tmp_path, "pkg/__init__.py", "")
    write(tmp_path, "pkg/settings.py", "class Vehicle:\n    def __init__(self, n):\n        self.num_wheels = n\n")
    write(
        tmp_path,
        "pkg/integrate.py",
        "import jax\nfrom pkg.settings import Vehicle\n\n@jax.jit(static_argnums=0)\ndef f(x):\n"
        "    return x.num_wheels\n\nfor _ in range(3):\n    car = Vehicle(2)\n    f(car)\ncar.num_wheels = 4\n",
    )
    for cache in ((), ("--no-cache",), ()):
        completed = jaxcheck_run("check", *cache, "pkg/integrate.py", cwd=tmp_path)
        assert completed.returncode == 1, completed.stderr
        assert located(completed.stdout) == {
            (os.path.join("pkg", "settings.py"), 1, 1, "JAX101"),
            (os.path.join("pkg", "settings.py"), 1, 1, "JAX102"),
        }
    write(tmp_path, "pkg/settings.py", "class Vehicle:  # noqa: JAX101, JAX102\n    pass\n")
    assert jaxcheck_run("check", "pkg/integrate.py", cwd=tmp_path).returncode == 0


# --- the loader reads what to load from the facts ------------------------------------------------


def test_a_jit_made_in_one_module_and_called_in_a_loop_in_another(tmp_path: Path) -> None:
    # pkg/b.py holds no transform, so the pre-filter passes it by; the loader
    # reads it because it uses `step`, a function of pkg/a.py that applies one.
    make(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/a.py": "import jax\n\n\ndef step(x):\n    return jax.jit(lambda v: v * 2)(x)\n",
            "pkg/b.py": "from pkg.a import step\n\n\ndef train(xs):\n    for x in xs:\n        step(x)\n",
        },
    )
    expected = {("pkg/a.py", 5, 12, "JAX401")}
    assert where(cli(tmp_path, ".")) == expected
    assert where(cli(tmp_path, "--no-cache", "pkg/a.py")) == expected
    assert where(flake8(tmp_path, "pkg/a.py")) == expected
    assert where(flake8(tmp_path, ".")) == expected
    # Without the loop, called once by a program's `main()`, nothing runs it again and again.
    write(tmp_path, "pkg/b.py", "from pkg.a import step\n\n\ndef main(x):\n    step(x)\n")
    assert cli(tmp_path, ".") == []


def test_without_a_marker_a_script_folder_is_its_modules_and_packages_and_keeps_no_cache(tmp_path: Path) -> None:
    """Issue 16, item 16: `jaxcheck check lone.py` in a scratch (or home) folder
    read every file below it and wrote a cache there. Without a marker the
    project is the folder's own modules and the packages in it, and no cache."""
    from jaxcheck.loading.files import python_files
    from jaxcheck.loading.project import find_project

    write(tmp_path, "pkg/__init__.py", "")
    write(tmp_path, "pkg/settings.py", "class Settings:\n    def __init__(self, n):\n        self.n = n\n")
    write(
        tmp_path,
        "lone.py",
        "from functools import partial\n\nimport jax\n\nfrom pkg.settings import Settings\n\n\n"
        "@partial(jax.jit, static_argnums=0)\ndef f(s):\n    return s.n\n\n\ns = Settings(2)\nf(s)\ns.n = 3\nf(s)\n",
    )
    for number in range(3):
        write(tmp_path, f"downloads/old/stuff{number}.py", "x = 1\n")
    project = find_project(str(tmp_path / "lone.py"))
    assert (project.root, project.marked, project.loose) == (str(tmp_path), False, True)
    found = {os.path.relpath(path, tmp_path) for path in python_files(project.root, lambda *_: False, packages_only=True)}
    assert found == {"lone.py", os.path.join("pkg", "__init__.py"), os.path.join("pkg", "settings.py")}
    before = tree(tmp_path)
    completed = jaxcheck_run("check", "lone.py", cwd=tmp_path)
    assert completed.returncode == 1 and "pkg/settings.py:1:1: JAX101" in completed.stdout, completed.stdout
    flake8_run("lone.py", cwd=tmp_path)
    assert tree(tmp_path) == before and not cache_of(tmp_path).exists()


def test_without_a_marker_a_folder_without_init_inside_a_package_is_part_of_the_package(tmp_path: Path) -> None:
    """evosax ships `evosax/problems/bbob/` with no `__init__.py`: Python
    imports it as a namespace subpackage of `evosax`, by the package's name.
    Read as a folder of loose scripts, its relative import of a sibling
    resolved to nothing, and the finding it rests on was lost."""
    from jaxcheck.loading.project import find_project

    files = {  # no marker anywhere: the package is the project
        "pkg/__init__.py": "",
        "pkg/problems/__init__.py": "",
        "pkg/problems/bbob/meta.py": "class Meta:\n    pass\n",
        "pkg/problems/bbob/bbob.py": "from functools import partial\n\nimport jax\n\nfrom .meta import Meta\n\n\n"
        "@partial(jax.jit, static_argnums=0)\ndef f(m, x):\n    return x\n\n\n"
        "def run(xs):\n    for x in xs:\n        f(Meta(), x)\n",
    }
    for name, text in files.items():
        write(tmp_path, name, text)
    project = find_project(str(tmp_path / "pkg" / "problems" / "bbob" / "meta.py"))
    assert (project.root, project.loose, project.marked) == (str(tmp_path / "pkg"), False, False)
    assert project.module_name(str(tmp_path / "pkg" / "problems" / "bbob" / "meta.py")) == ("pkg.problems.bbob.meta", False)
    for given in ("pkg", "pkg/problems/bbob/meta.py"):
        completed = jaxcheck_run("check", "--no-cache", given, cwd=tmp_path)
        assert "pkg/problems/bbob/meta.py:1:1: JAX102" in completed.stdout, (given, completed.stdout)


# --- a cache no one else can write (issue 44, item 2) ------------------------------------------------


def test_a_cache_a_repository_ships_is_never_read_nor_written(tmp_path: Path) -> None:
    """A repository that ships `.jaxcheck_cache/` with its findings removed
    (empty results of the right shape, entries of every name jaxcheck once
    wrote) changes nothing: the cache is in the user's cache folder."""
    make(tmp_path, SAMPLE)
    expected = cli(tmp_path, "--no-cache", ".")
    assert expected
    shipped = tmp_path / SHIPPED
    for name in ("results.json", "stamps.json", "valid.json", "results", "stamps", "valid", "facts/" + "0" * 64):
        write(shipped, name, "{}\n")
    before = {path: path.read_bytes() for path in shipped.rglob("*") if path.is_file()}
    assert cli(tmp_path, ".") == expected == cli(tmp_path, ".")
    assert flake8(tmp_path, "pkg/settings.py") == [f for f in expected if f[0] == "pkg/settings.py"]
    assert {path: path.read_bytes() for path in shipped.rglob("*") if path.is_file()} == before


@pytest.mark.parametrize("how", ["a-link", "writable-by-others", "another-user"])
def test_a_cache_folder_others_could_have_written_is_not_used(tmp_path: Path, how: str) -> None:
    make(tmp_path, SAMPLE)
    expected = cli(tmp_path, "--no-cache", ".")
    folder = cache_of(tmp_path)
    folder.parent.mkdir(parents=True, exist_ok=True)
    if how == "a-link":
        (tmp_path / "elsewhere").mkdir()
        folder.symlink_to(tmp_path / "elsewhere", target_is_directory=True)
        why = "is not a folder"
    elif how == "writable-by-others":
        folder.mkdir(mode=0o700)
        os.chmod(folder, 0o777)
        why = "others may write to"
    else:
        if not hasattr(os, "chown") or os.getuid() != 0:
            pytest.skip("giving a folder to another user needs root")
        folder.mkdir(mode=0o700)
        os.chown(folder, 12345, 12345)
        why = "belongs to another user"
    planted = folder / "results"
    if how != "another-user":
        planted.write_bytes(pickle.dumps(("0" * 64, {})))
    completed = jaxcheck_run("check", ".", cwd=tmp_path)
    assert _findings(completed, TEXT_LINE) == expected
    assert "jaxcheck: note: the cache was not used:" in completed.stderr and why in completed.stderr, completed.stderr
    assert not (tmp_path / "elsewhere" / "facts").exists()


def test_a_link_or_a_fifo_among_the_entries_is_not_read(tmp_path: Path) -> None:
    make(tmp_path, SAMPLE)
    expected = cli(tmp_path, ".")
    for name, path in cache_entries(tmp_path).items():
        path.unlink()
        if name == "results" and hasattr(os, "mkfifo"):
            os.mkfifo(path)
        else:
            path.symlink_to("/dev/zero")
    assert cli(tmp_path, ".") == expected


def test_old_entries_and_what_a_killed_run_left_are_pruned(tmp_path: Path) -> None:
    make(tmp_path, SAMPLE)
    cli(tmp_path, ".")
    facts = cache_of(tmp_path) / "facts"
    used = {path.name for path in facts.iterdir()}
    for number in range(600):  # entries of edited files
        stale = facts / f"{number:064x}"
        stale.write_bytes(b"old")
        os.utime(stale, (1_000_000 + number, 1_000_000 + number))
    left_behind, fresh = facts / ".tmp-killed", facts / ".tmp-writing"
    left_behind.write_bytes(b"half")
    os.utime(left_behind, (1_000_000, 1_000_000))
    fresh.write_bytes(b"half")  # another run may be writing it now
    write(tmp_path, "pkg/integrate.py", INTEGRATE + "# edited: the results are stale, the facts are read again\n")
    cli(tmp_path, ".")
    left = {path.name for path in facts.iterdir()}
    assert used <= left
    assert len(left) <= 2 * (len(used) + 1) + 256 + 1
    assert f"{599:064x}" in left and f"{0:064x}" not in left  # the oldest go first
    assert ".tmp-killed" not in left and ".tmp-writing" in left


def test_a_cache_folder_left_half_made_is_made_whole(tmp_path: Path) -> None:
    """A full disk can leave the project's folder without its `facts/`: the next run makes it, and uses the cache."""
    make(tmp_path, SAMPLE)
    expected = cli(tmp_path, ".")
    shutil.rmtree(cache_of(tmp_path))
    cache_of(tmp_path).mkdir(mode=0o700, parents=True)
    completed = jaxcheck_run("check", ".", cwd=tmp_path)
    assert _findings(completed, TEXT_LINE) == expected and "cache was not used" not in completed.stderr
    assert (cache_of(tmp_path) / "results").is_file() and list((cache_of(tmp_path) / "facts").iterdir())


def test_a_public_function_another_module_jits_is_still_called_eagerly(tmp_path: Path) -> None:
    # rlax's `knn_query` jits a new `partial` on each call; `exploration.py` jits `knn_query` itself, but users
    # call it eagerly too: each call traces and compiles `_cdist` again (jax 0.10.2 and 0.12.0.1).
    memory = (
        "import functools\n\nimport jax\n\n\ndef _cdist(a, b, metric):\n    return a - b\n\n\n"
        "def knn_query(data, points, metric='l2'):\n"
        "    distance = jax.jit(functools.partial(_cdist, metric=metric))\n    return distance(points, data)\n"
    )
    exploration = (
        "import jax\n\nfrom pkg import memory\n\n\n"
        "def reward(data, points):\n    return jax.jit(memory.knn_query)(data, points)\n"
    )
    make(tmp_path, {"pkg/__init__.py": "", "pkg/memory.py": memory, "pkg/exploration.py": exploration})
    assert where(cli(tmp_path, ".")) == {("pkg/memory.py", 11, 16, "JAX401")}
    # Jitted in its own module, as the body of its module's jit, it runs only while tracing.
    write(tmp_path, "pkg/memory.py", memory + "\n\ndef reward(data, points):\n    return jax.jit(knn_query)(data, points)\n")
    assert cli(tmp_path, ".") == []
