#!/usr/bin/env bash
exec vllm serve --config configs/serve.yaml --port 8000
