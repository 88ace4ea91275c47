set -x
uv run rl @ examples/reverse_text/rl_replay.toml
