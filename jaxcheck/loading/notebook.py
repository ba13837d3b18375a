"""Jupyter notebooks: the Python of their code cells, and where each line came from.

Notebooks are where JAX is written: its tutorials, most research code and the
JAX documentation itself are notebooks, and a static argument that recompiles
in a loop is as wrong in a cell as in a module. A notebook is read as one
script: its code cells joined, one after another, so that a cell sees what the
cells before it define, as the kernel does. Findings are then mapped back to
the cell and the line within it, as ruff reports them (`cell 3:2:5`).

IPython's own syntax (`%time`, `!pip install`, `x?`) is not Python: each such
line becomes `pass` (or, for `x = !ls`, `x = None`), which keeps every line
where it was. A cell whose cell magic runs something else (`%%bash`,
`%%writefile`) is left out, as ruff leaves it out.
"""

from __future__ import annotations

import bisect
import difflib
import json
import re
from dataclasses import dataclass

from jaxcheck.findings import reason
from jaxcheck.loading.source import MAX_BYTES, SourceError, read_bytes

_LINE_ENDING = re.compile(r"\r\n|\r|\n")

_MAX_BYTES = 4 * MAX_BYTES  # outputs (plots as base64) make a notebook larger than code

# Cell magics whose body is Python run in the notebook's namespace (ruff's list).
_PYTHON_CELL_MAGICS = frozenset({"capture", "debug", "ipytest", "prun", "pypy", "python", "python3", "time", "timeit"})
# Line magics IPython runs without their `%` (automagic): a cell starting with one is a command, not Python.
_AUTOMAGICS = frozenset(
    "alias alias_magic autoawait autocall automagic bookmark cd code_wrap colors conda config debug dhist dirs "
    "doctest_mode edit env gui history killbgscripts load load_ext loadpy logoff logon logstart logstate logstop "
    "lsmagic macro magic mamba matplotlib micromamba notebook page pastebin pdb pdef pdoc pfile pinfo pinfo2 pip "
    "popd pprint precision prun psearch psource pushd pwd pycat pylab quickref recall rehashx reload_ext rerun "
    "reset reset_selective run save sc set_env sx system tb time timeit unalias unload_ext who who_ls whos xdel "
    "xmode".split()
)
_ASSIGNMENTS = frozenset({"=", "+=", "-=", "*=", "/=", "//=", "%=", "**=", "&=", "|=", "^=", "@=", ">>=", "<<="})
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")
# `files = !ls`, `t = %timeit -o f(x)`: the target stays, the command goes.
_ASSIGNED_COMMAND = re.compile(r"^(\s*[\w.\[\](), ]+?\s*=\s*)[%!]")


@dataclass(frozen=True)
class Notebook:
    """The Python of a notebook's code cells, and which cell each line is in."""

    python: str
    starts: tuple[int, ...]  # for each code cell with lines: its first line (1-based) in `python`
    cells: tuple[int, ...]  # for each of those: its number among all the notebook's cells (1-based, as Jupyter shows)

    def line_of(self, cell: int, line: int) -> int:
        """The line of `python` that is line `line` of cell `cell` (`position`'s inverse)."""
        return self.starts[self.cells.index(cell)] + line - 1

    def position(self, line: int) -> tuple[int, int]:
        """(cell, line within the cell) of a line of `python`; (0, line) before any cell."""
        index = bisect.bisect_right(self.starts, line) - 1
        if index < 0:
            return 0, line
        return self.cells[index], line - self.starts[index] + 1


@dataclass(frozen=True)
class _Cell:
    number: int  # 1-based among all cells
    source: str  # the cell's text as stored
    lines: tuple[str, ...]  # its Python lines, each ending in "\n", magics replaced


def is_notebook(path: str) -> bool:
    return path.endswith(".ipynb")


