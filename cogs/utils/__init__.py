"""What the cogs share and that is not itself an extension: private refusals, permission
checks and choices. The bot-wide services they use live in bot/ (bot/publishing, the
click router bot/router.py)."""
