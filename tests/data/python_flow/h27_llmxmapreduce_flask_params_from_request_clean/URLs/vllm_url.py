# Imitates thunlp/LLMxMapReduce LLMxMapReduce_V1/URLs/vllm_url.py (a Flask /infer endpoint over LLM(...)
# whose module-level params_dict every key of the request's params overwrites); the user's edit turns replay
# on. The top_k the requests send is known only when they arrive.
import argparse
import os

from flask import Flask, jsonify, request
from vllm import LLM, SamplingParams

parser = argparse.ArgumentParser()
parser.add_argument("--model_name", type=str, default="THUDM/glm-4-9b-chat")
parser.add_argument("--gpuid", type=str, default="0")
parser.add_argument("--port", type=int, default=5002)
args = parser.parse_args()

os.environ["CUDA_VISIBLE_DEVICES"] = args.gpuid

llm = LLM(
    model=args.model_name,
    trust_remote_code=True,
    tensor_parallel_size=len(args.gpuid.split(",")),
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
)

params_dict = {
    "n": 1,
    "presence_penalty": 0.0,
    "frequency_penalty": 0.0,
    "temperature": 1.0,
    "top_p": 1.0,
    "top_k": -1,
    "stop": None,
    "max_tokens": 16,
    "skip_special_tokens": True,
}

app = Flask(__name__)


@app.route("/infer", methods=["POST"])
def main():
    datas = request.get_json()
    params = datas["params"]
    prompts = datas["instances"]
    for key, value in params.items():
        if key in params_dict:
            params_dict[key] = value
    outputs = llm.generate(prompts, SamplingParams(**params_dict))
    return jsonify([output.outputs[0].text for output in outputs])


if __name__ == "__main__":
    app.run(port=args.port, debug=False)
