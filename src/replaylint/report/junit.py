"""`--output-format junit`: JUnit XML, as ruff writes it, for CI test-report views.

One testsuite `replaylint`; one failing testcase per finding (`classname` = the file,
`name` = `org.replaylint.CODE`); a single passing testcase when there is nothing to report.
The failure's text says where as `concise` does (`path:7:3:`; in a notebook `path:cell 4:6:19:`,
as ruff writes it); the `line` attribute stays the file's (a viewer opens the file there).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from ..model import Finding
from .notebook_cells import line_and_column
from .run import Run, shown_path

# Characters XML 1.0 cannot carry at all, escaped or not (C0 controls but tab/LF/CR, lone
# surrogates from undecodable bytes, U+FFFE/U+FFFF).
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _xml_text(text: str) -> str:
    return _NOT_XML.sub("\ufffd", text)


def _testcase(finding: Finding, root: str, text: str | None) -> ET.Element:
    span = finding.span
    path = shown_path(span.path, root)
    testcase = ET.Element(
        "testcase", name=f"org.replaylint.{finding.code}", classname=_xml_text(path), file=_xml_text(path), line=str(span.start_line)
    )
    failure = ET.SubElement(testcase, "failure", message=_xml_text(finding.message), type=finding.severity)
    failure.text = _xml_text(f"{path}:{line_and_column(span, text)}: {finding.code} {finding.message}")
    return testcase


def _passed(run: Run) -> ET.Element:
    testcase = ET.Element("testcase", name="No problems found", classname="replaylint")
    ET.SubElement(testcase, "system-out").text = f"{run.files_checked} file{'' if run.files_checked == 1 else 's'} checked"
    return testcase


def render(run: Run) -> str:
    cases = [_testcase(finding, run.root, run.texts.get(finding.span.path)) for finding in run.findings] or [_passed(run)]
    counts = {"tests": str(len(cases)), "failures": str(len(run.findings)), "errors": "0", "skipped": "0"}
    suites = ET.Element("testsuites", name="replaylint", **counts)
    suite = ET.SubElement(suites, "testsuite", name="replaylint", **counts)
    suite.extend(cases)
    ET.indent(suites)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(suites, encoding="unicode") + "\n"
