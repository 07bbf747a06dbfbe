"""Perfect-information search over Hanabi deals (built on `deducer`)."""
