# Citus's official image (PostgreSQL 17, Debian) plus PostGIS and pgvector from the PostgreSQL project's apt
# repository (configured in the base image), for the `citus` profile of docker-compose.yml.
FROM citusdata/citus:13.0.3
RUN apt-get update \
 && apt-get install -y --no-install-recommends "postgresql-$PG_MAJOR-postgis-3" "postgresql-$PG_MAJOR-pgvector" \
 && rm -rf /var/lib/apt/lists/*
# After the image's own 001-create-citus-extension.sql, on every node.
COPY docker/initdb/01-extensions.sql /docker-entrypoint-initdb.d/010-extensions.sql
COPY docker/citus/020-reader.sql /docker-entrypoint-initdb.d/020-reader.sql
