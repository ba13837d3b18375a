"""The pipeline reads one way: loading -> extraction -> model -> rules -> report, and fixes after findings.

Each module's imports (at any depth, lazy ones included) are read with `ast`,
and the stages may only import the stages before them: the loader decides
what to read from facts, never from the model or the rules; no stage reads
facts with LibCST: the fixes edit with it, the report finds the ranges of
findings with it, and the syntax check asks it which Python a file needs;
no module imports itself back through others.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "jaxcheck"
SHARED = {"jaxcheck", "jaxcheck.facts", "jaxcheck.findings", "jaxcheck.failures", "jaxcheck.collector"}
# What each stage may import, besides itself and the shared modules (plain data; how failures and the collector are handled).
ALLOWED = {
    "jaxcheck.loading": {"jaxcheck.extraction", "jaxcheck.model.jax_versions"},
    "jaxcheck.extraction": set(),
    "jaxcheck.model": set(),
    "jaxcheck.rules": {"jaxcheck.model"},
    # The source of a finding's file, read as loading reads it, for `full`'s snippets and the ranges.
    # The project around a baseline, which a link on its path must not leave.
    "jaxcheck.report": {"jaxcheck.rules", "jaxcheck.loading.source", "jaxcheck.loading.syntax", "jaxcheck.loading.project"},
    # After findings: it re-parses a file (a module, a notebook's cells) to edit it.
    "jaxcheck.fixes": {"jaxcheck.loading.source", "jaxcheck.loading.notebook"},
}


def _modules() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.with_suffix("").relative_to(PACKAGE.parent).parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


MODULES = _modules()


def _imports(name: str, path: Path) -> set[str]:
    """The project modules `name` imports, anywhere in its body."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        targets = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([base] if base else []))
            targets = [f"{base}.{alias.name}" for alias in node.names] + [base]
        for target in targets:
            while target and target not in MODULES:
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


GRAPH = {name: _imports(name, path) for name, path in MODULES.items()}


def _stage(name: str) -> str | None:
    return next((stage for stage in ALLOWED if name == stage or name.startswith(stage + ".")), None)


def test_no_module_imports_itself_back():
    def reaches(start: str, goal: str) -> bool:
        seen, pending = set(), list(GRAPH[start])
        while pending:
            current = pending.pop()
            if current == goal:
                return True
            if current not in seen:
                seen.add(current)
                pending.extend(GRAPH[current])
        return False

    assert [name for name in GRAPH if reaches(name, name)] == []


@pytest.mark.parametrize("name", sorted(name for name in MODULES if _stage(name)))
def test_a_stage_imports_only_the_stages_before_it(name: str):
    stage = _stage(name)
    allowed = ALLOWED[stage]
    for target in GRAPH[name]:
        if target in SHARED or _stage(target) == stage:
            continue
        assert any(target == prefix or target.startswith(prefix + ".") for prefix in allowed), (name, target)


def test_only_the_fixes_the_ranges_and_the_syntax_check_use_libcst():
    users = set()
    for name, path in MODULES.items():
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            module = node.module if isinstance(node, ast.ImportFrom) else None
            names = [alias.name for alias in node.names] if isinstance(node, ast.Import) else []
            if (module or "").startswith("libcst") or any(alias.startswith("libcst") for alias in names):
                users.add(name)
    outside = {name for name in users if not name.startswith("jaxcheck.fixes")}
    assert outside == {"jaxcheck.loading.syntax", "jaxcheck.report.ranges"}


_JAX_LIBRARIES = ("jax", "jaxlib", "equinox", "flax", "optax", "penzai", "numpy")


def test_only_the_watch_imports_jax():
    """The linter never imports JAX (nor the libraries around it): only `jaxcheck watch`, which runs
    programs under JAX, does (issue 47)."""
    users = set()
    for name, path in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level:
                targets = [node.module or ""]
            else:
                continue
            if any(target.split(".")[0] in _JAX_LIBRARIES for target in targets):
                users.add(name)
    assert users and all(name == "jaxcheck.watch" or name.startswith("jaxcheck.watch.") for name in users), sorted(users)


def test_the_watch_reaches_the_linter_only_through_the_report():
    """The watch makes `Finding`s and prints them as `check` does; it does not run the linter's stages."""
    for name in MODULES:
        if name.startswith("jaxcheck.watch"):
            for target in GRAPH[name]:
                assert not target.startswith(("jaxcheck.model", "jaxcheck.extraction", "jaxcheck.loading", "jaxcheck.engine")), (name, target)
