# PostGIS image plus pgvector from the PostgreSQL project's apt repository (already configured in the base image).
FROM postgis/postgis:16-3.4
RUN apt-get update \
 && apt-get install -y --no-install-recommends postgresql-16-pgvector \
 && rm -rf /var/lib/apt/lists/*
