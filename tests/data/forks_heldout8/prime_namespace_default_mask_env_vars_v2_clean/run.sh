#!/bin/bash
uv run rl @ examples/reverse_text/rl.toml
