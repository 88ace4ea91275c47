"""Whole runs over the paths a user names: files scheduled onto worker processes through the
result cache (`scheduler`), clients tied to the servers other files start (`cross_file`),
fixes written back to files (`apply_fixes`), a large tree read by this process and a forked one together
(`forked_reader`), the project pins a run recalls (`recalled_pins`).
Below `cli`, `server` and `preflight`; above the one-file `engine`."""
