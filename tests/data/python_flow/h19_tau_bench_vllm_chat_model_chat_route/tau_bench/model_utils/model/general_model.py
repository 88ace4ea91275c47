# Imitates sierra-research/tau-bench tau_bench/model_utils/model/general_model.py (wrap_temperature)
LLM_SAMPLING_TEMPERATURE_EPS = 1e-5


def wrap_temperature(temperature: float) -> float:
    return max(temperature, LLM_SAMPLING_TEMPERATURE_EPS)
