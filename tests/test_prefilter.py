"""The pre-filter skips files before any parse; it must never hide a finding.

Run over real code (the installed equinox and flax, none of it ours), the
findings with the pre-filter must equal those without it, where every file is
parsed. `bench/README.md` has the same check over the whole corpus.
"""

from __future__ import annotations

import os
import random
import re
from unittest import mock

import pytest

import jaxcheck.loading.loader as workspace
from jaxcheck import facts as f
from jaxcheck.config import find_config
from jaxcheck.engine import check
from jaxcheck.loading import prefilter, references
from jaxcheck.extraction import facts_from_source
from jaxcheck.loading.prefilter import TRIGGERS, may_have_findings
from jaxcheck.loading.references import Reexports, Users, named_modules
from jaxcheck.loading.source import SourceError, read_source
from helpers import cpu_seconds, installed



@pytest.mark.slow
def test_same_findings_with_and_without_the_prefilter_on_real_code():
    paths = [str(installed("equinox")), str(installed("flax"))]
    with_prefilter = check(paths, find_config, jobs=1, use_cache=False)
    with mock.patch.object(workspace, "may_have_findings", lambda text, keywords=(): True):
        without = check(paths, find_config, jobs=1, use_cache=False)
    assert with_prefilter.files == without.files > 100
    assert with_prefilter.findings == without.findings


@pytest.mark.parametrize(
    "text",
    [
        "x = jax.jit(lambda v: v)(y)",
        "f = jit(obj.method)",
        "def f():\n    g = jax.jit(inner)\n",
        "class A:\n    @jax.jit\n    def m(self): ...\n",
        "step = partial(jax.jit, donate_argnums=0)(self.step)",
        "from jax import jit as J",
        "f = jax.jit(functools.partial(g, 1))",
        "f = jax.checkpoint(c.calc)",
        "f = jax.make_jaxpr(c.calc)",
        "jax.pmap(lambda x: x)(y)",
        "f = jax.jit(\n    obj.method)",
        "jax.tree_util.register_pytree_node(C, flatten, unflatten)",
        "@jax.tree_util.register_pytree_node_class\nclass C: ...",
        "mask: jax.Array = eqx.field(static=True)",
        "x: int = struct.field(pytree_node=False)",
        "m: jax.Array = dataclasses.field(metadata={'static': True})",
        "self.m = nnx.static(v)",
        "n: jdc.Static[int]",
        "@partial(jax.jit, static_argnums=0)\ndef f(x): ...",
        # nnx.jit keys its cache on the plain attributes of an nnx.Module given to it.
        "@nnx.jit\ndef step(model, x): ...",
        # JAX204: a jitted function, and a module-level value changed.
        "@jax.jit\ndef f(x): ...\nSCALES['a'] = 4.0\n",
        "@jax.jit\ndef f(x): ...\ndef set_scale(v):\n    global SCALE\n    SCALE = v\n",
        "@jax.jit\ndef f(x): ...\nREGISTRY.append(g)\n",
        # JAX204: a module-level function jitted; another module may change a global it reads.
        "compiled = jax.jit(module_level_function)\n",
        "@jax.jit\ndef f(x):\n    return x * SCALE\n",
    ],
)
def test_every_shape_a_rule_looks_at_passes(text):
    assert may_have_findings(text)


@pytest.mark.parametrize(
    "text",
    [
        "import numpy as np\n\ndef f(x):\n    return np.sum(x)\n",
        "# jit is mentioned in a comment only\nx = 1\n",
        "import jax\n\ndef f(x):\n    return jax.numpy.sum(x)  # jit comes later\n",
        # A module-level value changed, but nothing jitted to bake it in.
        "SCALES['a'] = 4.0\nREGISTRY.append(g)\n",
        # eqx.filter_vmap keeps no cache: an object it reads is read afresh on each call.
        "@eqx.filter_vmap(in_axes=(None, 0))\ndef step(model, x): ...\nschedule.rate = 3.0\n",
    ],
)
def test_files_with_nothing_to_find_are_skipped(text):
    assert not may_have_findings(text)


