"""Setting one key inside a JSON value as a launch writes it (`edits.set_json_key`): the fixes of
RPL002 (`enable_adaptive_verification`) and RPL306 (`rejection_sample_method`) inside
`--speculative-config '{...}'` words, YAML strings and exec-form words, where the JSON's quotes
may be escaped, single, or its key spelled with `-`."""

from __future__ import annotations

import pytest

from replaylint.edits import set_json_key


@pytest.mark.parametrize(
    ("raw", "key", "value", "expected"),
    [
        (
            '{"method": "ngram", "enable_adaptive_verification": true}',
            "enable_adaptive_verification",
            False,
            '{"method": "ngram", "enable_adaptive_verification": false}',
        ),
        (
            '{\\"method\\": \\"mtp\\", \\"rejection_sample_method\\": \\"synthetic\\"}',
            "rejection_sample_method",
            "standard",
            '{\\"method\\": \\"mtp\\", \\"rejection_sample_method\\": \\"standard\\"}',
        ),
        ("{'enable-adaptive-verification': True}", "enable_adaptive_verification", False, "{'enable-adaptive-verification': False}"),
        ('{"enable_adaptive_verification": 1}', "enable_adaptive_verification", False, '{"enable_adaptive_verification": 0}'),
        ('{"enable_adaptive_verification": "true"}', "enable_adaptive_verification", False, '{"enable_adaptive_verification": "false"}'),
        (
            '{"rejection_sample_method": "fly", "num_speculative_tokens": 2}',
            "rejection_sample_method",
            "standard",
            '{"rejection_sample_method": "standard", "num_speculative_tokens": 2}',
        ),
    ],
)
def test_the_key_is_set_in_the_spelling_it_was_written_in(raw: str, key: str, value: object, expected: str) -> None:
    assert set_json_key(raw, key, value) == expected


@pytest.mark.parametrize(
    "raw",
    [
        '{"method": "ngram"}',  # absent: nothing to set in place
        '{"rejection_sample_method": {"kind": "fly"}}',  # an object, not a scalar
        '{"my_rejection_sample_method": "fly"}',  # another key that ends alike
    ],
)
def test_no_scalar_of_the_key_no_edit(raw: str) -> None:
    assert set_json_key(raw, "rejection_sample_method", "standard") is None
