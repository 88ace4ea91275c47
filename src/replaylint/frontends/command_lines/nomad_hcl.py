"""HashiCorp Nomad job specifications in HCL (`*.nomad.hcl`, `*.nomad`): each `task` becomes the
command line its driver runs, as the JSON form's reader (`frontends/yaml/nomad`) reads a job.

- A `docker` (or `podman`) task runs `config { image, entrypoint, command, args }` as Docker does:
  `entrypoint` (a list) replaces the image's entrypoint, `command` its `CMD`, and `args` follow. The
  `vllm/vllm-openai` image's entrypoint is `vllm serve`, which stands at the `image` value; another
  image without `entrypoint` is not read.
- An `exec` (or `raw_exec`) task runs `config { command, args }` as written.
- A word Nomad interpolates (`${NOMAD_PORT_http}`, `${var.x}`, `%{ if ... }`) or an item of the list
  that is an expression (`var.model`) is one word not known here; a value that is not a string or a
  list spelt out (`args = var.args`, a function call, a `for` expression) leaves the task unread.
- The task's `env` is its environment; a `template` with `env = true` (a rendered env file) can
  set any variable.

Only literal syntax is read (strings, lists, maps, blocks); anything else is skipped to its line's
end. Fixes are not written into HCL.
"""

from __future__ import annotations

import re
import shlex

from ...model import UNKNOWN, Setting, VersionHint
from ...readers.host_scripts import Expanded, Script
from ...source import SourceFile
from ...vllm.images import is_vllm_image, release_from_image

_CONTAINERS = ("docker", "podman")
_PROCESSES = ("exec", "raw_exec")
_TOKEN = re.compile(
    r"(?P<space>[ \t\r]+|\\\n)|(?P<newline>\n)|(?P<comment>(?:#|//)[^\n]*|/\*.*?(?:\*/|\Z))"
    r"|(?P<heredoc><<-?(?P<marker>\w+)[ \t]*\n)|(?P<string>\")|(?P<word>[A-Za-z_][\w-]*)|(?P<number>\d[\w.]*)|(?P<mark>.)",
    re.DOTALL,
)
_ENDS = ("newline", ",", "]", "}", ")")
_MAX_DEPTH = 32  # blocks and brackets nested deeper are skipped
_PLAIN = re.compile(r"[\w@%+=:,./-]+\Z")  # a word the shell reads as written


class Token:
    __slots__ = ("kind", "start", "end", "value")

    def __init__(self, kind: str, start: int, end: int, value: str | None = None) -> None:
        self.kind, self.start, self.end, self.value = kind, start, end, value


def _tokens(text: str) -> list[Token]:
    found: list[Token] = []
    position = 0
    while position < len(text):
        match = _TOKEN.match(text, position)
        assert match is not None  # `mark` takes any character
        kind = match.lastgroup or "mark"
        if kind == "heredoc":  # a text no word of which is read
            closing = re.compile(rf"^[ \t]*{re.escape(match['marker'])}[ \t]*$", re.MULTILINE).search(text, match.end())
            end = closing.end() if closing else len(text)
            found.append(Token("string", match.start(), end))
            position = end
            continue
        if kind == "string":
            end, value = _string(text, match.start())
            found.append(Token("string", match.start(), end, value))
            position = end
            continue
        if kind in ("word", "number", "newline"):
            found.append(Token(kind, match.start(), match.end(), match.group()))
        elif kind == "mark":
            found.append(Token(match.group(), match.start(), match.end()))
        position = match.end()
    return found


