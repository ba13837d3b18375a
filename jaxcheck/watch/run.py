"""`jaxcheck watch PROGRAM.py [ARGS...]` and `jaxcheck watch -m MODULE [ARGS...]`:
run a program with the watch on from its first line, then report what was
seen as `check` reports. Exit: the program's own status when it failed, else
1 when there are findings, else 0."""

from __future__ import annotations

import argparse
import importlib.util
import os
import runpy
import sys
import traceback

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2
_OPTIONS_WITH_VALUES = {"--output-format", "--format", "--color", "--output-file"}


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):
        self.print_usage(sys.stderr)
        self.exit(EXIT_ERROR, f"jaxcheck: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    from jaxcheck.check_command import OLD_FORMATS
    from jaxcheck.report.formats import FORMATS

    parser = _Parser(
        prog="jaxcheck watch",
        usage="jaxcheck watch [OPTIONS] PROGRAM.py [ARGS...]\n       jaxcheck watch [OPTIONS] -m MODULE [ARGS...]",
        description="Run a program under real JAX with the watch on, and report the static hazards it met: "
        "static objects changed after they became cache keys, compilations caused by static arguments, "
        "transforms applied per call, aux_data that is unstable or holds arrays.",
    )
    parser.add_argument("--output-format", choices=FORMATS, help="as `jaxcheck check`'s (default: concise)")
    parser.add_argument("--format", choices=OLD_FORMATS, help=argparse.SUPPRESS)
    parser.add_argument("--color", choices=("auto", "always", "never"), default="auto", help="colour concise and full output")
    parser.add_argument("--quiet", "-q", action="store_true", help="print the findings only: no summary")
    parser.add_argument("--output-file", metavar="FILE", help="write the findings to FILE (the summary stays on stderr)")
    return parser


def split(argv: list[str]) -> tuple[list[str], str | None, str | None, list[str]]:
    """(jaxcheck's options, the program's path, the module's name, the program's arguments): the
    first word that is not one of jaxcheck's options, or `-m NAME`, starts the program."""
    options: list[str] = []
    index = 0
    while index < len(argv):
        word = argv[index]
        if word == "-m" and index + 1 < len(argv):
            return options, None, argv[index + 1], argv[index + 2 :]
        if word.startswith("-m") and len(word) > 2:
            return options, None, word[2:], argv[index + 1 :]
        if word == "--":
            index += 1
            break
        if not word.startswith("-"):
            break
        options.append(word)
        if word in _OPTIONS_WITH_VALUES:
            index += 1
            if index < len(argv):
                options.append(argv[index])
        index += 1
    if index < len(argv):
        return options, argv[index], None, argv[index + 1 :]
    return options, None, None, []


def run(argv: list[str]) -> int:
    from jaxcheck.check_command import _open_output, _output_format

    options, program, module, arguments = split(argv)
    parser = build_parser()
    args = parser.parse_args(options)
    output_format = _output_format(args)
    if output_format is None:
        parser.error(f"--format {args.format} and --output-format {args.output_format} disagree")
    if program is None and module is None:
        parser.error("name a program to run: jaxcheck watch PROGRAM.py [ARGS...] or jaxcheck watch -m MODULE [ARGS...]")
    if program is not None and not os.path.exists(program):
        print(f"jaxcheck: error: {program}: no such file", file=sys.stderr)
        return EXIT_ERROR
    if importlib.util.find_spec("jax") is None:  # the program's own JAX is the one watched
        print("jaxcheck: error: `jaxcheck watch` runs the program under JAX, which is not installed here", file=sys.stderr)
        return EXIT_ERROR
    seen, status, errors = run_program(program, module, arguments)
    out = _open_output(args.output_file)
    try:
        _report(args, output_format, seen, out)
    finally:
        if out is not sys.stdout:
            out.close()
    for error in errors[:3]:
        print(f"jaxcheck: note: the watch failed on a call and saw nothing of it: {error}", file=sys.stderr)
    if status:
        return status
    return EXIT_FINDINGS if seen else EXIT_CLEAN


def run_program(program: str | None, module: str | None, arguments: list[str]):
    """Run the program as `python PROGRAM.py ARGS` or `python -m MODULE ARGS` would, inside a watch;
    (findings, the program's exit status, the watch's own failures)."""
    import jaxcheck.watch.places as places
    from jaxcheck.watch import watch

    saved_argv, saved_path = sys.argv[:], sys.path[:]
    status = 0
    with watch() as seen:
        from jaxcheck.watch import _current

        observer = _current[0]
        try:
            if module is not None:
                sys.argv = [module, *arguments]
                sys.path.insert(0, os.getcwd())
                runpy.run_module(module, run_name="__main__", alter_sys=True)
            else:
                sys.argv = [program, *arguments]
                sys.path.insert(0, os.path.dirname(os.path.abspath(program)))
                places.remember_module("__main__", os.path.abspath(program))
                runpy.run_path(program, run_name="__main__")
        except SystemExit as exit:
            status = _status(exit)
        except BaseException:  # noqa: BLE001 - the program's failure is shown as Python shows it
            _print_traceback()
            status = 1
        finally:
            sys.argv, sys.path[:] = saved_argv, saved_path
            sys.stdout.flush()
    return list(seen), status, list(observer.errors)


def _status(exit: SystemExit) -> int:
    code = exit.code
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)
    return 1


def _print_traceback() -> None:
    """The program's traceback without jaxcheck's own frames on top."""
    kind, error, trace = sys.exc_info()
    while trace is not None and trace.tb_frame.f_code.co_filename in (__file__, runpy.__file__, "<frozen runpy>"):
        trace = trace.tb_next
    traceback.print_exception(kind, error, trace)


def _report(args, output_format: str, seen: list, out) -> None:
    from jaxcheck.report.formats import HUMAN_FORMATS, Sources, colour_wanted, write_findings

    human = output_format in HUMAN_FORMATS
    colour = human and out is sys.stdout and colour_wanted(args.color, out)
    write_findings(output_format, seen, out, Sources(), colour)
    out.flush()
    if human and not args.quiet:
        count = len(seen)
        print(
            f"jaxcheck watch: {'no findings' if not count else f'{count} finding' + ('s' if count != 1 else '')}",
            file=sys.stderr,
        )