def notebook_text(path: str, keep_bom: bool = False) -> str:
    """A notebook's JSON text: UTF-8, as nbformat writes it. Its outputs
    (plots as base64) make it larger than code: it may be larger than a module."""
    try:
        return read_bytes(path, limit=_MAX_BYTES).decode("utf-8" if keep_bom else "utf-8-sig")
    except UnicodeDecodeError as error:
        raise SourceError(f"cannot decode as utf-8: {error}") from None


def read_notebook(text: str) -> Notebook:
    """The notebook's Python; `SourceError` says why when the text is not an nbformat 4 notebook."""
    python, starts, cells = [], [], []
    line = 1
    for cell in _code_cells(_document(text)):
        if cell.lines:
            starts.append(line)
            cells.append(cell.number)
            python.extend(cell.lines)
            line += len(cell.lines)
    return Notebook("".join(python), tuple(starts), tuple(cells))


def with_python(raw: str, python: str) -> str:
    """The notebook text `raw` with its code cells holding the new Python of
    their joined cells (`python`, edited from `read_notebook(raw).python`).

    Only the `source` of a changed cell is written anew, in the style it was
    stored in (a string or a list of lines, the list's indentation); all else,
    outputs, metadata and formatting, stays byte for byte. Lines the edit kept
    are taken from the stored cell, so a magic comes back as it was. Each new
    line goes to the cell its neighbours came from (a line diff against the
    old joined text).
    """
    if raw.startswith("\ufeff"):
        return "\ufeff" + with_python(raw[1:], python)
    document = _document(raw)
    cells = [cell for cell in _code_cells(document) if cell.lines]
    old = [line for cell in cells for line in cell.lines]
    stored = [line if line.endswith(("\n", "\r")) else line + "\n" for cell in cells for line in _split_lines(cell.source)]
    new = _split_lines(python)
    bounds = [0]
    for cell in cells:
        bounds.append(bounds[-1] + len(cell.lines))
    # Each cell's start in the new text, and the old line each kept new line was.
    if len(new) == len(old):  # an edit within lines (a fix, a `# noqa`): each line stays in its cell
        kept = {index: index for index, line in enumerate(new) if line == old[index]}
        new_bounds = bounds
    else:
        kept, new_bounds = {}, list(bounds)
        opcodes = difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes()
        for index, bound in enumerate(bounds[1:-1], start=1):
            new_bounds[index] = _mapped(bound, opcodes, len(new))
        new_bounds[-1] = len(new)
        for tag, i1, i2, j1, _ in opcodes:
            if tag == "equal":
                kept.update({j1 + offset: i1 + offset for offset in range(i2 - i1)})
    replacements = {}
    for index, cell in enumerate(cells):
        # A line written anew ends as the cell's other lines do, when they all end one way.
        endings = set(_LINE_ENDING.findall(cell.source))
        ending = endings.pop() if len(endings) == 1 else "\n"
        lines = [
            stored[kept[j]] if j in kept else new[j][:-1] + ending if new[j].endswith("\n") else new[j]
            for j in range(new_bounds[index], new_bounds[index + 1])
        ]
        text = "".join(lines)
        if not cell.source.endswith(("\n", "\r")):
            text = text[: -len(ending)] if text.endswith(ending) else text[:-1] if text.endswith("\n") else text
        if text != cell.source:
            replacements[cell.number] = text
    if not replacements:
        return raw
    pieces, end = [], 0
    for number, (start, stop) in sorted(_source_spans(raw).items()):
        if number in replacements:
            pieces += [raw[end:start], _encoded_source(raw, start, stop, replacements[number])]
            end = stop
    return "".join(pieces) + raw[end:]


def _document(text: str) -> dict:
    try:
        document = json.loads(text)
    except ValueError as error:
        raise SourceError(f"cannot read as a notebook: not JSON: {reason(error)}") from None
    except RecursionError:
        raise SourceError("cannot read as a notebook: its JSON nests too deeply") from None
    if not isinstance(document, dict) or not isinstance(document.get("cells"), list):
        version = document.get("nbformat") if isinstance(document, dict) else None
        why = f"nbformat {version}, jaxcheck reads nbformat 4" if version not in (None, 4) else "no list of cells"
        raise SourceError(f"cannot read as a notebook: {why}")
    return document


