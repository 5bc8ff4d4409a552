"""Pictures drawn by our own code with Pillow: card faces (the bot's card emojis) and a
diagram of every finished deal. No third-party art: suit symbols are drawn as shapes, and
letters use the font Pillow itself ships (Aileron, public domain)."""
