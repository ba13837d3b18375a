"""How fast jaxcheck is on real code, against the guard rails that bound it.

Copies the installed `jax`, `flax`, `equinox` and `optax` packages (none of it
ours) into a temporary folder marked as one project, and measures, side by
side in one run:

1. bare `libcst.parse_module` over every file (the floor of a LibCST tool);
2. `jaxcheck check --no-cache --jobs 1`, cold;
3. the same with the cache filled and nothing changed (warm);
4. `--jobs 2`, cold;
5. plain flake8 (its default plugins only: pyflakes, pycodestyle, mccabe),
   flake8 + flake8-bugbear (an anchor: a common plugin's cost) and flake8 +
   jaxcheck, cold and warm, all `-j 1`;
6. the peak memory (RSS) of a cold `--jobs 1` run over the corpus, over the
   source of the installed jax (its sdist, from the package registry) and
   over each `--memory-of` folder.

Every run is a fresh process, timed by the CPU time (user + system) the
kernel reports for it and its children, beside wall time: the machine is
shared, and CPU time is what another process's load disturbs least. Each
round runs every row once, in the same order; medians of `--repeat` rounds
are compared, and ratios are of CPU time (but the `--jobs 2` speed-up, which
only wall time shows). The cache lives in a temporary folder of the run's own
(`JAXCHECK_CACHE_DIR`). Prints one table, headed by the date, the versions and
the machine's load, to be quoted as it is.

    python bench/speed.py [--repeat 1] [--quick] [--packages jax flax equinox optax] [--memory-of FOLDER ...]
"""

from __future__ import annotations

import argparse
import datetime
import glob
import importlib.metadata
import importlib.util
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time

