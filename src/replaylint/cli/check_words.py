"""`replaylint check`'s options as data, and a reader for the plain command lines without argparse.

`check_options` makes the argparse parser from `OPTIONS`. `read_plain` reads the command lines a
pre-commit hook or an editor runs (paths and options spelled in full) to the namespace that parser
would give: importing argparse and building the parser cost a run that the prefilter settles a
sixth of its time. Any other word (an abbreviation, `--help`, a bad choice, a value that looks like
an option, paths on both sides of an option) makes it answer None, and the parser decides.
"""

from __future__ import annotations

from types import SimpleNamespace

from ..report import FORMATS

# `--OPTION` and ruff's `--no-OPTION`, which undoes it, hidden from the help (the last one given wins).
SWITCH = "switch"

# (the help group, or None for none; option strings; argparse's keyword arguments, or SWITCH's)
OPTIONS: tuple[tuple[str | None, tuple[str, ...], dict], ...] = (
    (None, ("paths",), dict(nargs="*", default=[], metavar="PATH", help="files or folders; - reads stdin")),
    (
        None,
        ("--hook",),  # taken apart before parsing (`cli._as_hook_runs_it`): one word, never `--hook fix`
        dict(
            action="store_true",
            help="pre-commit's entry, `--hook` or `--hook=fix` right after `check` (implies --force-exclude): "
            "every later word that names a file is a path, never an option",
        ),
    ),
    (
        "report",
        ("--output-format",),
        dict(choices=FORMATS, default=None, help="how findings are printed (default: full) [env: REPLAYLINT_OUTPUT_FORMAT]"),
    ),
    ("report", ("-o", "--output-file"), dict(metavar="FILE", help="write the report to FILE [env: REPLAYLINT_OUTPUT_FILE]")),
    ("report", ("--statistics",), dict(action="store_true", help="count findings per rule")),
    ("report", ("--show-files",), dict(action="store_true", help="list the files that would be checked, and stop")),
    ("report", ("-v", "--verbose"), dict(action="store_true", help="say which configuration, files and time the run took (stderr)")),
    ("report", ("-q", "--quiet"), dict(action="store_true", help="print findings but no summary or notes")),
    ("report", ("-s", "--silent"), dict(action="store_true", help="print nothing; the exit status tells the outcome")),
    (
        "report",
        ("--color",),
        dict(
            choices=("auto", "always", "never"),
            default="auto",
            help="colour the text report (auto: on a terminal, FORCE_COLOR or NO_COLOR decide)",
        ),
    ),
    ("report", ("-e", "--exit-zero"), dict(action="store_true", help="exit 0 even when there are findings")),
    ("report", ("--exit-non-zero-on-fix",), dict(action="store_true", help="exit 1 when --fix changed a file, even if nothing remains")),
    ("rules", ("--target-vllm",), dict(metavar="X.Y[.Z]", help="judge every launch against this vLLM release")),
    (
        "rules",
        ("--select",),
        dict(metavar="CODES", help="comma-separated codes, prefixes or rule names to check (replaces the configuration's)"),
    ),
    ("rules", ("--extend-select",), dict(metavar="CODES", help="codes, prefixes or rule names checked in addition")),
    ("rules", ("--ignore",), dict(metavar="CODES", help="codes, prefixes or rule names not checked")),
    ("rules", ("--extend-ignore",), dict(metavar="CODES", help="the same as --ignore (ruff's older spelling)")),
    (
        "rules",
        ("--per-file-ignores",),
        dict(action="append", metavar="GLOB:CODES", help="codes not checked in files matching GLOB (repeatable)"),
    ),
    (
        "rules",
        ("--extend-per-file-ignores",),
        dict(action="append", metavar="G:CODES", help="GLOB:CODES added to the configuration's (repeatable)"),
    ),
    ("rules", ("--ignore-noqa",), dict(action="store_true", help="ignore every suppression comment (`# noqa`, `# replaylint: ...`)")),
    ("fixes", ("--fix",), dict(action=SWITCH, help="apply safe fixes")),
    ("fixes", ("--unsafe-fixes",), dict(action=SWITCH, help="also apply (and count) unsafe fixes")),
    ("fixes", ("--fix-only",), dict(action=SWITCH, help="apply fixes, and neither report nor fail on the findings left (implies --fix)")),
    ("fixes", ("--diff",), dict(action="store_true", help="print the fixes as a unified diff and write nothing")),
    ("fixes", ("--show-fixes",), dict(action=SWITCH, help="list the fixes that were applied")),
    *(
        ("fixes", (f"--{option}",), dict(metavar="CODES", help=f"codes, prefixes or rule names: the configuration's `{option}`"))
        for option in ("fixable", "unfixable", "extend-fixable")
    ),
    ("fixes", ("--add-noqa",), dict(action="store_true", help="add a suppression comment for every finding, and write nothing else")),
    (
        "files and configuration",
        ("--config",),
        dict(
            action="append", metavar="FILE | KEY=VALUE", help="a configuration file, or a TOML `key = value` that overrides it (repeatable)"
        ),
    ),
    ("files and configuration", ("--isolated",), dict(action="store_true", help="ignore every configuration file")),
    ("files and configuration", ("--stdin-filename",), dict(metavar="PATH", help="the name of the file read from stdin")),
    ("files and configuration", ("--force-exclude",), dict(action="store_true", help="apply excludes to files given explicitly")),
    ("files and configuration", ("--exclude",), dict(metavar="PATTERNS", help="comma-separated globs that replace the default excludes")),
    ("files and configuration", ("--extend-exclude",), dict(metavar="PATTERNS", help="comma-separated globs excluded in addition")),
    ("files and configuration", ("--no-respect-gitignore",), dict(action="store_true", help="check files that .gitignore excludes too")),
    (
        "files and configuration",
        ("-w", "--watch"),
        dict(action="store_true", help="check again whenever a file changes (needs `replaylint[watch]`)"),
    ),
    (
        "running",
        ("-n", "--no-cache"),
        dict(action="store_true", help="neither read nor write the result cache [env: REPLAYLINT_NO_CACHE]"),
    ),
    (
        "running",
        ("--cache-dir",),
        dict(metavar="DIR", help="where the result cache lives (default .replaylint_cache) [env: REPLAYLINT_CACHE_DIR]"),
    ),
    ("running", ("--workers",), dict(type=int, default=None, metavar="N", help="worker processes (default: by file count)")),
)


