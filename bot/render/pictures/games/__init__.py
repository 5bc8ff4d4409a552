"""Each game's deal picture: `DRAW` in `bot.render.pictures.games.<name>`."""
