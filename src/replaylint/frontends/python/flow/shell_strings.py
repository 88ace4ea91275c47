"""A command string a shell runs (`subprocess.Popen(cmd, shell=True)`) that the program puts
together from pieces (f-strings, `+`, across functions and modules: NeMo-Skills'
`get_server_command(..., server_args=f"{REPLAY_ARGS} --max-model-len 8192")`), split into
commands and words as the shell splits it, each word placed where its first character is
decided. Only what the splitting follows is read: spaces, quotes, `&&`, `||`, `;`, `|`, `&` and
redirections; a string with an expansion, a substitution, an escape or a glob is left to the
libcst pass, but for a `~` that starts a word (`source ~/.bashrc && vllm serve ...`), which the
shell expands to one word, not known. A piece not known is an expansion: unquoted, it may be any number of words, unless it
is certainly a number (`int(time.time())`, `base_port + i`: `facts.Val.one_word`). A word
that is one `json.dumps(DICT)` piece (quotes aside) keeps where each of the dict's keys is written."""

from __future__ import annotations

import re
from dataclasses import field

from ....model import Setting, Span
from ....records import record
from .facts import Val

_MAX_TEXT = 4096  # characters of a command read
_SEPARATORS = ";&|\n"
_UNREAD = set("$`\\*?[]{}()#~!")  # what the shell would expand, substitute or escape
_ALSO_UNREAD_QUOTED = set("$`\\")
_CONFIG_FILES = (".yaml", ".yml", ".json", ".toml")


@record(unsafe_hash=True)
class Piece:
    """Text decided at one place (`text` None: not known here), and where a literal that spells it
    character for character starts in its file (`offset`), to place a word inside it."""

    text: str | None
    span: Span | None
    assumptions: tuple[tuple[str, Span], ...] = ()
    offset: int | None = None
    keys: tuple[tuple[str, Setting], ...] = ()  # `json.dumps(DEFAULTS)`: where each of its keys is written
    one_word: bool = False  # not known, but certainly a number (`int(time.time())`): no spaces to split at


@record
class Word:
    text: str | None  # None: not known
    span: Span | None  # the piece its first character is in
    spread: bool = False  # an unquoted piece not known: any number of words
    assumptions: list[tuple[str, Span]] = field(default_factory=list)
    exact: tuple[str, int, int] | None = None  # (path, start, end) of a word spelt whole in one literal
    head: str = ""  # a word not known: its text before the first piece not known (`CUDA_VISIBLE_DEVICES=`)
    keys: dict[str, Setting] = field(default_factory=dict)  # a word that is one `json.dumps(...)` piece, quotes aside


def pieces(read: Val, texts: dict[str, str], limit: int = _MAX_TEXT) -> list[Piece] | None:
    """The pieces of a text the reader put together, in order (`texts`: the modules' texts by
    path, to place a literal's characters); None when it is not a text or too long."""
    found: list[Piece] = []
    pending = [read]
    size = 0
    while pending:
        item = pending.pop()
        if item.parts:
            pending.extend(reversed(item.parts))
            continue
        if item.known and not isinstance(item.value, str):
            return None
        text = item.value if item.known else None
        if text is not None and item.assumptions and not text.strip() and not _in_config_file(item.span):
            # `os.environ.get("EXTRA_ARGS", "")`: the run's value may be any words; a config file's
            # blank value (`enforce-eager: ""` joined as `--{k} {v}`) is the flag's own
            text = None
        offset = _literal_offset(text, item.span, texts)
        found.append(Piece(text, item.span, item.assumptions, offset, tuple(item.keys.items()), item.one_word and text is None))
        size += len(text or "") + 1
        if size > limit:
            return None
    return found


def _in_config_file(span: Span | None) -> bool:
    return span is not None and span.path.endswith(_CONFIG_FILES)


def _literal_offset(text: str | None, span: Span | None, texts: dict[str, str]) -> int | None:
    """Where a string literal's characters start, when the literal spells `text` as it is (`"--x y"`,
    the piece of an f-string between its replacements)."""
    if text is None or span is None or span.path not in texts:
        return None
    written = texts[span.path][span.start : span.end]
    if written == text:  # a literal piece of an f-string
        return span.start
    if len(written) == len(text) + 2 and written[0] in "'\"" and written[-1] == written[0] and written[1:-1] == text:
        return span.start + 1
    return None


