"""`.gitignore`-style patterns, for `exclude` and `per-file-ignores`.

Patterns with a slash (other than a trailing one) are anchored at the config
file's folder, others match a name at any depth; a trailing slash matches
folders only; `*`, `?`, `[...]` and `**` work as in git; `!` re-includes, and
`\\` escapes a special character.

A pattern is matched by following every way through it at once (a set of
positions, one step per character), not by backtracking: `*a*a*a*a*a*aX`
costs the same as `*X`, whatever the path.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

# How a step of a pattern matches: one character, or a run of them.
_CHAR, _ANY, _CLASS, _STAR, _GLOBSTAR, _FOLDERS = "char", "any", "class", "star", "globstar", "folders"


class PatternError(ValueError):
    """A pattern that cannot be read; the message says why."""


@dataclass(frozen=True)
class _Step:
    kind: str
    char: str = ""  # for _CHAR
    ranges: tuple[tuple[str, str], ...] = ()  # for _CLASS: (low, high), a single character as (c, c)
    negated: bool = False

    def accepts(self, char: str) -> bool:
        if self.kind == _CHAR:
            return char == self.char
        if self.kind == _CLASS:
            return char != "/" and any(low <= char <= high for low, high in self.ranges) != self.negated
        return char != "/" or self.kind in (_GLOBSTAR, _FOLDERS)  # `?` and `*` stay within a name


@dataclass(frozen=True)
class Pattern:
    steps: tuple[_Step, ...]
    directory_only: bool

    def fullmatch(self, path: str) -> bool:
        """Whether the whole of `path` matches, in time linear in its length.

        A state is (step, inside): `inside` marks a `**/` that has read some
        characters, which it may leave only after a slash."""
        states = self._closure({(0, False)})
        for char in path:
            following = set()
            for index, _ in states:
                if index == len(self.steps) or not self.steps[index].accepts(char):
                    continue
                kind = self.steps[index].kind
                if kind == _FOLDERS:
                    following.add((index, True))
                    if char == "/":
                        following.add((index + 1, False))
                elif kind in (_STAR, _GLOBSTAR):
                    following.add((index, False))  # a run goes on, and may end anywhere
                else:
                    following.add((index + 1, False))
            states = self._closure(following)
            if not states:
                return False
        return (len(self.steps), False) in states

    def _closure(self, states: set[tuple[int, bool]]) -> set[tuple[int, bool]]:
        """The states reachable without reading a character: a run not begun may be empty."""
        pending, found = list(states), set(states)
        while pending:
            index, inside = pending.pop()
            if inside or index == len(self.steps) or self.steps[index].kind not in (_STAR, _GLOBSTAR, _FOLDERS):
                continue
            if (index + 1, False) not in found:
                found.add((index + 1, False))
                pending.append((index + 1, False))
        return found


@lru_cache(maxsize=None)
def compile_pattern(pattern: str) -> Pattern:
    """A pattern over '/'-separated relative paths; `PatternError` says what is wrong with it."""
    directory_only = pattern.endswith("/") and not pattern.endswith("\\/")
    if directory_only:
        pattern = pattern.rstrip("/")
    anchored = "/" in pattern
    pattern = pattern.lstrip("/")
    steps = [] if anchored else [_Step(_FOLDERS)]
    i = 0
    while i < len(pattern):
        char = pattern[i]
        if char == "\\" and i + 1 < len(pattern):
            steps.append(_Step(_CHAR, char=pattern[i + 1]))
            i += 2
        elif pattern.startswith("**/", i):
            steps.append(_Step(_FOLDERS))
            i += 3
        elif pattern.startswith("**", i):
            steps.append(_Step(_GLOBSTAR))
            i += 2
        elif char == "*":
            if not (steps and steps[-1].kind == _STAR):  # `**` inside a name is `*`
                steps.append(_Step(_STAR))
            i += 1
        elif char == "?":
            steps.append(_Step(_ANY))
            i += 1
        elif char == "[":
            step, i = _class(pattern, i)
            steps.append(step)
        else:
            steps.append(_Step(_CHAR, char=char))
            i += 1
    return Pattern(tuple(steps), directory_only)


def _class(pattern: str, start: int) -> tuple[_Step, int]:
    """The `[...]` at `start`: its step and where the pattern goes on. A `]`
    first in the body is a member, as in git; `!` or `^` first negates."""
    i = start + 1
    negated = pattern[i : i + 1] in ("!", "^")
    i += negated
    ranges, first = [], True
    while i < len(pattern) and (pattern[i] != "]" or first):
        if pattern[i] == "\\" and i + 1 < len(pattern):
            i += 1
        low = pattern[i]
        if pattern[i + 1 : i + 2] == "-" and i + 2 < len(pattern) and pattern[i + 2] != "]":
            high = pattern[i + 2]
            if high < low:
                raise PatternError(f"the range {low}-{high} in {pattern!r} runs backwards")
            ranges.append((low, high))
            i += 3
        else:
            ranges.append((low, low))
            i += 1
        first = False
    if i >= len(pattern):
        raise PatternError(f"the `[` at position {start + 1} of {pattern!r} is never closed")
    return _Step(_CLASS, ranges=tuple(ranges), negated=negated), i + 1


def _matches(pattern: str, relative_path: str, is_dir: bool) -> bool:
    compiled = compile_pattern(pattern)
    if compiled.directory_only and not is_dir:
        return False
    return compiled.fullmatch(relative_path)


def _last_match(patterns, relative_path: str, is_dir: bool) -> bool:
    excluded = False
    for pattern in patterns:
        negated = pattern.startswith("!")
        if _matches(pattern[1:] if negated else pattern, relative_path, is_dir):
            excluded = not negated
    return excluded


def matches_any(patterns, relative_path: str, is_dir: bool = False) -> bool:
    """Whether `relative_path` is matched, as git decides what it ignores.

    The last matching pattern wins, and nothing below a matched folder can be
    re-included.
    """
    parts = relative_path.split("/")
    for end in range(1, len(parts)):
        if _last_match(patterns, "/".join(parts[:end]), True):
            return True
    return _last_match(patterns, relative_path, is_dir)
