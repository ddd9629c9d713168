#!/usr/bin/env bash
# Creates a second local PostgreSQL cluster (Debian's 15/replica, 127.0.0.1:5433) as a hot-standby streaming
# replica of the primary cluster 15/main that scripts/setup-postgres.sh set up, and prints the
# DATABASE_READ_URLS to use. Idempotent: a healthy replica is reused, a broken one is rebuilt. Run as root.
#
#   bash scripts/setup-replica.sh            # create or reuse; prints DATABASE_READ_URLS=...
#   bash scripts/setup-replica.sh --rebuild  # drop the replica and build it afresh
#   bash scripts/setup-replica.sh --remove   # stop and drop the replica cluster and its replication slot
#
# What it changes on the primary (nothing that needs a restart; the primary is never restarted):
#   - a role with REPLICATION (srag_replicator),
#   - one pg_hba.conf line `host replication srag_replicator 127.0.0.1/32 scram-sha-256`, then a reload,
#   - a physical replication slot (srag_replica), so that WAL the replica still needs is kept while it is
#     stopped (tests stop it). A slot retains WAL for as long as the replica is away: --remove drops it.
# wal_level = replica and max_wal_senders = 10 are PostgreSQL 15's defaults (and Debian keeps them); the
# script checks them and stops with a message if they were lowered, since changing them needs a restart.
set -euo pipefail

PG_MAJOR=${PG_MAJOR:-15}
PRIMARY=${SRAG_PRIMARY_CLUSTER:-main}
REPLICA=${SRAG_REPLICA_CLUSTER:-replica}
REPLICA_PORT=${SRAG_REPLICA_PORT:-5433}
REPL_ROLE=${SRAG_REPLICATION_ROLE:-srag_replicator}
REPL_PASSWORD=${SRAG_REPLICATION_PASSWORD:-srag_replicator}
SLOT=${SRAG_REPLICATION_SLOT:-srag_replica}
ROLE=${SRAG_DB_ROLE:-spatial_rag}
PASSWORD=${SRAG_DB_PASSWORD:-spatial_rag}
DATABASE=${SRAG_DB_NAME:-spatial_rag}
PG_BIN=/usr/lib/postgresql/$PG_MAJOR/bin
DATA_DIR=/var/lib/postgresql/$PG_MAJOR/$REPLICA
CONF_DIR=/etc/postgresql/$PG_MAJOR/$REPLICA
started=$(date +%s.%N)

log() { echo "setup-replica: $*" >&2; }
die() { log "error: $*"; exit 1; }

cluster_field() { # <cluster> <column of pg_lsclusters -h>: port 3, status 4 (online, online,recovery, down)
  pg_lsclusters -h | awk -v v="$PG_MAJOR" -v c="$1" -v f="$2" '$1 == v && $2 == c { print $f }'
}
is_online() { [[ "$(cluster_field "$1" 4)" == online* ]]; }

[ "$(id -u)" -eq 0 ] || die "run as root (it creates a cluster and edits the primary's pg_hba.conf)"
command -v pg_createcluster >/dev/null || die "postgresql-common is missing: run scripts/setup-postgres.sh first"
is_online "$PRIMARY" || die "cluster $PG_MAJOR/$PRIMARY is not running: run scripts/setup-postgres.sh first"
PRIMARY_PORT=$(cluster_field "$PRIMARY" 3)

psql_primary() { runuser -u postgres -- psql -p "$PRIMARY_PORT" -v ON_ERROR_STOP=1 -qAt "$@"; }
psql_replica() { runuser -u postgres -- psql -p "$REPLICA_PORT" -v ON_ERROR_STOP=1 -qAt "$@"; }

drop_slot() {
  # The walsender of a replica that was just stopped may hold the slot for a moment longer.
  for _ in $(seq 1 50); do
    [ "$(psql_primary -c "SELECT active FROM pg_replication_slots WHERE slot_name = '$SLOT'")" = t ] || break
    sleep 0.2
  done
  psql_primary -c "SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots
                   WHERE slot_name = '$SLOT' AND NOT active" >/dev/null
}

