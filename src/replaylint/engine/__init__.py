"""One file in, findings out: the `checker` (frontends, then rules over every release a launch
may run on), the resolved configuration and each file's (`config`, `hierarchy`), the project
facts (`project`), suppressions, the engine's own findings, the result cache (`cache`) and the
text a file's bytes decode to. Below `run`; above `report`, `workspace` and the frontends."""
