set -x
VLLM_USE_V2_MODEL_RUNNER=0 uv run rl @ examples/reverse_text/rl_replay.toml
