from langchain_community.llms import VLLMOpenAI

llm = VLLMOpenAI(
    openai_api_key="EMPTY",
    openai_api_base="http://localhost:8000/v1",
    model_name="Qwen/Qwen3-8B",
    model_kwargs={"top_k": 20},
)


def answer(question: str) -> str:
    return llm.invoke(question)
