"""What the cogs share and that is not itself an extension: the click router, the
publisher of table messages and hands, and raw message edits."""
