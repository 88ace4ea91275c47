"""Backquoted comments: `` --port 8010 `# API server port` \\ `` notes a flag inside a command
that continues on the next line. Bash finds the closing backquote first, so the `#` comment ends
there and the substitution expands to nothing; tree-sitter-bash lets the comment run to the end
of the line and misreads every word after it. `hidden` rewrites each such substitution, byte for
byte in place, as `` `:   ` `` (a command that prints nothing, which tree-sitter reads), and the
expander, which reads the script's own text, drops a substitution written as `is_comment` says.
"""

from __future__ import annotations

from ...regexes import on_use

# An opening backquote (after a blank, a double quote or the start; not the closing backquote
# of `` `date`#x ``), `#`, and the closing backquote on the same line, no backslash between.
_COMMENT = on_use(rb"(?<![^\s\"])`#[^`\\\n]*`")
_WRITTEN = on_use(r"`#[^`\\\n]*`")


def hidden(data: bytes) -> bytes | None:
    """`data` with each backquoted comment replaced by a no-op of the same length; None when it
    holds none."""
    if b"`#" not in data:
        return None
    rewritten = _COMMENT.sub(lambda match: b"`:" + b" " * (len(match[0]) - 3) + b"`", data)
    return rewritten if rewritten != data else None


def is_comment(written: str) -> bool:
    """Whether a command substitution written so holds only a comment (it expands to nothing)."""
    return written.startswith("`#") and _WRITTEN.fullmatch(written) is not None
