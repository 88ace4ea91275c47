"""Addresses of URLs a client is given: (host, port, path), and a path joined to a session's base."""

from __future__ import annotations

from typing import Any
from urllib.parse import urljoin

from ....served import url_address

__all__ = ["joined_address", "url_address"]


def joined_address(base: Any, path: str) -> tuple[str, int, str] | None:
    """The address of `path` joined to `base` as `urljoin` joins them (requests-toolbelt's
    `BaseUrlSession`: a relative path under the base's folder, `/path` under its origin)."""
    if not isinstance(base, str):
        return None
    try:
        return url_address(urljoin(base.strip(), path))
    except ValueError:
        return None