def commands(found: list[Piece], shell: bool = True) -> list[list[Word]] | None:
    """The commands of the pieces, each a list of words; None when the shell would do more than split.
    `shell` False: `shlex.split`'s words, for which a separator or a redirection is no word boundary
    (left unread)."""
    result: list[list[Word]] = [[]]
    word: Word | None = None
    quote = ""
    redirect = False
    previous = ""
    for piece in found:
        if piece.text is None:
            word = word or Word(None, piece.span)
            word.head = word.head if word.text is None else word.text
            word.text, word.spread, word.exact, word.keys = None, word.spread or not (quote or piece.one_word), None, {}
            word.assumptions.extend(piece.assumptions)
            previous = ""
            continue
        fresh = word is None or word.text == ""
        for index, char in enumerate(piece.text):
            at, previous = previous, char
            if quote and char == quote:
                quote = ""
            elif not quote and char in "'\"":
                quote = char
                word = word or Word("", piece.span, assumptions=list(piece.assumptions))
                word.exact = None
            elif quote == '"' and char in _ALSO_UNREAD_QUOTED:
                return None
            elif quote:
                word = _add(word, char, piece, index)
            elif char == "~" and word is None and shell:
                word = Word(None, piece.span, assumptions=list(piece.assumptions))  # `~/.bashrc`: one word, the home's path
            elif char in _UNREAD or (not shell and char in _SEPARATORS + "<>" and char != "\n"):
                return None
            elif char == "&" and at in "<>" and at:
                continue  # `2>&1`
            elif char in " \t" or char in _SEPARATORS or char in "<>":
                if word is not None and not (char in "<>" and (word.text or "").isdigit()):
                    redirect = _finish(result, word, redirect)
                word = None
                if char in "<>":
                    redirect = True
                elif char in _SEPARATORS and result[-1] and shell:
                    result.append([])
            else:
                word = _add(word, char, piece, index)
        if word is not None and fresh and piece.keys and word.text == piece.text:
            word.keys = dict(piece.keys)  # kept while no other character joins the word
    if quote:
        return None
    if word is not None:
        _finish(result, word, redirect)
    return [command for command in result if command]


def _add(word: Word | None, char: str, piece: Piece, index: int) -> Word:
    at = piece.offset + index if piece.offset is not None and piece.span is not None else None
    if word is None:
        exact = (piece.span.path, at, at + 1) if at is not None and piece.span is not None else None
        return Word(char, piece.span, assumptions=list(piece.assumptions), exact=exact)
    if word.text is not None:
        if word.text.strip("-") == "" and piece.span is not None and piece.span != word.span and index == 0:
            word.span = piece.span  # `--{key}`: the flag is placed where its name is decided (a config file's key)
        word.text += char
    word.keys = {}
    if word.exact is not None and at is not None and piece.span is not None and (piece.span.path, at) == word.exact[::2]:
        word.exact = (word.exact[0], word.exact[1], at + 1)
    else:
        word.exact = None
    word.assumptions.extend(a for a in piece.assumptions if a not in word.assumptions)
    return word


def _finish(result: list[list[Word]], word: Word, redirect: bool) -> bool:
    """Adds the word to the command (a redirection's target is no word of it); False: the next is one."""
    if not redirect:
        result[-1].append(word)
    return False


_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")


def assignments(command: list[Word]) -> tuple[dict[str, Word], list[Word]]:
    """The `NAME=value` words before a command's first word, which the shell puts in that command's
    environment (`CUDA_VISIBLE_DEVICES={gpu} VLLM_USE_V2_MODEL_RUNNER=0 python3 -u math_eval.py`), by name,
    and the words after them."""
    found: dict[str, Word] = {}
    for index, word in enumerate(command):
        written = _ASSIGNMENT.match(word.text if word.text is not None else word.head)
        if written is None:  # a value the program splices in after `NAME=` is taken as the variable's (a GPU id)
            return found, command[index:]
        found[written.group()[:-1]] = word
    return found, []
