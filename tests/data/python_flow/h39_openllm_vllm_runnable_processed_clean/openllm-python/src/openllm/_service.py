import os

import bentoml
import openllm

llm = openllm.LLM(
  os.environ['OPENLLM_MODEL_ID'],
  backend=os.getenv('OPENLLM_BACKEND'),
  quantize=os.getenv('OPENLLM_QUANTIZE'),
)
svc = bentoml.Service(name=f"llm-{llm.config['start_name']}-service", runners=[llm.runner])


@svc.api(route='/v1/generate_stream', input=bentoml.io.JSON(), output=bentoml.io.Text())
async def generate_stream_v1(input_dict):
  async for it in llm.runner.generate_iterator.async_stream(**input_dict):
    yield f'data: {it}\n\n'
  yield 'data: [DONE]\n\n'
