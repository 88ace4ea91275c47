set -x

uv run inference @ examples/replay/inference.toml
