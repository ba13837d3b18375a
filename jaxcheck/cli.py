"""The `jaxcheck` command. Exit 0: clean; 1: findings; 2: usage, config or internal error."""

from __future__ import annotations

import argparse
import os
import sys

from jaxcheck import __version__
from jaxcheck.config import ConfigError, find_config, split_codes
from jaxcheck.report.baseline import BaselineError
from jaxcheck.rules import BAD_INPUT, CODES, UNUSED_NOQA

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):
        self.print_usage(sys.stderr)
        self.exit(EXIT_ERROR, f"jaxcheck: error: {message}\n")


def _jobs(text: str) -> int:
    if text == "auto":
        return os.cpu_count() or 1
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive number or 'auto', got {text!r}")
    return value



def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="jaxcheck",
        description="Find the static values that make JAX return stale results or recompile on every call.",
    )
    parser.add_argument("--version", action="version", version=f"jaxcheck {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    check = commands.add_parser("check", help="check files and folders (default: the current folder)")
    check.add_argument("paths", nargs="*", default=["."], metavar="PATH")
    check.add_argument("--select", type=split_codes, help="only these codes or prefixes, comma-separated (replaces the config's)")
    check.add_argument("--ignore", type=split_codes, default=(), help="also skip these codes or prefixes, comma-separated")
    check.add_argument(
        "--format",
        choices=("text", "json", "sarif", "github"),
        default="text",
        help="text (flake8's), json, sarif (SARIF 2.1.0, for code scanning) or github (Actions annotations)",
    )
    check.add_argument("--statistics", action="store_true", help="count the findings of each code")
    check.add_argument("--exit-zero", action="store_true", help="exit 0 even when there are findings")
    check.add_argument("--no-cache", action="store_true", help="neither read nor write the cache in .jaxcheck_cache/")
    check.add_argument("--jobs", "-j", type=_jobs, default="auto", help="worker processes, or 'auto' (default)")
    check.add_argument(
        "--target-jax-version",
        metavar="VERSION",
        help="the JAX release messages are written for, e.g. 0.11 (replaces the config's; default: the range "
        "the project's requirement on jax admits, else the installed jax, else the newest known)",
    )
    check.add_argument(
        "--profile",
        choices=("default", "strict"),
        help="default: findings with evidence that JAX will go wrong; strict: the design standard of static "
        "values as written (replaces the config's)",
    )
    check.add_argument(
        "--show-settings",
        action="store_true",
        help="print the settings each path is checked with (config file, target JAX release and why) and exit",
    )
    _add_adoption_options(check)
    commands.add_parser("rules", help="list the rule codes")
    rule = commands.add_parser("rule", help="print a rule's reference page")
    rule.add_argument("code", metavar="CODE", help="a code (JAX101) or a rule's name (mutable-static)")
    return parser


def _add_adoption_options(check: argparse.ArgumentParser) -> None:
    """Options for adopting jaxcheck on an existing codebase: what is reported, and what is accepted."""
    check.add_argument(
        "--extend-select", type=split_codes, default=(), metavar="CODES",
        help="also these codes, prefixes or rule names (added to the config's; JAX001 is on only when named)",
    )
    check.add_argument(
        "--baseline", metavar="FILE",
        help="report only findings not in FILE; when FILE does not exist, write it with today's findings",
    )
    check.add_argument(
        "--update-baseline", action="store_true",
        help="with --baseline: write FILE again with today's findings (fixed ones drop out, new ones are accepted)",
    )
    check.add_argument(
        "--add-noqa", action="store_true",
        help="append `# noqa: CODE` to each reported line (merged into a noqa comment there) instead of reporting",
    )


def main(argv: list[str] | None = None) -> int:
    try:
        return _main(argv)
    except BrokenPipeError:  # `jaxcheck check | head`: the reader has what it wanted
        sys.stderr.close()
        return EXIT_CLEAN


def _main(argv: list[str] | None) -> int:
    args = build_parser().parse_args(argv)
    if args.command == "rules":
        for code, (name, summary) in CODES.items():
            print(f"{code}  {name:<28}  {summary}")
        return EXIT_CLEAN
    if args.command == "rule":
        return _rule(args.code)
    if args.command != "check":
        build_parser().print_help()
        return EXIT_ERROR
    return _check(args)


def _rule(wanted: str) -> int:
    from jaxcheck.report.pages import rule_page

    names = {name: code for code, (name, _) in CODES.items()}
    code = names.get(wanted.lower(), wanted.upper())
    page = rule_page(code) if code in CODES else None
    if page is None:
        print(f"jaxcheck: error: unknown rule {wanted!r}; `jaxcheck rules` lists them", file=sys.stderr)
        return EXIT_ERROR
    sys.stdout.write(page)
    return EXIT_CLEAN


def _check(args: argparse.Namespace) -> int:
    from jaxcheck.engine import check
    from jaxcheck.report.formats import REPORTERS, write_statistics

    if args.update_baseline and not args.baseline:
        print("jaxcheck: error: --update-baseline needs --baseline FILE", file=sys.stderr)
        return EXIT_ERROR
    try:
        configs = {
            path: find_config(path).with_options(
                args.select, args.ignore, args.target_jax_version, args.profile, args.extend_select
            )
            for path in args.paths
        }
    except ConfigError as error:
        print(f"jaxcheck: error: {error}", file=sys.stderr)
        return EXIT_ERROR
    if args.show_settings:
        _show_settings(configs)
        return EXIT_CLEAN
    result = check(args.paths, configs.__getitem__, jobs=args.jobs, use_cache=not args.no_cache)
    for path, why in result.skipped:
        print(f"jaxcheck: note: {path} skipped: {why}", file=sys.stderr)
    for note in result.notes:
        print(f"jaxcheck: note: {note}", file=sys.stderr)
    for path in args.paths:  # a JAX000 when selected, as ruff's E902; else a note
        if not os.path.lexists(path) and not configs[path].is_enabled(BAD_INPUT, path):
            print(f"jaxcheck: note: {path} not checked: no such file or folder", file=sys.stderr)
    findings = result.findings
    if args.baseline:
        try:
            findings = _baseline(args.baseline, args.update_baseline, result)
        except BaselineError as error:
            print(f"jaxcheck: error: {error}", file=sys.stderr)
            return EXIT_ERROR
    if args.add_noqa and findings is not None:
        _add_noqa(findings)
    if findings is None or args.add_noqa:
        return EXIT_ERROR if result.internal_errors else EXIT_CLEAN
    result.findings = findings
    REPORTERS[args.format](result.findings, sys.stdout)
    if args.statistics:
        # After flake8's lines; beside a machine format, on stderr, so as not to spoil it.
        write_statistics(result.findings, sys.stdout if args.format == "text" else sys.stderr)
    if args.format == "text":
        files = len({finding.path for finding in result.findings})
        print(
            f"Found {len(result.findings)} finding{'s' * (len(result.findings) != 1)} in {files} "
            f"file{'s' * (files != 1)} ({result.files} checked"
            + (f", {len(result.skipped)} skipped" if result.skipped else "")
            + ").",
            file=sys.stderr,
        )
    if result.internal_errors:
        return EXIT_ERROR
    if result.findings and not args.exit_zero:
        return EXIT_FINDINGS
    return EXIT_CLEAN


def _baseline(file: str, update: bool, result) -> list | None:
    """The findings the baseline FILE does not accept; None when the run wrote it instead."""
    from jaxcheck.report.baseline import Baseline, split

    baseline, findings, checked = Baseline(file, result.texts), result.findings, result.checked
    exists = baseline.exists()
    if update or not exists:
        # Entries about files this run did not check stay as they are.
        kept = [key for key in baseline.load().elements() if not baseline.covers(key, checked)] if exists else []
        count = baseline.write([*kept, *(baseline.key(finding) for finding in findings)])
        print(
            f"jaxcheck: baseline {file} {'updated' if exists else 'written'}: it accepts {count} "
            f"finding{'s' * (count != 1)}; `jaxcheck check --baseline {file}` reports only others",
            file=sys.stderr,
        )
        return None
    new, left = split(baseline, findings, baseline.load())
    stale = sum(count for key, count in left.items() if baseline.covers(key, checked))
    accepted = len(findings) - len(new)
    print(
        f"jaxcheck: {accepted} finding{'s' * (accepted != 1)} accepted by the baseline {file}"
        + (f"; {stale} in it no longer found (`--update-baseline` drops them)" if stale else ""),
        file=sys.stderr,
    )
    return new


def _add_noqa(findings: list) -> None:
    """`--add-noqa`: each reported line gets `# noqa` for its codes; a file with a JAX000 is left alone."""
    from collections import defaultdict

    from jaxcheck.loading.source import SourceError, read_bytes
    from jaxcheck.report.noqa import NoqaError, add_noqa

    bad = {finding.path for finding in findings if finding.code == BAD_INPUT}
    wanted: dict[str, dict[int, set[str]]] = defaultdict(lambda: defaultdict(set))
    for finding in findings:
        if finding.path not in bad and finding.code != UNUSED_NOQA:
            wanted[finding.path][finding.line].add(finding.code)
    lines = files = 0
    for path, codes_by_line in sorted(wanted.items()):
        try:
            data, changed, refused = add_noqa(read_bytes(path), codes_by_line)
            if changed:
                with open(path, "wb") as stream:
                    stream.write(data)
        except (SourceError, NoqaError, OSError) as error:
            print(f"jaxcheck: note: {path}: no `# noqa` added: {error}", file=sys.stderr)
            continue
        for line in refused:
            print(f"jaxcheck: note: {path}:{line}: no `# noqa` added: the line ends inside a string or after a backslash", file=sys.stderr)
        lines, files = lines + changed, files + bool(changed)
    print(f"Added `# noqa` to {lines} line{'s' * (lines != 1)} in {files} file{'s' * (files != 1)}.", file=sys.stderr)


def _show_settings(configs: dict) -> None:
    from jaxcheck.model.jax_versions import FACTS, describe_outcomes
    from jaxcheck.loading.project import find_project

    for path, config in configs.items():
        project = find_project(path)
        config = config.for_project(project.root)
        options, target = config.options, config.options.target
        every = "every code"
        print(f"{path}:")
        print(f"  project: {project.root}")
        print(f"  config file: {config.source or 'none (the defaults)'}")
        print(f"  profile: {config.profile}")
        print(f"  target JAX: {target.describe()} ({target.source})")
        for fact in FACTS:
            if fact.since:
                print(f"    {fact.text}: {describe_outcomes(fact.key, target)}")
        print(f"  select: {', '.join(config.select) if config.select is not None else every}")
        print(f"  extend-select: {', '.join(config.extend_select) or 'nothing'}")
        print(f"  ignore: {', '.join(config.ignore) or 'nothing'}")
        for name, values in (
            ("per-file-ignores", [f"{pattern} = {', '.join(codes)}" for pattern, codes in config.per_file_ignores]),
            ("exclude", config.exclude),
            ("extra-transforms", [name for name, _ in options.transforms]),
            ("static-bases", options.static_bases),
            ("singletons", options.singletons),
        ):
            print(f"  {name}: {'; '.join(values) or 'none'}")


if __name__ == "__main__":
    sys.exit(main())
