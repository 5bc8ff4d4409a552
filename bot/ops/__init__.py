"""Running the bot for real: a clean stop on SIGTERM, health and metrics, backups, logs."""