# --- time linear in the length of a line (issue 16, item 3) ------------------------------------------


def _grows_linearly(make, run) -> float:
    """CPU time on a text 8 times as long, over the time on the short one: 8
    when linear, 64 when quadratic."""
    short, long = make(40_000), make(320_000)
    return cpu_seconds(lambda: run(long)) / max(cpu_seconds(lambda: run(short)), 1e-6)


def test_the_prefilter_reads_a_long_line_of_transforms_in_linear_time():
    # One 1 MB line of `jit(` took 23-45 s: the line's prefix was sliced for every match.
    ratio = _grows_linearly(lambda n: "  x = " + "jit() " * (n // 6), may_have_findings)
    assert ratio < 24, ratio


def test_finding_the_users_of_offered_names_reads_a_long_line_in_linear_time():
    # A 225 KB line of uses that are not imports cost 25 s, 450 KB 102 s.
    test = Users({"pkg": {"Config"}})
    ratio = _grows_linearly(lambda n: "import os\n" + "x.Config " * (n // 9), test.used_by)
    assert ratio < 24, ratio


@pytest.mark.parametrize(
    "text, expected",
    [
        ("from pkg.config import Config\n", True),
        ("from pkg.config import (\n    Other,\n    Config,\n)\n", True),
        ("from pkg.config import (Other)\nConfig = 1\n", False),
        ("import pkg\nx = pkg.Config()\n", True),
        ("import pkg\nx = notpkg.Config()\n", False),
        ("import pkg\nx = apkg.Config()\n", False),
        ("import os\nConfig = 1  # not imported\n", False),
        ("Config\nimport os\n", False),
    ],
)
def test_the_users_of_an_offered_name(text: str, expected: bool):
    assert Users({"pkg": {"Config"}}).used_by(text) is expected


@pytest.mark.parametrize(
    "text, expected",
    [
        ("class A:\n    @jax.jit\n    def f(self): ...\n", True),
        ("def f():\n    g = jit(h)\n", True),
        ("def f():\n    # jit(h)\n    pass\n", False),
        ("x = 1  # jit(h)\n", False),
        ("  @ jit\n", True),
        ("  y = 1 @ jit\n", False),
        ("def f():\n    return jit\n", False),
    ],
)
def test_the_transform_shapes_of_an_indented_line(text: str, expected: bool):
    assert may_have_findings(text) is expected


# --- the quick forms give the verdicts of the plain definitions (issue 18) ---------------------------

# The pre-filter's patterns as first written: tried at every position of the text.
_PLAIN_TRANSFORM = re.compile(r"\b(?:p?jit|pmap|checkpoint|remat|make_jaxpr)\b")
_PLAIN_PYTREE = re.compile(
    r"register_pytree|register_dataclass|static_field|\bstatic\s*=\s*True|pytree_node|\bstatic\(|Static\[|[\"']static[\"']"
)


def _plain_may_have_findings(text: str) -> bool:
    with mock.patch.object(prefilter, "_TRANSFORM", _PLAIN_TRANSFORM):
        applies = prefilter._applies_a_transform(text)
    return (
        any(trigger in text for trigger in TRIGGERS)
        or applies
        or _PLAIN_PYTREE.search(text) is not None
        or (_PLAIN_TRANSFORM.search(text) is not None and prefilter._GLOBAL_CHANGE.search(text) is not None)
        or prefilter._MODULE_LEVEL_JIT.search(text) is not None
    )


def _plain_users_test(offered: dict[str, set[str]]):
    """Every offered name in one pattern, each looked for at every position."""
    names = set().union(*offered.values())
    pattern = re.compile(r"\b(?:%s)\b" % "|".join(sorted(map(re.escape, names))))
    modules = {module.rpartition(".")[2] for module, found in offered.items() if found}
    return lambda text: "import" in text and references._imports_or_reads(text, pattern, modules)


def _texts(*packages: str) -> dict[str, str]:
    found = {}
    for package in packages:
        for folder, _, names in os.walk(str(installed(package))):
            for name in names:
                if name.endswith((".py", ".pyi")):
                    try:
                        found[os.path.join(folder, name)] = read_source(os.path.join(folder, name))
                    except SourceError:
                        pass
    return found


@pytest.mark.slow
def test_the_quick_verdicts_are_the_plain_definitions_on_real_code():
    texts = _texts("equinox", "flax", "optax", "jax")
    # Offered as the loader offers them: a module's classes, named by the last part of its module.
    offered: dict[str, set[str]] = {}
    for path, text in texts.items():
        module = os.path.splitext(os.path.basename(path))[0]
        offered.setdefault(f"pkg.{module}", set()).update(re.findall(r"^[ \t]*class[ \t]+(\w+)", text, re.MULTILINE))
    test, plain_test = Users(offered), _plain_users_test(offered)
    assert len(texts) > 800 and len(test.modules) > 200 and len(set().union(*offered.values())) > 1000
    verdicts = {True: 0, False: 0}
    users = {True: 0, False: 0}
    for path, text in texts.items():
        assert [m.span() for m in prefilter._TRANSFORM.finditer(text)] == [m.span() for m in _PLAIN_TRANSFORM.finditer(text)], path
        pytree = any(word in text for word in prefilter._PYTREE_WORDS) or prefilter._STATIC.search(text) is not None
        assert pytree is (_PLAIN_PYTREE.search(text) is not None), path
        verdict = may_have_findings(text)
        assert verdict is _plain_may_have_findings(text), path
        verdicts[verdict] += 1
        if not verdict:
            used = test.used_by(text)
            assert used is plain_test(text), path
            users[used] += 1
    # Both ways of each verdict were met many times over.
    assert min(verdicts.values()) > 100 and min(users.values()) > 50, (verdicts, users)


@pytest.mark.parametrize(
    "text",
    [
        "from pkg.m import Config\n",
        "import pkg\nx = pkg.ConfigMore()\n",
        "import pkg\nx = pkg.Config_()\n",
        "import os\nx = m.Config\n",
        "from pkg.m import _Config2\n",
        # A name with a combining mark is no run of `\w`: looked for whatever the text's words.
        "from pkg.m import cafe\u0301, Config\n",
        "from pkg.m import (\n    cafe\u0301,\n)\n",
        "import pkg\nx = m.cafe\u0301\n",
        "import pkg\nx = m.cafe\u0301x\n",  # `\b` falls between the mark and `x`: the plain pattern finds it
    ],
)
def test_the_users_test_finds_what_one_pattern_of_every_offered_name_finds(text):
    offered = {"pkg.m": {"Config", "_Config2", "cafe\u0301"}, "pkg.other": {"Conf"}}
    assert Users(offered).used_by(text) is _plain_users_test(offered)(text)


def _plain_followed(modules: list[f.ModuleFacts], names: set[str], roots: dict[str, str]) -> set[str]:
    """Re-exports followed as the loader once did at each wave: every name again, against every module loaded."""
    exports = {module.module: dict(module.imports) for module in modules}
    found = set(names)
    for name in names:
        name = f.project_name(name, roots)
        found.add(name)
        for _ in range(16):
            parts = name.split(".")
            for end in range(len(parts) - 1, 0, -1):
                target = exports.get(".".join(parts[:end]), {}).get(parts[end])
                if target is not None:
                    name = f.project_name(".".join([target, *parts[end + 1 :]]), roots)
                    break
            else:
                break
            if name in found:
                break
            found.add(name)
    return found


def _module_facts(path: str, text: str, root: str) -> f.ModuleFacts | None:
    relative = os.path.splitext(os.path.relpath(path, root))[0].split(os.sep)
    is_package = relative[-1] == "__init__"
    module = ".".join(relative[:-1] if is_package else relative)
    try:
        return facts_from_source(text, path, module, is_package)
    except SyntaxError:
        return None


@pytest.mark.slow
@pytest.mark.parametrize("seed", [0, 1])
def test_reexports_kept_between_waves_are_those_followed_again_on_real_code(seed):
    """The chains kept between waves (and followed as each module comes, with
    the modules of the waves before) give at each wave's end what following
    every name again against every module loaded gives."""
    root = os.path.dirname(str(installed("flax")))
    texts = _texts("equinox", "flax", "optax")
    modules = [facts for path, text in sorted(texts.items()) if (facts := _module_facts(path, text, root)) is not None]
    random.Random(seed).shuffle(modules)
    roots = {"eqx": "equinox"}  # a name imported from a folder inside the project is followed too
    reexports, loaded, names = Reexports(roots, 16), [], set()
    waves = [modules[: len(modules) // 2], modules[len(modules) // 2 : -20], modules[-20:]]
    for wave in waves:
        for module in wave:
            names |= named_modules(module, whole=True)
        loaded += wave
        reexports.add(wave)  # as `Loader.load` does at each wave's end, in the order the facts are kept
        followed = reexports.followed(names)
        assert followed == _plain_followed(loaded, names, roots)
    assert len(modules) > 250 and len(names) > 4000
    assert len(followed - names) > 40  # names passed through re-exports


def _facts(module: str, text: str, is_package: bool = False) -> f.ModuleFacts:
    return facts_from_source(text, f"{module}.py", module, is_package)


def test_a_chain_is_followed_again_once_a_module_that_reexports_its_name_is_loaded():
    reexports = Reexports({}, 16)
    assert reexports.followed({"pkg.Config"}) == {"pkg.Config"}  # `pkg` not loaded yet
    reexports.add([_facts("pkg.other", "from pkg.settings import Config\n")])  # looked up in `pkg`, not here
    assert reexports.followed({"pkg.Config"}) == {"pkg.Config"}
    reexports.add([_facts("pkg", "from pkg.settings import Config\n", is_package=True)])
    assert reexports.followed({"pkg.Config"}) == {"pkg.Config", "pkg.settings.Config"}


def test_adding_a_module_tells_which_chains_it_dropped():
    reexports = Reexports({}, 16)
    reexports.followed({"pkg.Config", "pkg.Other"})
    assert reexports.add([_facts("pkg", "from pkg.settings import Config\n", is_package=True)]) == ["pkg.Config"]
    assert set(reexports.follow(["pkg.Config", "pkg.Other"])) == {"pkg.Config", "pkg.settings.Config"}  # the dropped one alone
    # A second file of the module drops every chain, for `followed` to follow them again once.
    assert reexports.add([_facts("pkg", "from pkg.a import Config\n", is_package=True)]) == []
    assert reexports.followed({"pkg.Config", "pkg.Other"}) == {"pkg.Config", "pkg.a.Config", "pkg.Other"}


def test_a_module_that_imports_other_names_leaves_the_chain_as_it_was():
    reexports = Reexports({}, 16)
    assert reexports.followed({"pkg.mod.Config"}) == {"pkg.mod.Config"}
    chain = reexports._chains["pkg.mod.Config"]
    reexports.add([_facts("pkg.mod", "import os\nclass Config: ...\n")])  # defines it: imports no `Config`
    assert reexports._chains["pkg.mod.Config"] is chain


def test_a_second_file_of_a_module_replaces_the_first_for_every_chain():
    reexports = Reexports({}, 16)
    reexports.add([_facts("pkg", "from pkg.a import Config\n", is_package=True)])
    assert reexports.followed({"pkg.Config"}) == {"pkg.Config", "pkg.a.Config"}
    reexports.add([_facts("pkg", "from pkg.b import Config\n", is_package=True)])
    assert reexports.followed({"pkg.Config"}) == {"pkg.Config", "pkg.b.Config"}


def test_a_chain_of_reexports_that_loops_ends():
    reexports = Reexports({}, 16)
    reexports.add([_facts("a", "from b import x\n", is_package=True), _facts("b", "from a import x\n", is_package=True)])
    assert reexports.followed({"a.x"}) == {"a.x", "b.x"}
