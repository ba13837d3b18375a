"""jaxcheck over the corpus of `corpus.txt`: repositories as their authors keep them, and published packages.

Each repository is one project, read from a folder of snapshots
(`--repos FOLDER`, one folder per repository named `owner+name`, at the
commit `corpus.txt` names); a repository missing there is cloned from GitHub
and checked out at that commit. The packages are installed without their
dependencies into one folder (jaxcheck reads their sources, it never imports
them), marked as one project, as a site-packages folder is.

jaxcheck runs with `--output-format json --no-cache` over each; the findings
are written, one JSON array per project, to `--out FOLDER` (what
`bench/triage.md` judges and `--recall` measures), and counted per code.

    python bench/corpus.py --repos ~/corpus/repos --out findings [--profile default|strict] [--jobs 2]
    python bench/corpus.py --out findings --recall bench/recall.csv    # how many real hazards were found

Exit status 0 when jaxcheck ran without an internal error or crash.
"""

from __future__ import annotations

import argparse
import collections
import csv
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
WHEELS = "wheels"  # the name of the packages' project among the results


def corpus() -> tuple[list[tuple[str, str]], list[str]]:
    """The repositories (owner/name, commit) and the pinned distributions of `corpus.txt`."""
    repos, wheels = [], []
    with open(os.path.join(HERE, "corpus.txt"), encoding="utf-8") as lines:
        for line in lines:
            kind, *rest = line.split("#", 1)[0].split() or [""]
            if kind == "repo":
                repos.append((rest[0], rest[1]))
            elif kind == "wheel":
                wheels.append(rest[0])
    return repos, wheels


def snapshot(folder: str, repo: str, commit: str) -> str:
    """The repository's folder of sources at `commit`: the one in `folder`, or a clone made there."""
    path = os.path.join(folder, repo.replace("/", "+"))
    if not os.path.isdir(path):
        subprocess.run(["git", "clone", "--quiet", f"https://github.com/{repo}", path], check=True)
        subprocess.run(["git", "-C", path, "checkout", "--quiet", commit], check=True)
    return path


def install(folder: str, wheels: list[str]) -> list[str]:
    """The top-level packages the pinned distributions install into `folder`."""
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-compile", "--target", folder, *wheels],
        check=True,
    )
    packages = []
    for name in sorted(os.listdir(folder)):
        path = os.path.join(folder, name)
        if os.path.isdir(path) and not name.endswith((".dist-info", ".data")) and name not in ("bin", "__pycache__"):
            if any(entry.endswith(".py") or os.path.isdir(os.path.join(path, entry)) for entry in os.listdir(path)):
                packages.append(name)
    with open(os.path.join(folder, "pyproject.toml"), "w", encoding="utf-8") as marker:
        marker.write("[tool.jaxcheck]\n")
    return packages


def findings_of(folder: str, paths: list[str], profile: str, jobs: str) -> list[dict]:
    completed = subprocess.run(
        [sys.executable, "-m", "jaxcheck", "check", "--no-cache", "--output-format", "json", "--jobs", jobs,
         "--profile", profile, *paths],
        cwd=folder,
        capture_output=True,
        text=True,
    )
    if completed.returncode not in (0, 1):
        sys.exit(f"jaxcheck exited with {completed.returncode} in {folder}:\n{completed.stderr}")
    return json.loads(completed.stdout)


def recall(out: str, table: str) -> None:
    """Each hazard of `table` found or missed: a finding of its code in its file within three lines."""
    found = 0
    with open(table, encoding="utf-8") as stream:
        rows = list(csv.DictReader(stream))
    for row in rows:
        name = row["repo"].replace("/", "+")
        with open(os.path.join(out, f"{name}.json"), encoding="utf-8") as stream:
            findings = json.load(stream)
        hit = any(
            os.path.normpath(item["path"]) == os.path.normpath(row["path"]) and item["code"] == row["code"]
            and abs(item["line"] - int(row["line"])) <= 3
            for item in findings
        )
        found += hit
        print(f"{'found' if hit else 'MISSED':6}  {row['code']}  {row['kind']:7}  {row['repo']}:{row['path']}:{row['line']}")
    print(f"\n{found} of {len(rows)} found ({found / len(rows):.0%})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repos", help="the folder of repository snapshots (default: a temporary one, cloned into)")
    parser.add_argument("--out", required=True, help="write each project's findings here as JSON")
    parser.add_argument("--jobs", default="2")
    parser.add_argument("--profile", default="default", choices=("default", "strict"))
    parser.add_argument("--recall", metavar="CSV", help="only measure recall on the findings already in --out")
    args = parser.parse_args()
    if args.recall:
        recall(args.out, args.recall)
        return
    os.makedirs(args.out, exist_ok=True)
    repos, wheels = corpus()
    counts: collections.Counter[str] = collections.Counter()
    internal = 0
    with tempfile.TemporaryDirectory(prefix="jaxcheck-corpus-") as temporary:
        projects = [(repo.replace("/", "+"), snapshot(args.repos or temporary, repo, commit), ["."]) for repo, commit in repos]
        if wheels:
            folder = os.path.join(temporary, WHEELS)
            projects.append((WHEELS, folder, install(folder, wheels)))
        for name, folder, paths in projects:
            findings = findings_of(folder, paths, args.profile, args.jobs)
            with open(os.path.join(args.out, f"{name}.json"), "w", encoding="utf-8") as stream:
                json.dump(findings, stream, indent=1)
            counts.update(finding["code"] for finding in findings)
            internal += sum(finding["code"] == "JAX000" and "jaxcheck failed" in finding["message"] for finding in findings)
            print(f"{name}: {len(findings)} findings", file=sys.stderr)
    print(f"\n{len(projects)} projects, profile {args.profile}: {sum(counts.values())} findings", file=sys.stderr)
    for code in sorted(counts):
        print(f"  {code}: {counts[code]}", file=sys.stderr)
    print(f"internal errors: {internal}", file=sys.stderr)
    sys.exit(1 if internal else 0)


if __name__ == "__main__":
    main()
