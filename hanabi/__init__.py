"""The front-ends: the `hanabi` command line and the HTML report. They only call `deducer` and `solver`."""
