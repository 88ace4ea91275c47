from langchain_openai import ChatOpenAI

llm = ChatOpenAI(
    model="Qwen/Qwen3-8B",
    base_url="http://127.0.0.1:8000/v1",
    api_key="EMPTY",
    temperature=1.0,
    presence_penalty=0.6,
    extra_body={"top_k": 20},
)


def answer(question: str) -> str:
    return llm.invoke(question).content
