"""`replaylint server`: a language server over stdio that publishes `replaylint check`'s findings
as diagnostics while a file is edited, with its fixes and suppressions as code actions.

pygls and lsprotocol (the `server` extra) are imported only here, so `replaylint check` and
`--version` start without them.
"""

from __future__ import annotations

import sys

_NEEDED = ("pygls", "lsprotocol")


def serve() -> int:
    """Run the server on stdin/stdout until the client exits; 2 when pygls is missing."""
    try:
        from .protocol import build
    except ModuleNotFoundError as error:
        missing = (error.name or "").split(".")[0]
        if missing not in _NEEDED:
            raise
        print(f"replaylint: error: the language server needs {missing}: pip install 'replaylint[server]'", file=sys.stderr)
        return 2
    server = build()
    try:
        server.start_io()
    finally:
        server.workers.stop()
    return 0