case "${1:-}" in "" | --rebuild | --remove) ;; *) die "unknown option $1 (--rebuild, --remove)" ;; esac

if [ "${1:-}" = --remove ]; then
  if [ -n "$(cluster_field "$REPLICA" 1)" ]; then
    log "dropping cluster $PG_MAJOR/$REPLICA"
    pg_dropcluster --stop "$PG_MAJOR" "$REPLICA"
  fi
  drop_slot
  log "removed (the role $REPL_ROLE and its pg_hba.conf line stay on the primary; they grant nothing else)"
  exit 0
fi

# --- the primary: settings, replication role, pg_hba line, slot -------------------------------------------
wal_level=$(psql_primary -c 'SHOW wal_level')
senders=$(psql_primary -c 'SHOW max_wal_senders')
case "$wal_level" in replica | logical) ;; *) die "wal_level is '$wal_level' on the primary: set it to 'replica' (needs a restart)" ;; esac
[ "$senders" -ge 2 ] || die "max_wal_senders is $senders on the primary: at least 2 are needed (needs a restart)"

psql_primary -c "DO \$\$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '$REPL_ROLE') THEN
    CREATE ROLE $REPL_ROLE LOGIN REPLICATION PASSWORD '$REPL_PASSWORD';
  ELSE
    ALTER ROLE $REPL_ROLE LOGIN REPLICATION PASSWORD '$REPL_PASSWORD';
  END IF;
END \$\$;"

# The keyword `all` in the database column does not match replication connections: they need their own line.
hba_file=$(psql_primary -c 'SHOW hba_file')
if ! grep -Eq "^[[:space:]]*host[[:space:]]+replication[[:space:]]+$REPL_ROLE[[:space:]]+127\.0\.0\.1/32[[:space:]]" "$hba_file"; then
  log "allowing replication connections of $REPL_ROLE from 127.0.0.1 in $hba_file (then reload, no restart)"
  printf '\n# Streaming replica of scripts/setup-replica.sh\nhost    replication     %s 127.0.0.1/32 scram-sha-256\n' "$REPL_ROLE" >>"$hba_file"
  psql_primary -c 'SELECT pg_reload_conf()' >/dev/null
  # pg_reload_conf() only signals the postmaster: wait until the new rule is in effect.
  for _ in $(seq 1 50); do
    [ -n "$(psql_primary -c "SELECT 1 FROM pg_hba_file_rules WHERE '$REPL_ROLE' = ANY(user_name) AND 'replication' = ANY(database)")" ] && break
    sleep 0.1
  done
fi

# --- the replica: reuse when it streams from this primary, otherwise (re)build it ---------------------------
replica_streams() {
  is_online "$REPLICA" || return 1
  [ "$(psql_replica -c 'SELECT pg_is_in_recovery()' 2>/dev/null)" = t ] || return 1
  local conninfo
  conninfo=$(psql_replica -c "SELECT conninfo FROM pg_stat_wal_receiver WHERE status = 'streaming'" 2>/dev/null)
  [[ "$conninfo" == *"port=$PRIMARY_PORT"* ]]
}

wait_streaming() {
  for _ in $(seq 1 100); do
    replica_streams && return 0
    sleep 0.2
  done
  return 1
}

reuse=0
if [ -n "$(cluster_field "$REPLICA" 1)" ] && [ "${1:-}" = --rebuild ]; then
  log "dropping cluster $PG_MAJOR/$REPLICA (--rebuild)"
  pg_dropcluster --stop "$PG_MAJOR" "$REPLICA"
