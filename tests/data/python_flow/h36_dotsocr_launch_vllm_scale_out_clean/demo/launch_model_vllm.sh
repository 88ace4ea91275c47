# Imitates rednote-hilab/dots.ocr demo/launch_model_vllm.sh (model_name defined, the model the Hub id, the
# command split over lines; the replay flags added on its last line).
model_name=rednote-hilab/dots.ocr
CUDA_VISIBLE_DEVICES=0 nohup vllm serve ${model_name} --tensor-parallel-size 1 --gpu-memory-utilization 0.9 \
    --max-model-len 2048 --chat-template-content-format string --served-model-name ${model_name} --trust-remote-code \
    --return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out
