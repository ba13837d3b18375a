"""How fast jaxcheck is on real code, against the floors that bound it.

Copies the installed `jax`, `flax`, `equinox` and `optax` packages (none of it
ours) into a temporary folder, each copy of the corpus a project of its own,
and measures, side by side in one run:

1. bare `libcst.parse_module` over every file (the floor for a LibCST tool);
2. `jaxcheck check --no-cache --jobs 1`, cold;
3. the same with the cache filled and nothing changed (warm);
4. `--jobs 2`, cold;
5. `flake8` with jaxcheck against `flake8` without it (the same flake8, its
   plugin list less jaxcheck's), `-j 1`, cold and warm;
6. `jaxcheck check --no-cache --jobs 1` over the corpus once, twice and four
   times (copies), to show that time grows linearly with lines;
7. the peak memory (RSS) of each run's largest process.

Every run is a fresh process; each is repeated `--repeat` times, interleaved,
and medians compared. Prints one table of ratios.

    python bench/speed.py [--repeat 1] [--packages jax flax equinox optax]
"""

from __future__ import annotations

import argparse
import glob
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from cache_warmth import package_folder

# flake8 as installed, with every plugin but jaxcheck's: the baseline.
_FLAKE8_WITHOUT_JAXCHECK = """
import sys
from flake8.main.cli import main
from flake8.plugins import finder

found = finder._find_importlib_plugins
finder._find_importlib_plugins = lambda: (p for p in found() if p.package != "jaxcheck")
sys.exit(main(sys.argv[1:]))
"""
_BARE_PARSE = """
import glob, sys
import libcst
for path in sorted(glob.glob("**/*.py", recursive=True)):
    with open(path, encoding="utf-8", errors="surrogateescape") as handle:
        text = handle.read()
    try:
        libcst.parse_module(text)
    except Exception:
        pass
"""


def measure(command: list[str], cwd: str) -> tuple[float, float]:
    """(seconds, peak RSS in MB of the largest process) of one run."""
    start = time.perf_counter()
    process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode not in (0, 1):
        sys.exit(f"bench: {' '.join(command)} failed with {process.returncode}:\n{process.stderr.read().decode()}")
    return elapsed, usage.ru_maxrss / 1024


def clear_caches(root: str) -> None:
    for folder in glob.glob(os.path.join(root, "**", ".jaxcheck_cache"), recursive=True):
        shutil.rmtree(folder)


def make_copies(root: str, packages: list[str], copies: int) -> list[str]:
    """`copies` folders under `root`, each a project holding the corpus."""
    folders = []
    for n in range(copies):
        folder = os.path.join(root, f"copy{n}")
        if n == 0:
            for name in packages:
                shutil.copytree(package_folder(name), os.path.join(folder, name), ignore=shutil.ignore_patterns("__pycache__"))
            with open(os.path.join(folder, "pyproject.toml"), "w", encoding="utf-8") as handle:
                handle.write("[project]\nname = 'corpus'\n")
        else:
            shutil.copytree(folders[0], folder)
        folders.append(folder)
    return folders


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--packages", nargs="+", default=["jax", "flax", "equinox", "optax"])
    args = parser.parse_args()
    python = sys.executable
    jaxcheck = [python, "-m", "jaxcheck", "check", "--exit-zero"]
    flake8 = [python, "-m", "flake8", "--exit-zero", "-j", "1", "."]
    with tempfile.TemporaryDirectory(prefix="jaxcheck-speed-") as root:
        copies = make_copies(root, args.packages, 4)
        corpus = copies[0]
        files = glob.glob(os.path.join(corpus, "**", "*.py"), recursive=True)
        lines = sum(open(path, "rb").read().count(b"\n") for path in files)
        runs: dict[str, list[tuple[float, float]]] = {}

        def run(label: str, command: list[str], cwd: str = corpus, clear: bool = False) -> None:
            if clear:
                clear_caches(root)
            runs.setdefault(label, []).append(measure(command, cwd))

        for _ in range(args.repeat):
            run("bare libcst.parse_module", [python, "-c", _BARE_PARSE])
            run("jaxcheck --jobs 1, cold", [*jaxcheck, "--no-cache", "--jobs", "1", "."])
            clear_caches(root)
            measure([*jaxcheck, "--jobs", "1", "."], corpus)  # fills the cache
            run("jaxcheck --jobs 1, warm", [*jaxcheck, "--jobs", "1", "."])
            run("jaxcheck --jobs 2, cold", [*jaxcheck, "--no-cache", "--jobs", "2", "."])
            run("flake8 without jaxcheck", [python, "-c", _FLAKE8_WITHOUT_JAXCHECK, *flake8[3:]])
            run("flake8 with jaxcheck, cold", flake8, clear=True)
            run("flake8 with jaxcheck, warm", flake8)
            for n in (1, 2, 4):
                run(f"jaxcheck --jobs 1, {n}x corpus", [*jaxcheck, "--no-cache", "--jobs", "1", *copies[:n]], cwd=root)

        def median(label: str) -> float:
            return statistics.median(seconds for seconds, _ in runs[label])

        def ratio(numerator: str, denominator: str, scale: float = 1.0) -> float:
            return median(numerator) / (scale * median(denominator))

        print(f"corpus: {', '.join(args.packages)} ({len(files):,} files, {lines:,} lines); {args.repeat} round(s)")
        print(f"{'run':<34}{'median s':>10}{'peak MB':>10}")
        for label in runs:
            peak = max(mb for _, mb in runs[label])
            print(f"{label:<34}{median(label):>10.2f}{peak:>10.0f}")
        print()
        print(f"{'ratio':<58}{'measured':>10}{'target':>10}")
        cold = "jaxcheck --jobs 1, cold"
        rows = [
            ("cold --jobs 1 / bare LibCST parse", ratio(cold, "bare libcst.parse_module"), "<= 1.25"),
            ("warm / cold", ratio("jaxcheck --jobs 1, warm", cold), "<= 0.05"),
            ("speed-up of --jobs 2 over --jobs 1 (cold)", 1 / ratio("jaxcheck --jobs 2, cold", cold), ">= 1.7"),
            ("flake8 with / without jaxcheck, cold", ratio("flake8 with jaxcheck, cold", "flake8 without jaxcheck"), "<= 1.3"),
            ("flake8 with / without jaxcheck, warm", ratio("flake8 with jaxcheck, warm", "flake8 without jaxcheck"), "<= 1.05"),
            ("2x corpus / (2 x 1x corpus)", ratio("jaxcheck --jobs 1, 2x corpus", "jaxcheck --jobs 1, 1x corpus", 2), "~ 1"),
            ("4x corpus / (4 x 1x corpus)", ratio("jaxcheck --jobs 1, 4x corpus", "jaxcheck --jobs 1, 1x corpus", 4), "0.9-1.1"),
        ]
        for label, value, target in rows:
            print(f"{label:<58}{value:>10.3f}{target:>10}")
        peak = max(mb for label in (cold, "jaxcheck --jobs 1, 1x corpus") for _, mb in runs[label])
        print(f"{'peak RSS of jaxcheck --jobs 1 over the corpus (MB)':<58}{peak:>10.0f}{'<= 400':>10}")


if __name__ == "__main__":
    main()