def _string(text: str, start: int) -> tuple[int, str | None]:
    """The end of the quoted string at `start`, and its value (None where Nomad fills it in)."""
    position, depth, pieces, known = start + 1, 0, [], True
    while position < len(text) and (depth or text[position] not in '"\n'):
        char = text[position]
        if char == "\\" and position + 1 < len(text):
            escaped = {"n": "\n", "t": "\t", '"': '"', "\\": "\\", "r": "\r"}.get(text[position + 1])
            known = known and escaped is not None
            pieces.append(escaped or "")
            position += 2
            continue
        if not depth and text.startswith(("$${", "%%{"), position):  # a literal `${`
            pieces.append(text[position + 1 : position + 3])
            position += 3
            continue
        if text.startswith(("${", "%{"), position):
            depth, known = depth + 1, False
            position += 2
            continue
        depth -= 1 if depth and char == "}" else 0
        pieces.append(char)
        position += 1
    return min(position + 1, len(text)), "".join(pieces) if known else None


class _Parser:
    """Blocks (`task "server" { ... }`) as (type, labels, items), attributes as (name, value); a
    value is a `Token` (a string), a list or a dict of values, or None (not literal)."""

    def __init__(self, tokens: list[Token]) -> None:
        self.tokens, self.at, self.depth = tokens, 0, 0

    def peek(self, ahead: int = 0) -> str:
        index = self.at + ahead
        return self.tokens[index].kind if index < len(self.tokens) else "end"

    def body(self) -> list[tuple]:
        items: list[tuple] = []
        while self.peek() not in ("end", "}"):
            if self.peek() != "word":
                self.at += 1
                continue
            name = self.tokens[self.at]
            self.at += 1
            if self.peek() in ("=", ":"):
                self.at += 1
                items.append(("attribute", name.value, self.value(), name))
                continue
            labels = []
            while self.peek() in ("string", "word"):
                labels.append(self.tokens[self.at].value)
                self.at += 1
            if self.peek() == "{" and self.depth < _MAX_DEPTH:
                self.at, self.depth = self.at + 1, self.depth + 1
                items.append(("block", name.value, labels, self.body()))
                self.at, self.depth = self.at + 1, self.depth - 1  # its `}`
        return items

    def value(self) -> object:
        kind = self.peek()
        found: object = None
        if kind in ("string", "word", "number"):  # `"--port"`, `true`, `8000`
            found = self.tokens[self.at]
            self.at += 1
        elif kind in ("[", "{") and self.depth < _MAX_DEPTH:
            self.at, self.depth = self.at + 1, self.depth + 1
            found = self._list() if kind == "[" else self._map()
            self.depth -= 1
        if self.peek() not in (*_ENDS, "end"):  # `"a" + b`, `x ? y : z`, `var.args`: not literal
            found = None
            self._skip()
        return found

    def _list(self) -> list | None:
        """A list spelt out; an item that is an expression (`var.model`) is one value not known
        here; a `for` expression's items are not known."""
        items: list | None = [] if self.peek() != "word" or self.tokens[self.at].value != "for" else None
        while self.peek() not in ("]", "end"):
            if self.peek() in ("newline", ","):
                self.at += 1
                continue
            before = self.at
            item = self.value()
            self.at += self.at == before  # a stray `}` or `)`
            if item is None:
                item = Token("expression", self.tokens[before].start, self.tokens[self.at - 1].end)
            items = None if items is None else [*items, item]
        self.at += 1
        return items

    def _map(self) -> dict | None:
        pairs: dict | None = {}
        while self.peek() not in ("}", "end"):
            if self.peek() in ("newline", ","):
                self.at += 1
                continue
            key = self.tokens[self.at]
            self.at += 1
            if key.kind not in ("word", "string") or self.peek() not in ("=", ":"):
                pairs = None
                self._skip()
                continue
            self.at += 1
            item = self.value()
            if pairs is not None:
                pairs[key.value] = (key, item)
        self.at += 1
        return pairs

    def _skip(self) -> None:
        depth = 0
        while self.peek() != "end" and (depth or self.peek() not in _ENDS):
            depth += {"[": 1, "{": 1, "(": 1, "]": -1, "}": -1, ")": -1}.get(self.peek(), 0)
            self.at += 1


def _blocks(items: list[tuple], kind: str) -> list[tuple]:
    """The blocks of `kind` at any depth (`job` > `group` > `task`)."""
    found = []
    for item in items:
        if item[0] == "block":
            found += [item] if item[1] == kind else _blocks(item[3], kind)
    return found


