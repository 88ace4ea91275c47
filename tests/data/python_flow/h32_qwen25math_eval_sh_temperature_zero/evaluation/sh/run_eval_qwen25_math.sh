# Qwen2.5-Math-Instruct series, evaluated with vLLM (run from evaluation/: bash sh/run_eval_qwen25_math.sh)
PROMPT_TYPE="qwen25-math-cot"
export CUDA_VISIBLE_DEVICES="0"

MODEL_NAME_OR_PATH="Qwen/Qwen2.5-Math-1.5B-Instruct"
bash sh/eval.sh $PROMPT_TYPE $MODEL_NAME_OR_PATH math_eval vllm
