"""Cold against warm: what the on-disk cache saves over a real-code corpus.

Copies the installed `jax`, `flax`, `equinox` and `optax` packages (none of it
ours) into a temporary folder marked as one project (a `pyproject.toml`), so
that its cache is written there and not into site-packages, then runs
`jaxcheck check --jobs 1` over the copy:

- cold: no cache (the `.jaxcheck_cache` folders removed before each run);
- warm: the cache filled by the run before, nothing changed;
- one file edited: the cache filled, then one module's text changed (the run
  judges that package again, from cached facts for the other files).

Each is run `--repeat` times, interleaved, and the medians are compared side by
side, so that the machine's noise hits both alike. Prints one table of ratios.

    python bench/cache_warmth.py [--repeat 3] [--packages jax flax equinox optax]
"""

from __future__ import annotations

import argparse
import glob
import importlib.util
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def package_folder(name: str) -> str:
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        sys.exit(f"bench: the package {name!r} is not installed in {sys.executable}")
    return list(spec.submodule_search_locations)[0]


def run_check(corpus: str) -> float:
    start = time.perf_counter()
    completed = subprocess.run(
        [sys.executable, "-m", "jaxcheck", "check", "--jobs", "1", "--exit-zero", "."],
        cwd=corpus,
        capture_output=True,
        text=True,
    )
    elapsed = time.perf_counter() - start
    if completed.returncode != 0:
        sys.exit(f"bench: jaxcheck failed:\n{completed.stderr}")
    return elapsed


def clear_caches(corpus: str) -> None:
    for folder in glob.glob(os.path.join(corpus, ".jaxcheck_cache")):
        shutil.rmtree(folder)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--packages", nargs="+", default=["jax", "flax", "equinox", "optax"])
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="jaxcheck-bench-") as corpus:
        lines = 0
        for name in args.packages:
            shutil.copytree(package_folder(name), os.path.join(corpus, name), ignore=shutil.ignore_patterns("__pycache__"))
        # A marker makes the copy one project, which keeps its cache (a folder without one keeps none).
        with open(os.path.join(corpus, "pyproject.toml"), "w", encoding="utf-8") as handle:
            handle.write("[project]\nname = 'corpus'\n")
        for path in glob.glob(os.path.join(corpus, "**", "*.py"), recursive=True):
            with open(path, "rb") as handle:
                lines += handle.read().count(b"\n")
        edited = os.path.join(corpus, args.packages[0], "__init__.py")
        cold, warm, one_edit = [], [], []
        for round_ in range(args.repeat):
            clear_caches(corpus)
            cold.append(run_check(corpus))
            warm.append(run_check(corpus))
            with open(edited, "a", encoding="utf-8") as handle:
                handle.write(f"\n# bench edit {round_}\n")
            one_edit.append(run_check(corpus))
        base = statistics.median(cold)
        print(f"corpus: {', '.join(args.packages)} ({lines:,} lines), {args.repeat} interleaved rounds, --jobs 1")
        print(f"{'run':<28}{'median s':>10}{'x cold':>10}")
        for label, times in (("cold (no cache)", cold), ("warm (nothing changed)", warm), ("warm, one file edited", one_edit)):
            print(f"{label:<28}{statistics.median(times):>10.2f}{statistics.median(times) / base:>10.3f}")


if __name__ == "__main__":
    main()
