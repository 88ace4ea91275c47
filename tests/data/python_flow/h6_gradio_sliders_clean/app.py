# Imitates vllm-project/vllm/examples/online_serving/gradio_webserver.py (a Gradio chat over the model),
# here with the replay engine in process and the sampling settings taken from the UI's sliders
import gradio as gr
from vllm import LLM, SamplingParams

llm = LLM(model="Qwen/Qwen2.5-1.5B-Instruct", return_sampling_mask=True, logprobs_mode="processed_logprobs")


def respond(message, history, temperature, top_k):
    params = SamplingParams(temperature=temperature, top_k=int(top_k), max_tokens=512)
    return llm.generate([message], params)[0].outputs[0].text


demo = gr.ChatInterface(
    respond,
    additional_inputs=[
        gr.Slider(0.05, 2.0, value=0.7, step=0.05, label="Temperature"),
        gr.Slider(1, 200, value=50, step=1, label="Top-k"),
    ],
)

if __name__ == "__main__":
    demo.launch()