# flake8 with its default plugins and the distributions named in argv[1]
# (comma-separated), whatever else is installed: each flake8 row is a plugin
# on top of the same plain flake8. The reporters are flake8's own.
_FLAKE8_WITH = """
import sys
from flake8.main.cli import main
from flake8.plugins import finder
from flake8.utils import normalize_pypi_name

keep = {"flake8", "pyflakes", "pycodestyle", "mccabe", *filter(None, sys.argv[1].split(","))}
found = finder._find_importlib_plugins
finder._find_importlib_plugins = lambda: (p for p in found() if normalize_pypi_name(p.package) in keep)
sys.exit(main(sys.argv[2:]))
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
_BUGBEAR = "flake8-bugbear"
_INSTALL = 'pip install ".[test]" optax flake8-bugbear'


class Run:
    """What the kernel says of one finished process (and its children)."""

    def __init__(self, wall: float, cpu: float, peak_mb: float) -> None:
        self.wall = wall
        self.cpu = cpu
        self.peak_mb = peak_mb


def measure(command: list[str], cwd: str) -> Run:
    # stderr to a file, not a pipe: a run that writes more than a pipe holds would wait for a reader.
    with tempfile.TemporaryFile() as errors:
        start = time.perf_counter()
        process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=errors)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - start
        code = os.waitstatus_to_exitcode(status)
        if code not in (0, 1):
            errors.seek(0)
            sys.exit(f"bench: {' '.join(command)} failed with {code}:\n{errors.read().decode()}")
    # ru_maxrss is in kB on Linux: the largest of the process and the children it waited for.
    return Run(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024)


def package_folder(name: str) -> str:
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        sys.exit(f"bench: the package {name!r} is not installed in {sys.executable}")
    return list(spec.submodule_search_locations)[0]


def make_corpus(folder: str, packages: list[str]) -> None:
    """The packages copied into `folder`, marked as one project."""
    for name in packages:
        shutil.copytree(package_folder(name), os.path.join(folder, name), ignore=shutil.ignore_patterns("__pycache__"))
    with open(os.path.join(folder, "pyproject.toml"), "w", encoding="utf-8") as handle:
        handle.write("[project]\nname = 'corpus'\n")


def installed(distribution: str) -> str | None:
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return None


def jaxcheck_revision() -> str:
    """The jaxcheck that runs: its version, and its git commit when it is a checkout."""
    import jaxcheck

    folder = os.path.dirname(os.path.dirname(os.path.abspath(jaxcheck.__file__)))
    described = subprocess.run(
        ["git", "-C", folder, "describe", "--always", "--dirty"], capture_output=True, text=True
    ).stdout.strip()
    version = installed("jaxcheck") or "?"
    return f"{version} ({described})" if described else version


def jax_source(root: str) -> str | None:
    """The source distribution of the installed jax, unpacked under `root` (the registry is asked)."""
    version = installed("jax")
    command = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--no-binary", ":all:"]
    completed = subprocess.run([*command, "-d", root, f"jax=={version}"], capture_output=True, text=True)
    archives = glob.glob(os.path.join(root, f"jax-{version}.tar.gz"))
    if completed.returncode != 0 or not archives:
        print(f"bench: no jax source row: pip download of jax=={version} failed:\n{completed.stderr}", file=sys.stderr)
        return None
    with tarfile.open(archives[0]) as archive:
        archive.extractall(root, filter="data")
    return os.path.join(root, f"jax-{version}")


def count_lines(paths: list[str]) -> int:
    total = 0
    for path in paths:
        with open(path, "rb") as handle:
            total += handle.read().count(b"\n")
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=1, help="interleaved rounds (medians are compared)")
    parser.add_argument("--packages", nargs="+", default=["jax", "flax", "equinox", "optax"])
    parser.add_argument("--quick", action="store_true", help="equinox and optax, no jax source: a few minutes")
    parser.add_argument(
        "--memory-of", nargs="+", default=[], metavar="FOLDER",
        help="also the peak memory of `jaxcheck check --no-cache --jobs 1` over each folder",
    )
    args = parser.parse_args()
    if args.quick:
        args.packages = ["equinox", "optax"]
    python = sys.executable
    jaxcheck = [python, "-m", "jaxcheck", "check", "--exit-zero"]
    flake8 = ["--exit-zero", "-j", "1", "."]
    bugbear = installed(_BUGBEAR)
    if not bugbear:
        print(f"bench: {_BUGBEAR} is not installed, so its row is left out ({_INSTALL})", file=sys.stderr)
    # "7.5.0 (mccabe: 0.7.0, pycodestyle: 2.15.0, pyflakes: 4.1.0) CPython ...": the plugins of plain flake8.
    version = subprocess.run([python, "-c", _FLAKE8_WITH, "", "--version"], capture_output=True, text=True).stdout
    plain_flake8 = " ".join(version.split()).partition(")")[0].replace(" (", " (plain: ") + ")"
    started = datetime.datetime.now(datetime.timezone.utc)
    load_start = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="jaxcheck-speed-") as root:
        corpus = os.path.join(root, "corpus")
        make_corpus(corpus, args.packages)
        cache = os.environ["JAXCHECK_CACHE_DIR"] = os.path.join(root, "cache")
        files = glob.glob(os.path.join(corpus, "**", "*.py"), recursive=True)
        lines = count_lines(files)
        runs: dict[str, list[Run]] = {}

        def run(label: str, command: list[str], cold: bool = False) -> None:
            if cold:
                shutil.rmtree(cache, ignore_errors=True)
            runs.setdefault(label, []).append(measure(command, corpus))

        for _ in range(args.repeat):
            run("bare libcst.parse_module", [python, "-c", _BARE_PARSE])
            run("jaxcheck --jobs 1, cold", [*jaxcheck, "--no-cache", "--jobs", "1", "."])
            shutil.rmtree(cache, ignore_errors=True)
            measure([*jaxcheck, "--jobs", "1", "."], corpus)  # fills the cache
            run("jaxcheck --jobs 1, warm", [*jaxcheck, "--jobs", "1", "."])
            run("jaxcheck --jobs 2, cold", [*jaxcheck, "--no-cache", "--jobs", "2", "."])
            run("flake8 plain", [python, "-c", _FLAKE8_WITH, "", *flake8])
            if bugbear:
                run("flake8 + bugbear", [python, "-c", _FLAKE8_WITH, _BUGBEAR, *flake8])
            run("flake8 + jaxcheck, cold", [python, "-c", _FLAKE8_WITH, "jaxcheck", *flake8], cold=True)
            run("flake8 + jaxcheck, warm", [python, "-c", _FLAKE8_WITH, "jaxcheck", *flake8])
        if not args.quick:
            source = jax_source(os.path.join(root, "sdist"))
            args.memory_of += [source] if source else []
        memory = {folder: measure([*jaxcheck, "--no-cache", "--jobs", "1", "."], folder) for folder in args.memory_of}
        load_end = os.getloadavg()

    def cpu(label: str) -> float:
        return statistics.median(r.cpu for r in runs[label])

    def wall(label: str) -> float:
        return statistics.median(r.wall for r in runs[label])

    def ratio(numerator: str, denominator: str) -> float:
        return cpu(numerator) / cpu(denominator)

    versions = [
        f"Python {platform.python_version()}",
        f"jaxcheck {jaxcheck_revision()}",
        f"libcst {installed('libcst')}",
        f"flake8 {plain_flake8}",
        f"flake8-bugbear {bugbear or 'not installed'}",
    ]
    print(f"{started:%Y-%m-%d %H:%M} UTC; {'; '.join(versions)}")
    print(
        f"{os.cpu_count()} CPUs ({platform.machine()}); load average (1, 5, 15 min) "
        f"{' '.join(f'{x:.2f}' for x in load_start)} at start, {' '.join(f'{x:.2f}' for x in load_end)} at end"
    )
    print(f"corpus: {', '.join(args.packages)} ({len(files):,} files, {lines:,} lines); {args.repeat} round(s), medians")
    print()
    print(f"{'run':<36}{'CPU s':>9}{'wall s':>9}{'peak MB':>9}")
    for label in runs:
        peak = max(r.peak_mb for r in runs[label])
        print(f"{label:<36}{cpu(label):>9.2f}{wall(label):>9.2f}{peak:>9.0f}")
    for folder, measured in memory.items():
        print(f"{os.path.basename(os.path.normpath(folder)) + ', cold (memory)':<36}"
              f"{measured.cpu:>9.2f}{measured.wall:>9.2f}{measured.peak_mb:>9.0f}")
    print()
    cold = "jaxcheck --jobs 1, cold"
    rows: list[tuple[str, float, str]] = [
        ("cold --jobs 1 / bare LibCST parse", ratio(cold, "bare libcst.parse_module"), "<= 1.0"),
        ("flake8 + jaxcheck / plain flake8, cold", ratio("flake8 + jaxcheck, cold", "flake8 plain"), "<= 1.4"),
        ("flake8 + jaxcheck / plain flake8, warm", ratio("flake8 + jaxcheck, warm", "flake8 plain"), "<= 1.05"),
    ]
    if bugbear:
        rows.append(("flake8 + bugbear / plain flake8 (anchor)", ratio("flake8 + bugbear", "flake8 plain"), "-"))
    rows += [
        ("warm / cold", ratio("jaxcheck --jobs 1, warm", cold), "<= 0.05"),
        ("speed-up of --jobs 2 over --jobs 1, cold (wall)", wall(cold) / wall("jaxcheck --jobs 2, cold"), "> 1"),
    ]
    peaks = [max(r.peak_mb for r in runs[cold]), *(measured.peak_mb for measured in memory.values())]
    rows.append(("peak RSS of a cold --jobs 1 run (any above), MB", max(peaks), "<= 400"))
    print(f"{'ratio':<52}{'measured':>10}{'target':>10}")
    for label, value, target in rows:
        shown = f"{value:.0f}" if label.endswith("MB") else f"{value:.3f}"
        print(f"{label:<52}{shown:>10}{target:>10}")
    if not bugbear:
        print(f"\nno flake8 + bugbear row: {_BUGBEAR} is not installed ({_INSTALL})")


if __name__ == "__main__":
    main()
