"""What `jaxcheck check` does once its arguments are parsed: check the
paths, then fix, accept (a baseline) or mark (`# noqa`) what was found, and
report the rest, with ruff's closing lines."""

from __future__ import annotations

import argparse
import os
import sys

from jaxcheck.config import ConfigError, find_config
from jaxcheck.findings import FIXABLE_CODES, shown
from jaxcheck.report.baseline import BaselineError
from jaxcheck.rules import BAD_INPUT, EXPLICIT_ONLY, UNUSED_NOQA

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2
OLD_FORMATS = {"text": "concise", "json": "json", "sarif": "sarif", "github": "github"}  # --format's spellings


def run(args: argparse.Namespace) -> int:
    """Check the paths as the arguments say; the exit status."""
    from jaxcheck.engine import check

    output_format = _output_format(args)
    if output_format is None:
        return _error(f"--format {args.format} and --output-format {args.output_format} disagree")
    stdin = args.paths == ["-"] or (args.stdin_filename is not None and not args.paths)
    if "-" in args.paths and not stdin:
        return _error("- (standard input) cannot be checked with other paths")
    if args.update_baseline and not args.baseline:
        return _error("--update-baseline needs --baseline FILE")
    if stdin and (args.add_noqa or args.fix or args.diff):
        return _error("--add-noqa, --fix and --diff work on files: they cannot take standard input")
    paths = [args.stdin_filename or "-"] if stdin else args.paths or ["."]
    try:
        configs = {
            path: find_config(path).with_options(
                args.select, args.ignore, args.target_jax_version, args.profile, args.extend_select
            )
            for path in paths
        }
    except ConfigError as error:
        return _error(str(error))
    if args.show_settings:
        _show_settings(configs, output_format)
        return EXIT_CLEAN
    texts, unreadable = _read_stdin(paths[0]) if stdin else ({}, None)

    def run():
        progress = None if args.quiet else _progress()
        try:
            return unreadable or check(
                paths,
                configs.__getitem__,
                texts=texts,
                jobs=args.jobs,
                use_cache=not args.no_cache,
                alone=stdin and args.stdin_filename is None,
                progress=progress,
            )
        finally:
            if progress is not None:
                progress.close()

    try:
        result = run()
    except ConfigError as error:  # the config of a project found inside a folder given
        return _error(str(error))
    missing = [] if stdin else [path for path in paths if not os.path.lexists(path)]
    for path in missing:  # a JAX000 when selected, as ruff's E902; else a note
        if not (args.quiet or configs[path].is_enabled(BAD_INPUT, path)):
            print(f"jaxcheck: note: {shown(path)} not checked: no such file or folder", file=sys.stderr)
    result.files -= len(missing)
    if not (stdin or args.quiet or result.files or result.skipped or missing):
        print(f"jaxcheck: warning: no Python files found under {', '.join(map(shown, paths))}", file=sys.stderr)
    if args.diff:
        return _diff(result, args)
    fixed: list = []
    if args.fix:
        result, fixed = _fixed(result, run, args.unsafe_fixes)
    findings = result.findings
    if args.baseline:
        try:
            findings = _baseline(args.baseline, args.update_baseline, result)
        except BaselineError as error:
            return _error(str(error))
    if args.add_noqa and findings is not None:
        _notes(result, args)
        result.internal_errors += _add_noqa(findings)
    if findings is None or args.add_noqa:
        return EXIT_ERROR if result.internal_errors else EXIT_CLEAN
    result.findings = findings
    try:
        out = _open_output(args.output_file)
    except OSError as error:
        return _error(f"cannot write {args.output_file}: {error.strerror or error}")
    try:
        _report(args, output_format, result, texts, out, fixed)
    finally:
        if out is not sys.stdout:
            out.close()
    if result.internal_errors:
        return EXIT_ERROR
    if result.findings and not args.exit_zero:
        return EXIT_FINDINGS
    return EXIT_CLEAN


def _error(message: str) -> int:
    print(f"jaxcheck: error: {message}", file=sys.stderr)
    return EXIT_ERROR


def _output_format(args: argparse.Namespace) -> str | None:
    """`--output-format`, or the old `--format` spelling of it; None when the two disagree."""
    old = OLD_FORMATS.get(args.format)
    if old and args.output_format and old != args.output_format:
        return None
    return args.output_format or old or "concise"


def _read_stdin(path: str):
    """({path: the text of standard input}, None), decoded as Python decodes a file (BOM, coding cookie);
    or ({}, a run whose one finding is the JAX000 of a file that cannot be decoded)."""
    from jaxcheck.engine import Result
    from jaxcheck.findings import BAD_INPUT, Finding
    from jaxcheck.loading.source import SourceError, decode_source

    try:
        return {path: decode_source(sys.stdin.buffer.read())}, None
    except SourceError as error:
        return {}, Result(findings=[Finding(path, 1, 1, BAD_INPUT, str(error))], files=1)