def _code_cells(document: dict) -> list[_Cell]:
    """The notebook's code cells that hold Python, with their Python lines.
    A notebook whose kernel runs another language holds none."""
    metadata = document.get("metadata")
    language = ""
    if isinstance(metadata, dict):
        for key, field in (("language_info", "name"), ("kernelspec", "language")):
            if isinstance(metadata.get(key), dict) and isinstance(metadata[key].get(field), str):
                language = language or metadata[key][field].lower()
    if language not in ("", "python"):
        return []
    found = []
    for number, cell in enumerate(document["cells"], start=1):
        if not isinstance(cell, dict):
            raise SourceError(f"cannot read as a notebook: cell {number} is not an object")
        if cell.get("cell_type") != "code":
            continue
        source = cell.get("source", "")
        if isinstance(source, list) and all(isinstance(line, str) for line in source):
            source = "".join(source)
        if not isinstance(source, str):
            raise SourceError(f"cannot read as a notebook: the source of cell {number} is neither text nor a list of lines")
        cell_metadata = cell.get("metadata")
        vscode = cell_metadata.get("vscode") if isinstance(cell_metadata, dict) else None
        if isinstance(vscode, dict) and vscode.get("languageId", "python") != "python":
            continue
        lines = _python_lines(source)
        if lines is not None:
            found.append(_Cell(number, source, tuple(lines)))
    return found


def _split_lines(text: str) -> list[str]:
    """Lines with their endings, split at the line breaks Python counts (not `str.splitlines`'s form feeds)."""
    return _LINE.findall(text)


def _python_lines(source: str) -> list[str] | None:
    """The cell's lines as Python, each ending in "\\n", with IPython's syntax
    replaced line for line; None for a cell that is not Python."""
    lines = [line.rstrip("\r\n") for line in _split_lines(source)]
    first = next((line.split() for line in lines if line.strip()), [])
    if first and first[0].startswith("%%") and first[0][2:] not in _PYTHON_CELL_MAGICS:
        return None
    if first and first[0] in _AUTOMAGICS and (len(first) == 1 or first[1] not in _ASSIGNMENTS):
        return None
    python = []
    depth, string, continued, in_command = 0, None, False, False
    for line in lines:
        if in_command:  # a command continued with a backslash
            python.append("")
            in_command = line.endswith("\\")
            continue
        if depth == 0 and string is None and not continued:
            replaced = _without_ipython(line)
            if replaced is not None:
                python.append(replaced)
                in_command = line.endswith("\\")
                continue
        python.append(line)
        depth, string, continued, _ = _scan(line, depth, string)
    return [line + "\n" for line in python]


def _without_ipython(line: str) -> str | None:
    """A statement line of IPython syntax as Python of the same line, or None when it is Python."""
    stripped = line.strip()
    indent = line[: len(line) - len(line.lstrip())]
    _, string, _, comment = _scan(line, 0, None)
    # `obj?`, `obj??`: the `?` ends the code (a string's would end in its quote).
    asks_help = string is None and line[:comment].rstrip().endswith("?")
    if stripped.startswith(("%", "!", "?")) or asks_help:
        return indent + "pass"
    assigned = _ASSIGNED_COMMAND.match(line)
    if assigned is not None:
        return assigned.group(1) + "None"
    return None


def _scan(line: str, depth: int, string: str | None) -> tuple[int, str | None, bool, int]:
    """The bracket depth, the open triple-quoted string, and whether the line
    continues with a backslash, after `line` (where a statement can start);
    and where its comment starts (its length when it has none)."""
    index, length = 0, len(line)
    while index < length:
        char = line[index]
        if string is not None:
            if char == "\\":
                index += 2
                continue
            if line.startswith(string, index):
                index += len(string)
                string = None
                continue
            index += 1
            continue
        if char == "#":
            return depth, None, False, index
        if char in "\"'":
            quote = line[index : index + 3] if line.startswith(char * 3, index) else char
            string = quote
            index += len(quote)
            if len(quote) == 1:  # a one-line string ends on this line (or the line is broken anyway)
                while index < length and line[index] != char:
                    index += 2 if line[index] == "\\" else 1
                index += 1
                string = None
            continue
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth = max(depth - 1, 0)
        index += 1
    return depth, string, string is None and line.endswith("\\"), length


