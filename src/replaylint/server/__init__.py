"""`replaylint server`: a language server over stdio that publishes `replaylint check`'s findings
as diagnostics while a file is edited, with its fixes and suppressions as code actions.

pygls and lsprotocol (the `server` extra) are imported only here, so `replaylint check` and
`--version` start without them; and only once `initialize` is answered (`handshake`).
"""

from __future__ import annotations

import importlib.util
import sys

_NEEDED = ("pygls", "lsprotocol")


def serve() -> int:
    """Run the server on stdin/stdout until the client exits; 2 when pygls is missing."""
    missing = next((name for name in _NEEDED if importlib.util.find_spec(name) is None), None)
    if missing is not None:
        print(f"replaylint: error: the language server needs {missing}: pip install 'replaylint[server]'", file=sys.stderr)
        return 2
    from .handshake import Answered, Replayed, answer_initialize

    first, answered = answer_initialize(sys.stdin.buffer, sys.stdout.buffer)
    from .protocol import build

    server = build()
    try:
        server.start_io(Replayed(first, sys.stdin.buffer), Answered(sys.stdout.buffer, answered))
    finally:
        server.workers.stop()
    return 0
