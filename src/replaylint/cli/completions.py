"""The elvish completion script, written from the command line's parser (shtab, which writes the
bash, zsh, tcsh, fish and PowerShell ones, has no elvish).

The script completes a subcommand after `replaylint`, then that subcommand's options, the
choices of an option that takes one (`--output-format <TAB>`), and file names otherwise.
"""

from __future__ import annotations

import argparse


def elvish(parser: argparse.ArgumentParser) -> str:
    commands = _subcommands(parser)
    options = {"": _options(parser), **{name: _options(sub) for name, sub in commands.items()}}
    choices = {
        f"{name} {option}": [str(choice) for choice in action.choices]
        for name, sub in commands.items()
        for action in sub._actions
        if action.option_strings and action.choices
        for option in action.option_strings
    }
    lines = [
        "# replaylint completion for elvish: `replaylint generate-shell-completion elvish > ~/.config/elvish/lib/replaylint.elv`,",
        "# then `use replaylint` in rc.elv.",
        "use str",
        f"var commands = {_list(commands)}",
        f"var options = {_map(options)}",
        f"var choices = {_map(choices)}",
        "set edit:completion:arg-completer[replaylint] = {|@words|",
        "    var command = ''",
        "    for word $words[1..-1] {",
        "        if (and (eq $command '') (has-value $commands $word)) { set command = $word }",
        "    }",
        "    var current = $words[-1]",
        "    var previous = ''",
        "    if (> (count $words) 2) { set previous = $words[-2] }",
        "    var key = $command' '$previous",
        "    if (has-key $choices $key) {",
        "        all $choices[$key]",
        "    } elif (str:has-prefix $current -) {",
        "        all $options[$command]",
        "    } elif (eq $command '') {",
        "        all $commands",
        "    } else {",
        "        edit:complete-filename $current",
        "    }",
        "}",
    ]
    return "\n".join(lines)


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _options(parser: argparse.ArgumentParser) -> list[str]:
    return [option for action in parser._actions if action.help != argparse.SUPPRESS for option in action.option_strings]


def _word(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _list(items) -> str:
    return "[" + " ".join(_word(item) for item in items) + "]"


def _map(table: dict[str, list[str]]) -> str:
    return "[" + " ".join(f"&{_word(key)}={_list(values)}" for key, values in table.items()) + "]"
