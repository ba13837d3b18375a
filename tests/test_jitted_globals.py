"""JAX204 across modules: a module-level value of one module, jitted code in a second, the change in a third.

Single programs, their findings marked, are case files in `cases/JAX204/`;
the tests here need a package on disk: what counts as a module-level value
depends on which names are modules.
"""

from __future__ import annotations

from pathlib import Path

from helpers import jaxcheck_run, line_of, located, write

CONFIG = """\
SCALES = {"a": 1.0}
"""

MODEL = """\
import jax

from pkg.config import SCALES


@jax.jit
def scaled(x):
    return x * SCALES["a"]


def set_scale(value):
    SCALES["a"] = value
"""

MAIN = """\
from pkg.model import scaled, set_scale


def run():
    first = scaled(1.0)
    set_scale(4.0)
    return first, scaled(1.0)
"""


def test_value_of_one_module_read_in_a_second_changed_from_a_third(tmp_path: Path) -> None:
    for relative, text in {"pkg/__init__.py": "", "pkg/config.py": CONFIG, "pkg/model.py": MODEL, "pkg/main.py": MAIN}.items():
        write(tmp_path, relative, text)
    completed = jaxcheck_run("check", "pkg", cwd=tmp_path)
    assert located(completed.stdout) == {("pkg/model.py", line_of(MODEL, 'SCALES["a"] = value'), 5, "JAX204")}
    assert f"pkg/main.py:{line_of(MAIN, 'first = scaled')}" in completed.stdout  # the call it follows


# A package's `__init__` that deletes the name of its subpackage (`del _src`)
# binds that name at module level: the modules below it are still modules,
# not attributes of a value, and a function's attribute set there is no change
# of anything the jitted code reads.
INIT = """\
from pkg._src.ops import double
del _src
"""

UTIL = """\
def helper(x):
    return x * 2.0
"""

OPS = """\
import jax

from pkg._src.util import helper

LIMIT = 3.0


@jax.jit
def double(x):
    return helper(x) * LIMIT


def set_limit(value):
    global LIMIT
    LIMIT = value
"""

WRAPPERS = """\
import inspect

from pkg._src import ops, util


def wrapped(x):
    result = ops.double(x)
    util.helper.__signature__ = inspect.signature(util.helper)
    return result
"""


def test_attribute_set_on_a_function_under_a_deleted_package_name_is_no_change(tmp_path: Path) -> None:
    files = {
        "pkg/__init__.py": INIT, "pkg/_src/__init__.py": "", "pkg/_src/util.py": UTIL, "pkg/_src/ops.py": OPS,
        "pkg/_src/wrappers.py": WRAPPERS,
    }
    for relative, text in files.items():
        write(tmp_path, relative, text)
    completed = jaxcheck_run("check", "--profile", "strict", "pkg", cwd=tmp_path)
    # Only the public setter of `LIMIT`, which users may call after `double` was traced (latent).
    limit = ("pkg/_src/ops.py", line_of(OPS, "LIMIT = value"), 5, "JAX204")
    assert located(completed.stdout) == {limit}, completed.stdout + completed.stderr
    assert "which the library offers its users" in completed.stdout
    # The control: the module-level value itself, changed after the call, is found.
    changed = WRAPPERS.replace("    return result", "    ops.set_limit(4.0)\n    return result")
    write(tmp_path, "pkg/_src/wrappers.py", changed)
    completed = jaxcheck_run("check", "pkg", cwd=tmp_path)
    assert located(completed.stdout) == {limit}
    assert "runs after `double` was called" in completed.stdout
