# syntax=docker/dockerfile:1
# The Belote bot: a build stage that compiles the expert's C solver, and a slim runtime
# that runs as an unprivileged user with its state (the SQLite database, the Discord
# message map, saved pictures) on the /data volume. Tokens come from the environment
# (docker run --env-file .env, or compose's env_file), never from the image.
# See docs/operations.md.

ARG PYTHON_IMAGE=python:3.11-slim-bookworm

FROM ${PYTHON_IMAGE} AS build
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*
ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /app
COPY pyproject.toml setup.py README.md ./
COPY engine/ engine/
COPY bot/ bot/
COPY adapters/ adapters/
COPY assets/ assets/
# the browser check of a match, which the bot serves under /verify/ (bot/ops/verify_site.py)
COPY web/verify/ web/verify/
# An editable install keeps the source tree's layout (the code finds assets/ beside it)
# and compiles engine/ai/_dds.c in place; the import fails the build if the compiled
# solver is missing (the install alone would fall back to pure Python silently).
RUN python -m venv /opt/venv \
    && /opt/venv/bin/pip install -e . \
    && /opt/venv/bin/python -c "import engine.ai._dds" \
    && find /app -name "*.c" -delete

FROM ${PYTHON_IMAGE}
ENV PATH=/opt/venv/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    BELOTE_DB=/data/belote.db \
    BELOTE_LOG_LEVEL=INFO \
    BELOTE_LOG_FORMAT=json \
    BELOTE_METRICS_PORT=9100
RUN groupadd --system --gid 10001 belote \
    && useradd --system --uid 10001 --gid belote --home-dir /data --no-create-home \
       --shell /usr/sbin/nologin belote \
    && mkdir /data \
    && chown belote:belote /data
COPY --from=build /opt/venv /opt/venv
COPY --from=build /app /app
WORKDIR /data
USER 10001:10001
VOLUME ["/data"]
EXPOSE 9100
# SIGINT stops the bot the way Ctrl-C does: the tables' last writes are flushed first.
STOPSIGNAL SIGINT
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["belote", "healthcheck"]
ENTRYPOINT ["belote"]
CMD ["run"]
