# Imitates a Flask wrapper around vllm.LLM as in many demo servers (e.g. the vllm_flask examples): request fields read with sampling defaults that replay accepts
from flask import Flask, jsonify, request
from vllm import LLM, SamplingParams

ENGINE_KWARGS = {
    "model": "microsoft/Phi-3-mini-4k-instruct",
    "max_model_len": 4096,
    "return_sampling_mask": True,
    "logprobs_mode": "processed_logprobs",
}

app = Flask(__name__)
llm = LLM(**ENGINE_KWARGS)


@app.route("/generate", methods=["POST"])
def generate():
    body = request.get_json(force=True)
    params = SamplingParams(
        temperature=float(body.get("temperature", 0.7)),
        top_k=int(body.get("top_k", 50)),
        max_tokens=int(body.get("max_tokens", 256)),
    )
    outputs = llm.generate([body["prompt"]], params)
    return jsonify({"text": outputs[0].outputs[0].text})


if __name__ == "__main__":
    app.run(host="0.0.0.0", port=5000)
