"""The command line: `replaylint check` and its options (`check`, `check_options`, the plain
pre-commit path `check_words`), `--fix` (`fix`), `--add-noqa`, `--watch`, shell completions and
the CI templates' entry (`ci_job`); `main` dispatches the subcommands. The first stage: it
reads what the user asked and hands the paths to `run`."""