def _attributes(items: list[tuple]) -> dict[str, object]:
    return {item[1]: item[2] for item in items if item[0] == "attribute"}


def scripts(source: SourceFile) -> list[Script]:
    found = []
    for _, _, _, items in _blocks(_Parser(_tokens(source.text)).body(), "task"):
        script = _task(source, items)
        if script is not None:
            found.append(script)
    return found


def _task(source: SourceFile, items: list[tuple]) -> Script | None:
    driver = _attributes(items).get("driver")
    configs = [block[3] for block in items if block[0] == "block" and block[1] == "config"]
    if not isinstance(driver, Token) or driver.kind != "string" or len(configs) != 1:
        return None
    config = _attributes(configs[0])
    given = {key: config[key] for key in ("entrypoint", "command", "args") if key in config}
    if any(value is None for value in given.values()):
        return None  # `args = var.args`: words not known here
    command = given.get("command")
    words = [*_listed(given.get("entrypoint")), *([command] if command is not None else []), *_listed(given.get("args"))]
    if not all(isinstance(word, Token) and word.kind in ("string", "expression") for word in words):
        return None
    expanded, hint = Expanded(), None
    if driver.value in _CONTAINERS and "entrypoint" not in given:
        image = config.get("image")
        if not isinstance(image, Token) or image.value is None or not is_vllm_image(image.value):
            return None
        expanded.standing_for("vllm serve", image.start, image.end)  # the image's entrypoint
        release = release_from_image(image.value)
        hint = VersionHint((str(release),), f"image {image.value}", source.index.span(image.start, image.end)) if release else None
    elif driver.value not in (*_CONTAINERS, *_PROCESSES) or not words:
        return None
    for word in words:
        _add_word(expanded, source.text, word)  # type: ignore[arg-type]
    env, env_open = _environment(source, items)
    return Script(expanded, env, env_open=env_open, version_hint=hint)


def _listed(value: object) -> list:
    return [] if value is None else value if isinstance(value, list) else [None]


def _add_word(expanded: Expanded, text: str, word: Token) -> None:
    if expanded.parts:
        expanded.standing_for(" ", word.start, word.start)
    if word.value is None:
        expanded.unknown(word.start, word.end, one_word=True)
    elif _PLAIN.match(word.value) and text[word.start + 1 : word.end - 1] == word.value:
        expanded.exact(word.value, word.start + 1)  # each character where it is written
    else:
        expanded.standing_for(shlex.quote(word.value), word.start, word.end)


def _environment(source: SourceFile, items: list[tuple]) -> tuple[dict[str, Setting], bool]:
    """The task's `env` (a block or a map), and whether a `template` with `env = true` may add to it."""
    templates = [_attributes(block[3]) for block in items if block[0] == "block" and block[1] == "template"]
    rendered = any(not (isinstance(held, Token) and held.value == "false") for held in (t["env"] for t in templates if "env" in t))
    pairs: dict = {}
    for item in items:
        if item[0] == "block" and item[1] == "env":
            pairs.update({entry[1]: (entry[3], entry[2]) for entry in item[3] if entry[0] == "attribute"})
            rendered = rendered or any(entry[0] == "block" for entry in item[3])
        elif item[0] == "attribute" and item[1] == "env":
            if not isinstance(item[2], dict):
                return {}, True
            pairs.update(item[2])
    env = {}
    for name, (key, value) in pairs.items():
        known = isinstance(value, Token) and value.kind == "string" and value.value is not None
        shown = f"{name}={value.value if known else '<unknown>'}"  # type: ignore[union-attr]
        value_span = source.index.span(value.start + 1, value.end - 1) if known else None  # type: ignore[union-attr]
        env[name] = Setting(name, value.value if known else UNKNOWN, source.index.span(key.start, key.end), shown, value_span)  # type: ignore[union-attr]
    return env, rendered
