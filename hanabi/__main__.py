"""`python -m hanabi`: the `hanabi` command."""

from hanabi.main import main

main()
