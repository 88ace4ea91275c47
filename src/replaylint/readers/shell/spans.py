"""Spans in the file a shell script is written in (`Place` maps script offsets to it), and the
text to delete to remove a statement or a word without breaking the lines around it."""

from __future__ import annotations

import re

from ...model import Span
from ...records import record
from ...source import SourceFile


@record(unsafe_hash=True)
class ScriptSpans:
    source: SourceFile

    def span(self, start: int, end: int) -> Span:
        return self.source.index.span(start, end)

    def statement_removal(self, start: int, end: int) -> Span:
        """The text to delete to remove a statement: its whole line(s) when it is alone there."""
        text = self.source.text
        line_start = text.rfind("\n", 0, start) + 1
        line_end = text.find("\n", end)
        line_end = len(text) if line_end == -1 else line_end
        before, after = text[line_start:start], text[end:line_end]
        if not before.strip() and (not after.strip() or after.strip().startswith("#")) and not after.rstrip().endswith("\\"):
            return self.span(line_start, min(len(text), line_end + 1))
        following = re.match(r"\s*(;|&&)?[ \t]*", text[end:line_end])
        if following and following.group(1):
            return self.span(start, end + following.end())
        return self.word_removal(start, end)

    def word_removal(self, start: int, end: int) -> Span:
        """A word (or words) and the blank that separates it from the next one."""
        text = self.source.text
        line_start = text.rfind("\n", 0, start) + 1
        line_end = text.find("\n", end)
        if (
            line_end != -1
            and not text[line_start:start].strip()
            and text[end:line_end].strip() == "\\"
            and line_start > 0
            and text[line_start - 2 : line_start] == "\\\n"
        ):
            return self.span(line_start, line_end + 1)  # alone on a continued line: drop the line
        following = re.match(r"[ \t]+|[ \t]*\\\n[ \t]*", text[end:])
        if following and end + following.end() < len(text) and text[end + following.end()] not in "\n;&|)":
            return self.span(start, end + following.end())
        preceding = re.search(r"[ \t]+$", text[:start])
        if preceding:
            return self.span(preceding.start(), end)
        return self.span(start, end)
