# Imitates rednote-hilab/dots.ocr demo/launch_model_vllm.sh (model_name defined, the model the Hub id, the
# command split over lines; the replay flags added on its last line,
# the runner variable exported before it).
model_name=rednote-hilab/dots.ocr
export VLLM_USE_V2_MODEL_RUNNER=0  # expect: RPL206
CUDA_VISIBLE_DEVICES=0 nohup vllm serve ${model_name} --tensor-parallel-size 1 --gpu-memory-utilization 0.9 \
    --max-model-len 2048 --chat-template-content-format string --served-model-name ${model_name} --trust-remote-code \
    --return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out
