"""The `jaxcheck` command. Exit 0: clean; 1: findings; 2: usage, config or internal error."""

from __future__ import annotations

import argparse
import os
import sys

from jaxcheck import __version__
from jaxcheck.config import ConfigError, find_config, split_codes
from jaxcheck.rules import CODES

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
    server = commands.add_parser("server", help='run the language server for editors (needs "jaxcheck[server]")')
    server.add_argument("--stdio", action="store_true", help="speak over standard input and output (the default)")
    commands.add_parser("rules", help="list the rule codes")
    rule = commands.add_parser("rule", help="print a rule's reference page")
    rule.add_argument("code", metavar="CODE", help="a code (JAX101) or a rule's name (mutable-static)")
    return parser


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
    if args.command == "server":
        from jaxcheck.server import serve

        return serve()
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

    missing = [path for path in args.paths if not os.path.exists(path)]
    if missing:
        print(f"jaxcheck: error: no such file or folder: {missing[0]}", file=sys.stderr)
        return EXIT_ERROR
    try:
        configs = {
            path: find_config(path).with_options(args.select, args.ignore, args.target_jax_version, args.profile)
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
