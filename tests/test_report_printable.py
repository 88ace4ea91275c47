"""`printable`: what the text formats and stderr notes print of a name or a launch line."""

from __future__ import annotations

import pytest

from replaylint.report.printable import controls_escaped, printable, printable_path


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("serve.sh", "serve.sh"),
        ("caf\u00e9 \u4e16\u754c.sh", "caf\u00e9 \u4e16\u754c.sh"),  # letters of any script stay
        ('--config "$DIR"/x.yaml \\', '--config "$DIR"/x.yaml \\'),  # a backslash stays
        ("a\n::stop-commands::x\n.sh", "a\\n::stop-commands::x\\n.sh"),
        ("\x1b[2J\r\t", "\\x1b[2J\\r\\t"),
        ("admin\u202e\u2066hs.exe", "admin\\u202e\\u2066hs.exe"),  # bidi controls
        ("a\u2028b\u00a0c", "a\\u2028b\\xa0c"),  # a line separator, a no-break space
        ("caf\udce9.sh", "caf\\xe9.sh"),  # an undecodable byte, kept by surrogateescape
        ("\U000e0041", "\\U000e0041"),  # a tag character
        ("##vso[task.setvariable variable=X]y", "#\\x23vso[task.setvariable variable=X]y"),
        ("x ##[add-mask]y ##VSO[z]", "x #\\x23[add-mask]y #\\x23VSO[z]"),
        ("# comment ## heading [1]", "# comment ## heading [1]"),
    ],
)
def test_printable(text: str, shown: str) -> None:
    assert printable(text) == shown


def test_a_relative_name_that_reads_as_a_runner_command_gets_a_leading_dot() -> None:
    assert printable_path("::error::x.sh") == "./::error::x.sh"
    assert printable_path("  ::warning::x") == "./  ::warning::x"
    assert printable_path("a::b.sh") == "a::b.sh" and printable_path("/abs/::x") == "/abs/::x"


def test_controls_escaped_leaves_what_the_ci_format_escapes_itself() -> None:
    assert controls_escaped("a\r\n\x1bb", keep="\r\n") == "a\r\n\\x1bb"
    assert controls_escaped("##vso[x]") == "##vso[x]"
