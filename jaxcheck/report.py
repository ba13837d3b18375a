"""Reporters: findings to text (flake8's format) or JSON (SPEC 4)."""

from __future__ import annotations

import json
from typing import Iterable, TextIO

from jaxcheck.findings import Finding


def write_text(findings: Iterable[Finding], out: TextIO) -> None:
    for finding in findings:
        out.write(f"{finding.path}:{finding.line}:{finding.column}: {finding.code} {finding.message}\n")


def write_json(findings: Iterable[Finding], out: TextIO) -> None:
    records = [
        {
            "path": finding.path,
            "line": finding.line,
            "column": finding.column,
            "code": finding.code,
            "message": finding.message,
        }
        for finding in findings
    ]
    json.dump(records, out, indent=2)
    out.write("\n")


REPORTERS = {"text": write_text, "json": write_json}