def _dest(flags: tuple[str, ...], settings: dict) -> str:
    """argparse's: the first long option string without its dashes, `-` made `_`."""
    long = next((flag for flag in flags if flag.startswith("--")), flags[0])
    return settings.get("dest") or long.lstrip("-").replace("-", "_")


def _readings() -> tuple[dict[str, object], dict[str, tuple[str, str, dict]]]:
    """Each destination's default, and each option string's (destination, action, settings)."""
    defaults: dict[str, object] = {}
    by_flag: dict[str, tuple[str, str, dict]] = {}
    for _, flags, settings in OPTIONS:
        dest, action = _dest(flags, settings), settings.get("action", "store")
        if flags == ("paths",):
            defaults["paths"] = list(settings["default"])
            continue
        defaults[dest] = False if action in ("store_true", SWITCH) else settings.get("default")
        for flag in flags:
            by_flag[flag] = (dest, action, settings)
        if action == SWITCH:
            by_flag[f"--no-{flags[0][2:]}"] = (dest, "store_false", settings)
    return defaults, by_flag


def takes_value() -> set[str]:
    """The option strings that take a value (the word after them is not a path)."""
    return {flag for flag, (_, action, _) in _readings()[1].items() if action in ("store", "append")}


def read_plain(words: list[str]) -> SimpleNamespace | None:
    """What `check_options.check_parser().parse_known_args(words)` gives for a plain command line
    (every option spelled in full, its value in the next word or after `=`, the paths together);
    None for any other, which the parser reads."""
    values, by_flag = _readings()
    paths: list[str] | None = None
    index = 0
    while index < len(words):
        word = words[index]
        index += 1
        if not word.startswith("-"):
            if paths is not None:
                return None  # paths on both sides of an option: argparse takes only the first run
            paths = [word]
            while index < len(words) and not words[index].startswith("-"):
                paths.append(words[index])
                index += 1
            continue
        flag, equals, value = word.partition("=")
        reading = by_flag.get(flag if flag.startswith("--") or not equals else word)
        if reading is None:
            return None
        dest, action, settings = reading
        if action in ("store_true", "store_false", SWITCH):
            if equals:
                return None
            values[dest] = action != "store_false"
            continue
        if not equals:
            if index == len(words) or words[index].startswith("-"):
                return None
            value, index = words[index], index + 1
        value = _value(value, settings)
        if value is None:
            return None
        if action == "append":
            values[dest] = [*(values[dest] or []), value]  # type: ignore[misc]
        else:
            values[dest] = value
    if paths is not None:
        values["paths"] = paths
    return SimpleNamespace(**values)


def _value(word: str, settings: dict) -> object | None:
    """An option's value as argparse converts and checks it; None when argparse would refuse it."""
    if "choices" in settings and word not in settings["choices"]:
        return None
    if settings.get("type") is int:
        try:
            return int(word)
        except ValueError:
            return None
    return word
