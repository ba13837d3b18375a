"""jaxcheck over the JAX ecosystem: the packages of `corpus.txt`, as published.

Installs the pinned packages without their dependencies into a throwaway
folder (jaxcheck reads their sources, it never imports them), marks the
folder as one project (as a site-packages folder is: a module of one package
imports another by its full name), runs `jaxcheck check --format json` over
every package in the chosen profile, and prints each finding and the count per
code. `bench/triage.md` judges each finding of the default profile.

    python bench/corpus.py [--keep FOLDER] [--jobs 2] [--profile default|strict]

Exit status 0 when jaxcheck ran without an internal error or crash.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def install(folder: str) -> list[str]:
    """The top-level packages the pinned distributions install into `folder`."""
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-compile", "--target", folder,
         "-r", os.path.join(HERE, "corpus.txt")],
        check=True,
    )
    packages = []
    for name in sorted(os.listdir(folder)):
        path = os.path.join(folder, name)
        if os.path.isdir(path) and not name.endswith((".dist-info", ".data")) and name not in ("bin", "__pycache__"):
            if any(entry.endswith(".py") or os.path.isdir(os.path.join(path, entry)) for entry in os.listdir(path)):
                packages.append(name)
    return packages


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", help="install into this folder and keep it (default: a temporary one)")
    parser.add_argument("--jobs", default="2")
    parser.add_argument("--profile", default="default", choices=("default", "strict"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="jaxcheck-corpus-") as temporary:
        folder = args.keep or temporary
        os.makedirs(folder, exist_ok=True)
        packages = install(folder)
        with open(os.path.join(folder, "pyproject.toml"), "w", encoding="utf-8") as marker:
            marker.write("[tool.jaxcheck]\n")
        files = sum(
            name.endswith(".py") for package in packages for _, _, names in os.walk(os.path.join(folder, package)) for name in names
        )
        completed = subprocess.run(
            [sys.executable, "-m", "jaxcheck", "check", "--no-cache", "--format", "json", "--jobs", args.jobs,
             "--profile", args.profile, *packages],
            cwd=folder,
            capture_output=True,
            text=True,
        )
        if completed.returncode not in (0, 1):
            sys.exit(f"jaxcheck exited with {completed.returncode}:\n{completed.stderr}")
        findings = json.loads(completed.stdout)
        for finding in findings:
            print(f"{finding['path']}:{finding['line']}:{finding['column']}: {finding['code']} {finding['message'][:160]}")
        counts = collections.Counter(finding["code"] for finding in findings)
        internal = sum(finding["code"] == "JAX000" and "jaxcheck failed" in finding["message"] for finding in findings)
        print(f"\n{len(packages)} packages, {files:,} Python files, profile {args.profile}: {len(findings)} findings",
              file=sys.stderr)
        for code in sorted(counts):
            print(f"  {code}: {counts[code]}", file=sys.stderr)
        print(f"internal errors: {internal}", file=sys.stderr)
        sys.exit(1 if internal else 0)


if __name__ == "__main__":
    main()
