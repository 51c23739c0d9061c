# A stand-in for the official PostgreSQL image, for the container test on machines that reach no image registry:
# Debian's own PostgreSQL on the same base as the app, started the way the official image starts (POSTGRES_USER,
# POSTGRES_DB, POSTGRES_PASSWORD_FILE; data in /var/lib/postgresql/data), so compose.yaml is used unchanged.
ARG BASE_IMAGE=docker.io/library/debian:bookworm-slim
FROM ${BASE_IMAGE}
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends postgresql-15 \
 && rm -rf /var/lib/apt/lists/*
ENV PATH=/usr/lib/postgresql/15/bin:$PATH PGDATA=/var/lib/postgresql/data
COPY postgres-entrypoint.sh /usr/local/bin/postgres-entrypoint.sh
VOLUME ["/var/lib/postgresql/data"]
EXPOSE 5432
ENTRYPOINT ["sh", "/usr/local/bin/postgres-entrypoint.sh"]
