model_name="meta-llama/Meta-Llama-3-8B-Instruct"
model_pretty_name="Meta-Llama-3-8B-Instruct"
bash scripts/_common_eval.sh mmlu-redux $model_name $model_pretty_name
