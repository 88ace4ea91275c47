import os

import bentoml
import openllm
from openllm_core.utils import first_not_none, is_vllm_available


class LLM:
  __llm_runner__ = None

  def __init__(self, model_id, backend=None, quantize=None, trust_remote_code=False, torch_dtype='auto', **attrs):
    self._model_id = model_id
    self.__llm_backend__ = first_not_none(backend, os.getenv('OPENLLM_BACKEND'), default='vllm' if is_vllm_available() else 'pt')
    self._quantise = first_not_none(quantize, os.getenv('OPENLLM_QUANTIZE'), default=None)
    self.__llm_trust_remote_code__ = trust_remote_code
    self.__llm_torch_dtype__ = first_not_none(os.getenv('TORCH_DTYPE'), torch_dtype, default='auto')
    self.__llm_config__ = openllm.AutoConfig.for_model(model_id).model_construct_env(**attrs)
    try:
      model = bentoml.models.get(self.tag)
    except bentoml.exceptions.NotFound:
      model = openllm.serialisation.import_model(self, trust_remote_code=self.trust_remote_code)
    self._tag = model.tag

  @property
  def tag(self):
    return bentoml.Tag.from_taglike(f"{self.__llm_backend__}-{self._model_id.replace('/', '--')}")

  @property
  def bentomodel(self):
    return openllm.serialisation.get(self)

  @property
  def quantise(self):
    return self._quantise

  @property
  def trust_remote_code(self):
    return self.__llm_trust_remote_code__

  @property
  def _torch_dtype(self):
    return self.__llm_torch_dtype__

  @property
  def config(self):
    return self.__llm_config__

  @property
  def runner(self):
    if self.__llm_runner__ is None:
      self.__llm_runner__ = _RunnerFactory(self)
    return self.__llm_runner__


def _RunnerFactory(llm, backend=None):
  from ._runners import runnable

  backend = first_not_none(backend, default=llm.__llm_backend__)
  return bentoml.Runner(
    runnable(backend),
    name=f"llm-{llm.config['start_name']}-runner",
    runnable_init_params={'llm': llm},
    method_configs={'generate_iterator': {'batchable': False}},
  )
