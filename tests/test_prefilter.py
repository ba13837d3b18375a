"""The pre-filter skips files before any parse; it must never hide a finding.

Run over real code (the installed equinox and flax, none of it ours), the
findings with the pre-filter must equal those without it, where every file is
parsed. `bench/README.md` has the same check over the whole corpus.
"""

from __future__ import annotations

import os
import re
from unittest import mock

import pytest

import jaxcheck.loading.loader as workspace
from jaxcheck.config import find_config
from jaxcheck.engine import check
from jaxcheck.loading import prefilter, references
from jaxcheck.loading.prefilter import TRIGGERS, may_have_findings
from jaxcheck.loading.references import Users
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
