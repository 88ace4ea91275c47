from crewai import LLM, Agent, Crew, Task

from agents.settings import BASE_URL, MODEL

policy_llm = LLM(model=MODEL, base_url=BASE_URL, api_key="EMPTY", temperature=1.0)

solver = Agent(
    role="Solver",
    goal="Solve the task step by step",
    backstory="A policy under RL training.",
    llm=policy_llm,
)


def run(problem: str) -> str:
    task = Task(description=problem, expected_output="The final answer.", agent=solver)
    return str(Crew(agents=[solver], tasks=[task]).kickoff())
