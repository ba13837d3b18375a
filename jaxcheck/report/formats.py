"""Reporters: findings to text (flake8's format), JSON (SPEC 4), SARIF 2.1.0
(GitHub code scanning and other CI dashboards) or GitHub workflow commands.

Every message ends with its rule's name, `[mutable-static]`, which
`jaxcheck rule` takes as well as the code.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path
from urllib.parse import quote
from typing import Iterable, TextIO

from jaxcheck import __version__
from jaxcheck.findings import Finding
from jaxcheck.rules import CODES

REPOSITORY = "https://github.com/jaxcheck/jaxcheck"
PAGE_URL = REPOSITORY + "/blob/main/rules/{code}.md"


def message_of(finding: Finding) -> str:
    """The message as shown: what is wrong, why, where, the fix, and the rule's name."""
    name = CODES.get(finding.code, ("",))[0]
    return f"{finding.message} [{name}]" if name else finding.message


def position_of(finding: Finding) -> str:
    """Where a finding is, as ruff spells it: `line:column`, or `cell 3:2:5` in a notebook."""
    where = f"{finding.line}:{finding.column}"
    return f"cell {finding.cell}:{where}" if finding.cell else where


def in_file(finding: Finding) -> tuple[int, int, str]:
    """Line, column and message for the formats that point at a line of the
    file. A notebook is JSON, none of whose lines is a cell's line: its
    findings point at the file's start and say the cell in the message, as ruff's do."""
    if not finding.cell:
        return finding.line, finding.column, message_of(finding)
    return 1, 1, f"{position_of(finding)}: {message_of(finding)}"


def write_text(findings: Iterable[Finding], out: TextIO) -> None:
    for finding in findings:
        out.write(f"{finding.path}:{position_of(finding)}: {finding.code} {message_of(finding)}\n")


def write_json(findings: Iterable[Finding], out: TextIO) -> None:
    records = [
        {
            "path": finding.path,
            "line": finding.line,
            "column": finding.column,
            "code": finding.code,
            "message": message_of(finding),
            **({"cell": finding.cell} if finding.cell else {}),
        }
        for finding in findings
    ]
    json.dump(records, out, indent=2)
    out.write("\n")


def write_github(findings: Iterable[Finding], out: TextIO) -> None:
    """GitHub Actions workflow commands: each finding becomes an annotation on its line."""
    for finding in findings:
        line, column, message = in_file(finding)
        properties = {
            "file": finding.path,
            "line": line,
            "col": column,
            "title": f"{finding.code} {CODES.get(finding.code, ('',))[0]}".strip(),
        }
        joined = ",".join(f"{key}={_escape(str(value), True)}" for key, value in properties.items())
        out.write(f"::error {joined}::{_escape(message, False)}\n")


def _escape(text: str, in_property: bool) -> str:
    """As the workflow-command parser unescapes it (actions/toolkit's `escapeData`/`escapeProperty`)."""
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return text.replace(":", "%3A").replace(",", "%2C") if in_property else text


def write_sarif(findings: Iterable[Finding], out: TextIO) -> None:
    """One SARIF 2.1.0 run: every rule with its page as help, and every finding."""
    from jaxcheck.report.pages import rule_page

    codes = list(CODES)
    rules = []
    for code, (name, summary) in CODES.items():
        page = rule_page(code) or summary
        rules.append(
            {
                "id": code,
                "name": "".join(part.capitalize() for part in name.split("-")),
                "shortDescription": {"text": summary},
                "fullDescription": {"text": summary},
                "helpUri": PAGE_URL.format(code=code),
                "help": {"text": page, "markdown": page},
                "defaultConfiguration": {"level": "error"},
                "properties": {"tags": ["jax", name]},
            }
        )
    results = [
        {
            "ruleId": finding.code,
            "ruleIndex": codes.index(finding.code) if finding.code in CODES else -1,
            "level": "error",
            "message": {"text": in_file(finding)[2]},
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": {"uri": _uri(finding.path)},
                        "region": {"startLine": in_file(finding)[0], "startColumn": in_file(finding)[1]},
                    }
                }
            ],
        }
        for finding in findings
    ]
    document = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "jaxcheck",
                        "version": __version__,
                        "semanticVersion": __version__,
                        "informationUri": REPOSITORY,
                        "rules": rules,
                    }
                },
                "results": results,
            }
        ],
    }
    json.dump(document, out, indent=2)
    out.write("\n")


def _uri(path: str) -> str:
    """A relative URI reference, as code scanning matches it to the repository's files."""
    if os.path.isabs(path):
        return Path(path).as_uri()
    path = path.replace("\\", "/")
    while path.startswith("./"):
        path = path[2:]
    return quote(path)


def write_statistics(findings: Iterable[Finding], out: TextIO) -> None:
    """flake8's `--statistics`: how many findings per code, with the rule's name."""
    counts = Counter(finding.code for finding in findings)
    for code in sorted(counts):
        out.write(f"{counts[code]:<5} {code} {CODES.get(code, ('',))[0]}\n")


REPORTERS = {"text": write_text, "json": write_json, "sarif": write_sarif, "github": write_github}
