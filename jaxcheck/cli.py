"""The `jaxcheck` command. Exit 0: clean; 1: findings; 2: usage, config or internal error."""

from __future__ import annotations

import argparse
import os
import sys

from jaxcheck import __version__

EXIT_CLEAN, EXIT_ERROR, EXIT_INTERRUPTED = 0, 2, 130
ISSUES = "https://github.com/jaxcheck/jaxcheck/issues"


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
    from jaxcheck.config import split_codes

    parser = _Parser(
        prog="jaxcheck",
        description="Find the static values that make JAX return stale results or recompile on every call.",
    )
    parser.add_argument("--version", action="version", version=f"jaxcheck {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    check = commands.add_parser("check", help="check files and folders (default: the current folder)")
    check.add_argument("paths", nargs="*", metavar="PATH", help="files and folders (default: .); - reads standard input")
    check.add_argument("--select", type=split_codes, help="only these codes, prefixes or rule names, comma-separated (replaces the config's)")
    check.add_argument("--ignore", type=split_codes, default=(), help="also skip these codes, prefixes or rule names, comma-separated")
    _add_adoption_options(check)
    _add_output_options(check)
    check.add_argument("--fix", action="store_true", help="apply the safe fixes, write the files and report what remains")
    check.add_argument("--diff", action="store_true", help="print a diff of what --fix would change, and write nothing")
    check.add_argument(
        "--unsafe-fixes",
        action="store_true",
        help="with --fix or --diff, apply the unsafe fixes too (they may change what the program computes)",
    )
    check.add_argument("--exit-zero", action="store_true", help="exit 0 even when there are findings")
    check.add_argument("--no-cache", action="store_true", help="neither read nor write the cache (kept in the user's cache folder)")
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
    server = commands.add_parser("server", help='run the language server for editors (needs pygls: pip install ".[server]" in a clone of jaxcheck)')
    server.add_argument("--stdio", action="store_true", help="speak over standard input and output (the default)")
    commands.add_parser(
        "watch", add_help=False,
        help="run a program under real JAX and report the hazards it meets (jaxcheck watch --help)",
    )
    commands.add_parser("rules", help="list the rule codes")
    rule = commands.add_parser("rule", help="print a rule's reference page")
    rule.add_argument("code", metavar="CODE", help="a code (JAX101) or a rule's name (mutable-static)")
    return parser


def _add_adoption_options(check: argparse.ArgumentParser) -> None:
    """Options for adopting jaxcheck on an existing codebase: what is reported, and what is accepted."""
    from jaxcheck.config import split_codes

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


def _add_output_options(check: argparse.ArgumentParser) -> None:
    from jaxcheck.check_command import OLD_FORMATS
    from jaxcheck.report.formats import FORMATS

    output = check.add_argument_group("output")
    output.add_argument(
        "--output-format",
        choices=FORMATS,
        help="concise (default: flake8's one line), full (with the source around), json, sarif (SARIF 2.1.0, "
        "for code scanning) or github (Actions annotations)",
    )
    output.add_argument("--format", choices=OLD_FORMATS, help="the old spelling of --output-format (text: concise)")
    output.add_argument(
        "--color",
        choices=("auto", "always", "never"),
        default="auto",
        help="colour concise and full output: auto (default) on a terminal; NO_COLOR turns it off, FORCE_COLOR on",
    )
    output.add_argument("--quiet", "-q", action="store_true", help="print the findings only: no summary, no notes")
    output.add_argument("--output-file", metavar="FILE", help="write the findings to FILE (the summary stays on stderr)")
    output.add_argument(
        "--stdin-filename",
        metavar="PATH",
        help="with -, judge standard input as this file of its project (its config, its neighbours)",
    )
    output.add_argument("--statistics", action="store_true", help="count the findings of each code")





def program() -> None:
    """The `jaxcheck` program."""
    sys.exit(main())


def main(argv: list[str] | None = None) -> int:
    """Run the command; its exit status. A failure of jaxcheck itself is exit 2
    with one line, never 1, which CI reads as "findings"."""
    arguments = sys.argv[1:] if argv is None else argv
    if arguments == ["--version"]:  # answered before the engine is imported
        print(f"jaxcheck {__version__}")
        return EXIT_CLEAN
    try:
        return _main(arguments)
    except BrokenPipeError:  # `jaxcheck check | head`: the reader has what it wanted
        sys.stderr.close()
        return EXIT_CLEAN
    except KeyboardInterrupt:
        print("jaxcheck: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except Exception as error:  # noqa: BLE001 - every bug of ours ends the same way
        from jaxcheck.failures import described

        print(f"jaxcheck: internal error: {described(error)}; please report it at {ISSUES}", file=sys.stderr)
        return EXIT_ERROR


def _main(argv: list[str]) -> int:
    if argv[:1] == ["watch"]:  # its own parser: the program's arguments follow the program
        from jaxcheck.watch.run import run

        return run(argv[1:])
    from jaxcheck.rules import CODES

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
    from jaxcheck.check_command import run

    return run(args)


def _rule(wanted: str) -> int:
    from jaxcheck.report.pages import rule_page
    from jaxcheck.rules import CODES

    names = {name: code for code, (name, _) in CODES.items()}
    code = names.get(wanted.lower(), wanted.upper())
    page = rule_page(code) if code in CODES else None
    if page is None:
        print(f"jaxcheck: error: unknown rule {wanted!r}; `jaxcheck rules` lists them", file=sys.stderr)
        return EXIT_ERROR
    sys.stdout.write(page)
    return EXIT_CLEAN


if __name__ == "__main__":
    sys.exit(main())
