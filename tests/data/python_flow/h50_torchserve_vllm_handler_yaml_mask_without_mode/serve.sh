#!/bin/bash
# from the example's Readme: archive the handler with this config and start TorchServe
torch-model-archiver --model-name llama3-8b --version 1.0 --handler vllm_handler.py --config-file model-config.yaml --archive-format no-archive
mv model llama3-8b/
mkdir -p model_store && mv llama3-8b model_store/
torchserve --start --ncs --ts-config ../config.properties --model-store model_store --models llama3-8b --disable-token-auth --enable-model-api
