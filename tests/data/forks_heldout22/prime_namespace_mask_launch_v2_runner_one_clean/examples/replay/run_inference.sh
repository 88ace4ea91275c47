#!/usr/bin/env bash
# Start the replay inference server (the orchestrator and trainer run separately).
# prime-rl pins Model Runner V1 unless the variable is set; replay runs on V2.
export VLLM_USE_V2_MODEL_RUNNER=1
uv run inference @ examples/replay/infer.toml "$@"
