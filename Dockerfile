# meeple's game server in a container (docs/DEPLOY.md). Build and run:
#   docker build -t meeple .
#   docker run -p 127.0.0.1:8000:8000 -v meeple-data:/data meeple
# Games go to SQLite in /data unless MEEPLE_DATABASE_URL names another database (compose.yaml
# gives PostgreSQL). Put a TLS proxy in front of it for the internet: docs/DEPLOY.md.

# The wheel, built where a C compiler is: the engine compiled by mypyc (setup.py).
FROM python:3.11-slim AS wheel
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
RUN apt-get update && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /tmp/meeple-src
COPY pyproject.toml setup.py README.md ./
COPY src ./src
RUN pip wheel --no-deps --wheel-dir /tmp/wheels .

FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

# Its dependencies from the lock file (requirements/server.txt, `make lock`): the core's and the
# server extra's, each pinned with its files' hashes, so every build installs the same files
# (pip refuses any other); then the package from that wheel without resolving anything, and
# pip check that nothing it needs is missing. Without the dev extras (tests, linters,
# browsers); no compiler in this image.
COPY requirements/server.txt /tmp/requirements.txt
RUN pip install --require-hashes --no-deps -r /tmp/requirements.txt && rm /tmp/requirements.txt
COPY --from=wheel /tmp/wheels /tmp/wheels
RUN pip install --no-deps /tmp/wheels/*.whl && rm -rf /tmp/wheels && pip check

# Run as a user of its own; /data is the only place it writes (the SQLite file, if used).
RUN useradd --system --create-home --home-dir /data --shell /usr/sbin/nologin --uid 10001 meeple
USER meeple
WORKDIR /data
VOLUME /data

ENV MEEPLE_DATABASE_URL=sqlite:////data/meeple.sqlite
EXPOSE 8000

# No curl in the image: Python asks /healthz (200 while the database answers, else 503). The
# Host is localhost:8000, which --host 0.0.0.0 answers to; a deployment that lists its own
# names in MEEPLE_ALLOWED_HOSTS keeps localhost:8000 among them (compose.yaml does).
HEALTHCHECK --interval=30s --timeout=10s --start-period=30s --retries=3 \
    CMD ["python", "-c", "import urllib.request as u; u.urlopen(u.Request('http://127.0.0.1:8000/healthz', headers={'Host': 'localhost:8000'}), timeout=8)"]

# The database URL comes from $MEEPLE_DATABASE_URL, other settings from their variables
# (MEEPLE_ALLOWED_HOSTS, MEEPLE_ALLOWED_ORIGINS, MEEPLE_FORWARDED_ALLOW_IPS, MEEPLE_ADMIN_TOKEN,
# MEEPLE_REDIS_URL, MEEPLE_HSTS); /metrics answers 403 until MEEPLE_ADMIN_TOKEN is set (the
# server listens beyond loopback);
# options without one (--expire-after-days, ...) go in a whole command after the image name:
#   docker run meeple meeple serve --host 0.0.0.0 --port 8000 --purge-after-days 90
CMD ["meeple", "serve", "--host", "0.0.0.0", "--port", "8000"]
