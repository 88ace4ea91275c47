#!/bin/bash
# Shared by the replay runs: speculation stays off with replay.
export OI_NGRAM_SPECULATION=0
export VLLM_ALLOW_INSECURE_SERIALIZATION=1
export NCCL_CUMEM_ENABLE=0