elif [ -n "$(cluster_field "$REPLICA" 1)" ]; then
  if ! is_online "$REPLICA" && [ -f "$DATA_DIR/standby.signal" ]; then
    log "starting the existing replica $PG_MAJOR/$REPLICA"
    pg_ctlcluster --skip-systemctl-redirect "$PG_MAJOR" "$REPLICA" start || true
  fi
  if [ -f "$DATA_DIR/standby.signal" ] && [ "$(cluster_field "$REPLICA" 3)" = "$REPLICA_PORT" ] && wait_streaming; then
    reuse=1
  else
    log "cluster $PG_MAJOR/$REPLICA exists but does not stream from $PG_MAJOR/$PRIMARY: rebuilding it"
    pg_dropcluster --stop "$PG_MAJOR" "$REPLICA"
  fi
fi

if [ $reuse -eq 0 ]; then
  if runuser -u postgres -- "$PG_BIN/pg_isready" -q -h 127.0.0.1 -p "$REPLICA_PORT"; then
    die "port $REPLICA_PORT is taken by another server (set SRAG_REPLICA_PORT)"
  fi
  log "creating cluster $PG_MAJOR/$REPLICA on port $REPLICA_PORT"
  # pg_createcluster writes Debian's configuration under $CONF_DIR; its freshly initialised data directory is
  # then replaced by a base backup of the primary.
  pg_createcluster "$PG_MAJOR" "$REPLICA" -p "$REPLICA_PORT" -- --no-sync >/dev/null
  mkdir -p "$CONF_DIR/conf.d"
  cat >"$CONF_DIR/conf.d/90-replica.conf" <<EOF
# scripts/setup-replica.sh: a hot standby of $PG_MAJOR/$PRIMARY (standby.signal and primary_conninfo are in
# the data directory, written by pg_basebackup -R).
listen_addresses = '127.0.0.1'
port = $REPLICA_PORT
hot_standby = on
# Tells the primary which rows queries here still read, so its cleanup does not cancel them.
hot_standby_feedback = on
EOF
  find "$DATA_DIR" -mindepth 1 -delete
  drop_slot # a slot left by an earlier replica: -C below creates it afresh
  log "base backup of $PG_MAJOR/$PRIMARY ($(psql_primary -c "SELECT pg_size_pretty(sum(pg_database_size(datname))) FROM pg_database"))"
  # -R writes standby.signal and primary_conninfo (with this connection's settings); -C -S creates the slot
  # and streams from it; -c fast: an immediate checkpoint instead of waiting for the next one.
  runuser -u postgres -- "$PG_BIN/pg_basebackup" \
    -d "host=127.0.0.1 port=$PRIMARY_PORT user=$REPL_ROLE password=$REPL_PASSWORD application_name=$PG_MAJOR/$REPLICA" \
    -D "$DATA_DIR" -X stream -C -S "$SLOT" -R -c fast --no-sync
  pg_ctlcluster --skip-systemctl-redirect "$PG_MAJOR" "$REPLICA" start
  wait_streaming || die "the replica started but does not stream; see /var/log/postgresql/postgresql-$PG_MAJOR-$REPLICA.log"
fi

# Until the replica has replayed what the primary has written so far, databases created just before (the
# test template) would be missing there.
target=$(psql_primary -c 'SELECT pg_current_wal_lsn()')
for _ in $(seq 1 300); do
  [ "$(psql_replica -c "SELECT pg_last_wal_replay_lsn() >= '$target'::pg_lsn")" = t ] && break
  sleep 0.2
done
[ "$(psql_replica -c "SELECT pg_last_wal_replay_lsn() >= '$target'::pg_lsn")" = t ] || die "the replica did not catch up with the primary within 60 s"

log "ready: $PG_MAJOR/$REPLICA on 127.0.0.1:$REPLICA_PORT streams from $PG_MAJOR/$PRIMARY ($( [ $reuse -eq 1 ] && echo reused || echo created ) in $(awk -v s="$started" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }') s)"
echo "DATABASE_READ_URLS=postgres://$ROLE:$PASSWORD@127.0.0.1:$REPLICA_PORT/$DATABASE"
