"""Reading a wrapper's options (`srun -p X --gres=gpu:8 ...`, `timeout --signal=INT 60 ...`): where its
command starts, or None when its options cannot be told apart from the command.
"""

from __future__ import annotations

from .values import Chunk, Field
from .wrappers import Wrapper


def option_name(text: str) -> str:
    return text.split("=", 1)[0] if text.startswith("--") else text


def skip_options(words: list[Field], position: int, wrapper: Wrapper) -> int | None:
    """Index of the first word after the wrapper's options and operands; None when unsure."""
    if wrapper.subcommand:
        if position >= len(words) or words[position].text != wrapper.subcommand:
            return None
        position += 1
    while position < len(words):
        text = words[position].text if words[position].text is not None else _inline_head(words[position])
        if text is None:
            return None
        if text == "--":
            position += 1
            break
        if not text.startswith("-") or text == "-":
            break
        name = option_name(text)
        if name in wrapper.stop:
            return None
        if name in wrapper.values:
            position += 1 if "=" in text else 2
            continue
        if name in wrapper.flags or wrapper.lenient or (wrapper.digits_are_flags and text[1:].isdigit()):
            position += 1
            continue
        if wrapper.site_options and text.startswith("--") and "=" in text:
            position += 1  # `--quotatype=reserved`: an option the site added, its value in the same word
            continue
        if any(len(value) == 2 and text.startswith(value) for value in wrapper.values):
            position += 1  # `-oL`, `-N0`: the value is attached
            continue
        return None
    position += wrapper.operands
    return position if position < len(words) else None


def _inline_head(word: Field) -> str | None:
    """`--job-name=$JOB`: one word whose value is not known; its literal `--name=` head (None for
    anything else, such as `$OPTS` or `--$NAME=x`)."""
    head = word.chunks[0] if word.chunks and not word.spread else None
    if not isinstance(head, Chunk) or not head.text.startswith("--") or "=" not in head.text:
        return None
    return head.text
