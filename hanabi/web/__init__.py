"""The table companion: a phone web app over the knowledge tracker (`hanabi serve`)."""