def _open_output(path: str | None):
    if path is None:
        return sys.stdout
    folder = os.path.dirname(path)
    if folder:
        os.makedirs(folder, exist_ok=True)
    return open(path, "w", encoding="utf-8")


def _progress():
    from jaxcheck.report.progress import progress_on

    return progress_on(sys.stderr)


def _report(args: argparse.Namespace, output_format: str, result, texts: dict[str, str], out, fixed: list) -> None:
    """The findings on `out`; notes, statistics beside a machine format and the summary on stderr."""
    from jaxcheck.report.formats import HUMAN_FORMATS, Sources, colour_wanted, write_findings, write_statistics

    human = output_format in HUMAN_FORMATS
    _notes(result, args)
    colour = human and out is sys.stdout and colour_wanted(args.color, out)  # a file is never painted (ruff's)
    write_findings(output_format, result.findings, out, Sources(texts), colour)
    if args.statistics:
        # After flake8's lines; beside a machine format, on stderr, so as not to spoil it.
        write_statistics(result.findings, out if human else sys.stderr)
    if not args.quiet and (human or args.output_file):
        _summary(result, fixed, args)


def _notes(result, args: argparse.Namespace) -> None:
    """What the user should know of the run, on stderr: files skipped, fewer workers."""
    if not args.quiet:
        for path, why in result.skipped:
            print(f"jaxcheck: note: {shown(path)} skipped: {shown(why)}", file=sys.stderr)
        for note in result.notes:
            print(f"jaxcheck: note: {shown(note)}", file=sys.stderr)


def _baseline(file: str, update: bool, result) -> list | None:
    """The findings the baseline FILE does not accept; None when the run wrote it instead.
    A FILE reached through a folder that links out of the projects around the
    current folder and the checked files is refused (`folder_outside_projects`)."""
    from jaxcheck.report.baseline import Baseline, folder_outside_projects, split

    real = folder_outside_projects(file, {os.getcwd(), *map(os.path.dirname, result.checked)})
    if real is not None:
        raise BaselineError(
            f"the baseline {file} is in {real}, outside the project, reached through a symbolic link: "
            "name a baseline inside the project, or its real path"
        )
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


def _add_noqa(findings: list) -> int:
    """`--add-noqa`: each reported line gets `# noqa` for its codes; a file with a JAX000 is left alone.
    The number of files it could not write: each makes the run fail (exit status 2)."""
    from collections import defaultdict

    from jaxcheck.fixes.disk import LeftAlone, replace_file
    from jaxcheck.loading.source import SourceError, read_bytes
    from jaxcheck.report.noqa import NoqaError, add_noqa

    bad = {finding.path for finding in findings if finding.code == BAD_INPUT}
    wanted: dict[str, dict[int, set[str]]] = defaultdict(lambda: defaultdict(set))
    for finding in findings:
        if finding.cell:  # its line is a cell's, not the file's
            print(f"jaxcheck: note: {finding.path}: no `# noqa` added to a notebook: add it in cell {finding.cell}", file=sys.stderr)
        elif finding.path not in bad and finding.code != UNUSED_NOQA:
            wanted[finding.path][finding.line].add(finding.code)
    lines = files = unwritten = 0
    for path, codes_by_line in sorted(wanted.items()):
        try:
            read = read_bytes(path)
            data, changed, refused = add_noqa(read, codes_by_line)
            if changed:
                replace_file(path, data, read)
        except (SourceError, NoqaError, LeftAlone) as error:
            print(f"jaxcheck: note: {path}: no `# noqa` added: {error}", file=sys.stderr)
            continue
        except OSError as error:
            print(f"jaxcheck: error: {path}: no `# noqa` added: cannot write: {error.strerror or error}", file=sys.stderr)
            unwritten += 1
            continue
        for line in refused:
            print(f"jaxcheck: note: {path}:{line}: no `# noqa` added: the line ends inside a string or after a backslash", file=sys.stderr)
        lines, files = lines + changed, files + bool(changed)
    print(f"Added `# noqa` to {lines} line{'s' * (lines != 1)} in {files} file{'s' * (files != 1)}.", file=sys.stderr)
    return unwritten


