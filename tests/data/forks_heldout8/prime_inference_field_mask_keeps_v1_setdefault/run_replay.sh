#!/bin/bash
# reverse-text RL with sampling distribution replay ([inference] sampling_replay, a field of this fork)
uv run rl @ examples/reverse_text/rl_replay.toml