def _mapped(bound: int, opcodes, size: int) -> int:
    """Where an old cell boundary (a line index) falls in the new text: lines
    replaced or inserted at a boundary go with the cell after it, lines
    replaced across one with the cell before."""
    for tag, i1, i2, j1, j2 in opcodes:
        if tag == "equal" and i1 <= bound < i2:
            return j1 + bound - i1
        if tag != "equal" and i1 <= bound <= i2:
            return j1 if bound == i1 else j2
    return size


def raw_line(raw: str, cell: int, line: int) -> int:
    """The 1-based line of the notebook's JSON text that holds line `line` of
    cell `cell`'s source (for an editor, which shows the file as JSON): the
    line of that string in a source stored as a list of lines, else the line
    the source starts on."""
    span = _source_spans(raw).get(cell)
    if span is None:
        return 1
    start, end = span
    if raw[start] == "[":
        decoder = json.JSONDecoder()
        index, number = _skip_space(raw, start + 1), 0
        while index < end and raw[index] != "]":
            number += 1
            if number == line:
                start = index
                break
            index = _skip_space(raw, decoder.raw_decode(raw, index)[1])
            if raw[index] == ",":
                index = _skip_space(raw, index + 1)
    return raw.count("\n", 0, start) + 1


def _source_spans(raw: str) -> dict[int, tuple[int, int]]:
    """Where in the raw text each cell's `source` value is: cell number -> (start, end)."""
    decoder = json.JSONDecoder()
    spans: dict[int, tuple[int, int]] = {}
    for key, start, _ in _members(raw, _skip_space(raw, 0), decoder):
        if key == "cells":
            index = _skip_space(raw, start + 1)  # past "["
            number = 0
            while raw[index] != "]":
                number += 1
                for cell_key, value_start, value_end in _members(raw, index, decoder):
                    if cell_key == "source":
                        spans[number] = (value_start, value_end)
                index = _skip_space(raw, decoder.raw_decode(raw, index)[1])
                if raw[index] == ",":
                    index = _skip_space(raw, index + 1)
            break
    return spans


def _members(raw: str, index: int, decoder: json.JSONDecoder):
    """(key, value start, value end) of each member of the object at `index`."""
    index = _skip_space(raw, index + 1)  # past "{"
    while raw[index] != "}":
        key, index = json.decoder.scanstring(raw, index + 1)
        index = _skip_space(raw, _skip_space(raw, index) + 1)  # past ":"
        end = decoder.raw_decode(raw, index)[1]
        yield key, index, end
        index = _skip_space(raw, end)
        if raw[index] == ",":
            index = _skip_space(raw, index + 1)


def _skip_space(raw: str, index: int) -> int:
    while index < len(raw) and raw[index] in " \t\r\n":
        index += 1
    return index


def _encoded_source(raw: str, start: int, stop: int, text: str) -> str:
    """A cell's new source as JSON, in the form the old one was stored in."""
    ascii_only = raw.isascii() and "\\u" in raw
    if raw[start] != "[":
        return json.dumps(text, ensure_ascii=ascii_only)
    old = raw[start:stop]
    lines = _split_lines(text)
    if not lines:
        return "[]"
    items = [json.dumps(line, ensure_ascii=ascii_only) for line in lines]
    if "\n" not in old:
        return "[" + ", ".join(items) + "]" if ", " in old or old == "[]" else "[" + ",".join(items) + "]"
    item_indent = old[1 : len(old) - len(old[1:].lstrip())]
    body = old[:-1]
    closing = body[len(body.rstrip()) :]
    return "[" + item_indent + ("," + item_indent).join(items) + closing + "]"
