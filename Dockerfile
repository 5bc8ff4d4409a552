# TrickTable's image: the bot and what it needs, nothing else, run by a user without rights.
#   docker build -t tricktable .
#   docker run -d -e DISCORD_TOKEN=... -v tricktable-data:/data tricktable
# SQLite lives in the /data volume by default; set DATABASE_URL for PostgreSQL.

# Stage 1: install the package and its dependencies into a virtual environment.
FROM python:3.11-slim AS build
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
RUN python -m venv /opt/tricktable
WORKDIR /src
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY cogs ./cogs
RUN /opt/tricktable/bin/pip install .

# Stage 2: the runtime, with only the virtual environment copied over.
FROM python:3.11-slim
RUN useradd --system --uid 10001 --create-home --home-dir /data tricktable
COPY --from=build /opt/tricktable /opt/tricktable
ENV PATH=/opt/tricktable/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    DATABASE_PATH=/data/tricktable.db \
    METRICS_PORT=9108
USER tricktable
WORKDIR /data
VOLUME ["/data"]
EXPOSE 9108
# /health answers 200 when the gateway is connected and the database answers. The check
# reads METRICS_PORT as the bot does (environment, then /data/.env); unset, it passes.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["tricktable", "health"]
# SIGTERM stops the bot cleanly: the writes in flight finish, then it exits 0.
STOPSIGNAL SIGTERM
CMD ["tricktable"]
