# TrickTable's image: the bot and what it needs, nothing else, run by a user without rights.
#   docker build -t tricktable .
#   docker run -d -e DISCORD_TOKEN=... -v tricktable-data:/data tricktable
# SQLite lives in the /data volume by default; set DATABASE_URL for PostgreSQL.
#
# The same build gives the same image: the base is pinned by its version and its digest
# (the multi-platform index of python:3.11.17-slim), and the dependencies are installed
# from requirements.lock, exact versions, nothing resolved at build time. To move the
# base: `docker buildx imagetools inspect python:3.11.N-slim`, and put its tag and digest
# in both FROM lines.

# Stage 1: install the locked dependencies, then the package, into a virtual environment.
FROM python:3.11.17-slim@sha256:45037981b62b34b44602584fccbc4d884d5f7dc92c7ee86bb38a698a79fe1e51 AS build
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
RUN python -m venv /opt/tricktable
WORKDIR /src
COPY requirements.lock ./
RUN /opt/tricktable/bin/pip install --no-deps -r requirements.lock
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY cogs ./cogs
# --no-deps: every dependency came from the lock; pip check fails the build if the lock
# misses one or holds a version a dependency refuses.
RUN /opt/tricktable/bin/pip install --no-deps . && /opt/tricktable/bin/pip check

# Stage 2: the runtime, with only the virtual environment copied over.
FROM python:3.11.17-slim@sha256:45037981b62b34b44602584fccbc4d884d5f7dc92c7ee86bb38a698a79fe1e51
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
