from langchain_core.messages import HumanMessage
from langchain_openai import ChatOpenAI

llm = ChatOpenAI(model="Qwen/Qwen2.5-7B-Instruct", base_url="http://localhost:8000/v1", api_key="EMPTY", temperature=1.0, extra_body={"top_k": 64}, model_kwargs={"seed": 7})


def act(observation: str) -> str:
    return llm.invoke([HumanMessage(content=observation)]).content
