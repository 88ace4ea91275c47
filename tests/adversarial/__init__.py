"""The adversarial suite (a package, so its modules may share names with those in tests/)."""
