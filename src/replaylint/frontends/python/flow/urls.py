"""Addresses of URLs a client is given: (host, port, path), and a path joined to a session's base."""

from __future__ import annotations

from typing import Any
from urllib.parse import urljoin, urlsplit

_SCHEME_PORTS = {"http": 80, "https": 443}


def url_address(url: Any) -> tuple[str, int, str] | None:
    """(host, port, path) of a known URL."""
    if not isinstance(url, str):
        return None
    try:
        parts = urlsplit(url.strip())
        port = parts.port or _SCHEME_PORTS.get(parts.scheme)
    except ValueError:
        return None
    return (parts.hostname, port, parts.path) if port is not None and parts.hostname else None


def joined_address(base: Any, path: str) -> tuple[str, int, str] | None:
    """The address of `path` joined to `base` as `urljoin` joins them (requests-toolbelt's
    `BaseUrlSession`: a relative path under the base's folder, `/path` under its origin)."""
    if not isinstance(base, str):
        return None
    try:
        return url_address(urljoin(base.strip(), path))
    except ValueError:
        return None
