#!/usr/bin/env bash
# Start the replay inference server (the orchestrator and trainer run separately).
uv run inference @ examples/replay/infer.toml "$@"
