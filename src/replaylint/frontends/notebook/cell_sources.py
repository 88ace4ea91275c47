"""A notebook's cells as the file holds them: each cell's source decoded from its JSON string(s),
with the file offset of every character, so launches found in the code point into the file and
fixes are written into the JSON strings (escaped as JSON, a list of lines kept a list of lines).

Read with the standard library's `json` (nbformat's format is plain JSON: `cells`, each with a
`cell_type` and a `source` that is a string or a list of strings) and `json_document` for the
places of the `source` strings. Cells are numbered from 1 among all cells, markdown ones too,
as Jupyter shows them and ruff reports them (`nb.ipynb:cell 2:1:8`).
"""

from __future__ import annotations

import bisect
import functools
import json
import re

from ...json_document import JsonError, placed, values
from ...records import record
from ...source import NotAnalysed, ParseError, SourceFile

__all__ = ["Cell", "Notebook", "json_escaper", "read_notebook"]

# Inside a JSON string: a run of plain characters, a surrogate pair, or one escape.
_PIECE = re.compile(r'[^"\\]+|\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}|\\u[0-9a-fA-F]{4}|\\.')
_ESCAPE = re.compile(r"\\(?:u[0-9a-fA-F]{4}|.)")
_SIMPLE = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}


@record(unsafe_hash=True)
class Cell:
    """One cell: its number (1-based, all cells counted), type, decoded source, and `starts[i]`,
    the file offset of source character i (`starts[len(code)]`: the end of the last string).
    `listed`: the source is a list of strings; `separator`: what stands between two of its items
    in the file (`,\n    `, or `, ` in a list on one line)."""

    number: int
    cell_type: str
    code: str
    starts: tuple[int, ...]
    listed: bool
    separator: str

    def to_file(self, offset: int) -> int:
        return self.starts[max(0, min(offset, len(self.code)))]

    def from_file(self, offset: int) -> int:
        """The source offset of file offset `offset` (the character whose encoding holds it)."""
        return max(0, bisect.bisect_right(self.starts, offset) - 1)

    def position(self, file_offset: int) -> tuple[int, int]:
        """1-based (line, column) in the cell of a file offset."""
        offset = self.from_file(file_offset)
        line_start = max(self.code.rfind("\n", 0, offset), self.code.rfind("\r", 0, offset)) + 1
        return self.code.count("\n", 0, offset) + 1, offset - line_start + 1

    @property
    def file_start(self) -> int:
        return self.starts[0]

    @property
    def file_end(self) -> int:
        return self.starts[-1]


@record(unsafe_hash=True)
class Notebook:
    cells: tuple[Cell, ...]
    language: str  # the kernel's language, lower case ("python" when the notebook does not say)

    def cell_at(self, file_offset: int) -> Cell | None:
        """The cell whose source holds `file_offset` (its end included)."""
        for cell in self.cells:
            if cell.file_start <= file_offset <= cell.file_end:
                return cell
        return None


def read_notebook(source: SourceFile) -> Notebook:
    """The cells of a notebook file; `ParseError` when it is not JSON or not a notebook."""
    try:
        data = values(source.text)
    except JsonError as error:
        raise ParseError(f"notebook is not valid JSON: {error}") from None
    if isinstance(data, dict) and "worksheets" in data:
        raise NotAnalysed("it is an nbformat 3 notebook (cells under `worksheets`), which replaylint does not read")
    if not isinstance(data, dict) or not isinstance(data.get("cells"), list):
        raise ParseError("not a Jupyter notebook (nbformat 4): it has no `cells` list")
    wanted = {("cells", index, "source") for index, cell in enumerate(data["cells"]) if isinstance(cell, dict) and "source" in cell}
    document = placed(source, None, wanted)
    cells = []
    for index, cell in enumerate(data["cells"]):
        if not isinstance(cell, dict) or ("cells", index, "source") not in document.entries:
            continue
        read = _cell(source.text, document.entries, index, cell)
        if read is not None:
            cells.append(read)
    return Notebook(tuple(cells), _language(data.get("metadata")))


def _language(metadata: object) -> str:
    if not isinstance(metadata, dict):
        return "python"
    for key, field in (("kernelspec", "language"), ("language_info", "name")):
        section = metadata.get(key)
        if isinstance(section, dict) and isinstance(section.get(field), str):
            return section[field].lower()
    return "python"


def _cell(text: str, entries: dict, index: int, cell: dict) -> Cell | None:
    entry = entries[("cells", index, "source")]
    cell_type = cell.get("cell_type") if isinstance(cell.get("cell_type"), str) else ""
    if text[entry.value_start] == '"':
        code, starts = _decoded(text, entry.value_start, entry.value_end)
        return Cell(index + 1, cell_type, code, tuple(starts), False, "")
    if not isinstance(cell.get("source"), list) or not all(isinstance(item, str) for item in cell["source"]):
        return None
    parts: list[str] = []
    offsets: list[int] = []
    item = 0
    while ("cells", index, "source", item) in entries:
        member = entries[("cells", index, "source", item)]
        code, starts = _decoded(text, member.value_start, member.value_end)
        parts.append(code)
        offsets.extend(starts[:-1])
        item += 1
    end = entries[("cells", index, "source", item - 1)].value_end - 1 if item else entry.value_start + 1
    return Cell(index + 1, cell_type, "".join(parts), (*offsets, end), True, _separator(text, entries, index))


def _separator(text: str, entries: dict, index: int) -> str:
    """The file's own text between two items of a cell's source list: between its first two,
    or else the line break and indent before its first item (`, ` when it shares its line)."""
    first, second = entries.get(("cells", index, "source", 0)), entries.get(("cells", index, "source", 1))
    if first is not None and second is not None:
        return text[first.value_end : second.value_start]
    if first is None:
        return ",\n"
    indent = text[text.rfind("\n", 0, first.value_start) + 1 : first.value_start]
    return f",\n{indent}" if not indent.strip() else ", "


def _decoded(text: str, start: int, end: int) -> tuple[str, list[int]]:
    """A JSON string literal's text, and the file offset of each of its characters (and of its
    closing quote)."""
    chars: list[str] = []
    starts: list[int] = []
    for piece in _PIECE.finditer(text, start + 1, end - 1):
        token = piece.group()
        if token[0] != "\\":
            chars.append(token)
            starts.extend(range(piece.start(), piece.end()))
            continue
        decoded = _SIMPLE.get(token[1]) if len(token) == 2 else json.loads(f'"{token}"')
        chars.append(decoded or "")
        starts.extend([piece.start()] * len(decoded or ""))
    starts.append(end - 1)
    return "".join(chars), starts


def json_escaper(cell: Cell):
    """How text written into the cell's source is escaped: as JSON, and in a list of lines each
    line break ends its item (`"a\\n",` then a new item, as the file separates its items)."""

    def escape(written: str) -> str:
        escaped = json.dumps(written, ensure_ascii=False)[1:-1]
        if not cell.listed:
            return escaped
        return _ESCAPE.sub(lambda match: f'\\n"{cell.separator}"' if match.group() == "\\n" else match.group(), escaped)

    return escape


@functools.lru_cache(maxsize=8)
def notebook_of(path: str, text: str) -> Notebook | None:
    """The cells of a notebook's text for a report (None when it does not read as one)."""
    try:
        return read_notebook(SourceFile(path, text))
    except ParseError:
        return None