def _fixed(result, run, unsafe: bool):
    """Fix, write and check again until nothing more is fixed (a fix can
    uncover another finding); the last result, and the findings fixed.
    A file left alone (changed since it was read, a symbolic link) or that
    cannot be written is not tried again; one that cannot be written makes
    the run fail (exit status 2), as the fixes it reports were not made."""
    from jaxcheck.fixes import LeftAlone, fix_files, write_fixed

    fixed, not_fixed, unwritten = [], set(), 0
    for _ in range(_MAX_FIX_PASSES):
        fixes = [fix for fix in fix_files(result.findings, unsafe) if fix.path not in not_fixed]
        if not fixes:
            break
        written = 0
        for fix in fixes:
            try:
                write_fixed(fix.path, fix.after, fix.read)
            except LeftAlone as why:
                print(f"jaxcheck: note: {fix.path} {why}: not fixed", file=sys.stderr)
                not_fixed.add(fix.path)
                continue
            except OSError as error:
                print(f"jaxcheck: error: cannot write the fixes of {fix.path}: {error.strerror or error}", file=sys.stderr)
                not_fixed.add(fix.path)
                unwritten += 1
                continue
            written += 1
            fixed.extend(fix.applied)
        result = run()
        if not written:
            break
    result.internal_errors += unwritten
    return result, fixed


_MAX_FIX_PASSES = 10  # ruff's loop stops at 100; each pass here is a whole check


def _diff(result, args: argparse.Namespace) -> int:
    """`--diff`: what `--fix` would change, as a unified diff; nothing is written."""
    from jaxcheck.fixes import fix_files

    fixes = fix_files(result.findings, args.unsafe_fixes)
    for fix in fixes:
        sys.stdout.write(fix.diff())
    count = sum(len(fix.applied) for fix in fixes)
    hint = "" if args.unsafe_fixes else _hidden_hint(result.findings, fixes)
    if count:
        print(f"Would fix {count} finding{'s' * (count != 1)}{hint}.", file=sys.stderr)
    else:
        print(f"No fixes available{hint}.", file=sys.stderr)
    if result.internal_errors:
        return EXIT_ERROR
    return EXIT_FINDINGS if fixes and not args.exit_zero else EXIT_CLEAN


def _summary(result, fixed: list, args: argparse.Namespace) -> None:
    """ruff's closing lines: how many findings were found (and fixed), then
    how many more a fix would remove, safe ones and unsafe ones."""
    findings = result.findings
    missing = 0 if args.paths == ["-"] else sum(not os.path.lexists(path) for path in args.paths)
    files = len({finding.path for finding in [*findings, *fixed]})
    found = len(findings) + len(fixed)
    counts = f" ({len(fixed)} fixed, {len(findings)} remaining)" if args.fix else ""
    print(
        f"Found {found} finding{'s' * (found != 1)}{counts} in {files} "
        f"file{'s' * (files != 1)} ({result.files} checked"
        + (f", {len(result.skipped)} skipped" if result.skipped else "")
        + (f", {missing} not found" if missing else "")
        + ").",
        file=sys.stderr,
    )
    # A finding's fix is known from its file's syntax tree: only the files of findings whose code has fixes are parsed,
    # and LibCST is loaded only for them (a run of many processes reads with it in the others alone).
    fixable = [finding for finding in findings if finding.code in FIXABLE_CODES]
    if fixable:
        from jaxcheck.fixes import fix_for

        kinds = [kind for kind in map(fix_for, fixable) if kind is not None]
    else:
        kinds = []
    safe = sum(kind.safe or args.unsafe_fixes for kind in kinds)
    hidden = len(kinds) - safe
    hint = f" ({hidden} hidden fix{'es' * (hidden != 1)} can be enabled with the `--unsafe-fixes` option)" if hidden else ""
    if safe and not args.fix:
        print(f"[*] {safe} fixable with the `--fix` option{hint}.", file=sys.stderr)
    elif hidden:
        print(f"No fixes available{hint}.", file=sys.stderr)


def _hidden_hint(findings: list, fixes: list) -> str:
    from jaxcheck.fixes import hidden_unsafe

    applied = {finding for fix in fixes for finding in fix.applied}
    hidden = hidden_unsafe(finding for finding in findings if finding not in applied)
    return f" ({hidden} hidden fix{'es' * (hidden != 1)} can be enabled with the `--unsafe-fixes` option)" if hidden else ""


def _show_settings(configs: dict, output_format: str) -> None:
    from jaxcheck.model.jax_versions import FACTS, describe_outcomes
    from jaxcheck.loading.project import find_project

    for path, config in configs.items():
        project = find_project(path)
        config = config.for_project(project.root)
        options, target = config.options, config.options.target
        every = f"every code but {', '.join(sorted(EXPLICIT_ONLY))} (on only when named)"
        print(f"{path}:")
        print(f"  project: {project.root}")
        print(f"  config file: {config.source or 'none (the defaults)'}")
        print(f"  profile: {config.profile}")
        print(f"  output format: {output_format}")
        print(f"  target JAX: {target.describe()} ({target.source})")
        for fact in FACTS:
            if fact.eras:
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
