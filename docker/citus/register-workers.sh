#!/bin/sh
# Registers the coordinator and the workers of the `citus` profile (idempotent: citus_add_node returns the
# id of a node already there).
set -eu
for host in citus-coordinator citus-worker1 citus-worker2; do
  until pg_isready -q -h "$host" -U "$POSTGRES_USER" -d "$POSTGRES_DB"; do sleep 1; done
done
psql -v ON_ERROR_STOP=1 -h citus-coordinator -U "$POSTGRES_USER" -d "$POSTGRES_DB" <<SQL
SELECT citus_set_coordinator_host('citus-coordinator', 5432);
SELECT citus_add_node('citus-worker1', 5432);
SELECT citus_add_node('citus-worker2', 5432);
SQL
