#!/usr/bin/env bash
# Creates a local Citus cluster for the distributed mode: a coordinator and N workers, each a Debian
# PostgreSQL 15 cluster on 127.0.0.1 (coordinator 5440, workers 5441, 5442, ...), with citus, postgis, vector
# and pg_trgm; registers the workers; creates the role, the database and the template as
# scripts/setup-postgres.sh does. Idempotent; run as root on Debian bookworm. Prints the coordinator's
# DATABASE_URL, and CITUS_ADMIN_URL (a superuser login the tests use to prepare a database per test file).
# The clusters 15/main (5432) and 15/replica (5433) are never touched.
#
#   bash scripts/setup-citus.sh              # create or reuse; prints DATABASE_URL=... and CITUS_ADMIN_URL=...
#   bash scripts/setup-citus.sh --workers 3  # N workers (default 2, or SRAG_CITUS_WORKERS)
#   bash scripts/setup-citus.sh --remove     # stop and drop the coordinator and the workers
#
# Citus is not packaged by Debian: when the extension is missing it is built from the source archive in
# ../shared/vendor (from the project root; SRAG_CITUS_SOURCE names another directory). Elsewhere, install
# Citus's own packages first, or use `docker compose --profile citus up`.
set -euo pipefail

PG_MAJOR=${PG_MAJOR:-15}
CITUS_VERSION=13.2.2
WORKERS=${SRAG_CITUS_WORKERS:-2}
BASE_PORT=${SRAG_CITUS_PORT:-5440}
ROLE=${SRAG_DB_ROLE:-spatial_rag}
PASSWORD=${SRAG_DB_PASSWORD:-spatial_rag}
DATABASE=${SRAG_DB_NAME:-spatial_rag}
TEMPLATE=${SRAG_DB_TEMPLATE:-spatial_rag_template}
READER=srag_reader
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SOURCE=${SRAG_CITUS_SOURCE:-$ROOT/../shared/vendor}
PG_BIN=/usr/lib/postgresql/$PG_MAJOR/bin
EXT_DIR=/usr/share/postgresql/$PG_MAJOR/extension
CONF_ROOT=/etc/postgresql/$PG_MAJOR
# Passwords of the superuser and of the reader role on these clusters, and the password file the nodes use
# to reach each other (the postmaster's PGPASSFILE): readable by postgres only.
SECRETS=$CONF_ROOT/citus-secrets
PGPASS=$CONF_ROOT/citus.pgpass

log() { echo "setup-citus: $*" >&2; }
die() { log "error: $*"; exit 1; }

remove=0
while [ $# -gt 0 ]; do
  case "$1" in
    --remove) remove=1 ;;
    --workers) WORKERS=${2:?--workers needs a number}; shift ;;
    *) die "unknown option $1 (--workers N, --remove)" ;;
  esac
  shift
done
[[ "$WORKERS" =~ ^[1-9][0-9]?$ ]] || die "--workers must be between 1 and 99, not '$WORKERS'"
[ "$(id -u)" -eq 0 ] || die "run as root (it installs packages and creates clusters)"

# Cluster names and ports: index 0 is the coordinator.
node_name() { if [ "$1" -eq 0 ]; then echo citus_coordinator; else echo "citus_worker$1"; fi; }
node_port() { echo $((BASE_PORT + $1)); }
cluster_status() { pg_lsclusters -h 2>/dev/null | awk -v v="$PG_MAJOR" -v c="$1" '$1 == v && $2 == c { print $4 }'; }

if [ $remove -eq 1 ]; then
  for name in $(pg_lsclusters -h 2>/dev/null | awk -v v="$PG_MAJOR" '$1 == v && $2 ~ /^citus_(coordinator|worker[0-9]+)$/ { print $2 }'); do
    log "dropping cluster $PG_MAJOR/$name"
    pg_dropcluster --stop "$PG_MAJOR" "$name"
  done
  rm -f "$SECRETS" "$PGPASS"
  log "removed"
  exit 0
fi

apt_updated=0
apt_install() {
  local missing=()
  for pkg in "$@"; do dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ $apt_updated -eq 0 ]; then apt-get update -qq; apt_updated=1; fi
  log "installing ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

apt_install "postgresql-$PG_MAJOR" postgresql-contrib "postgresql-$PG_MAJOR-postgis-3"
[ -f "$EXT_DIR/vector.control" ] || die "pgvector is not installed: run scripts/setup-postgres.sh first (it builds pgvector)"

# --- Citus: built from the vendored source when missing -------------------------------------------------
installed=$(sed -n "s/^default_version = '\(.*\)'/\1/p" "$EXT_DIR/citus.control" 2>/dev/null || true)
if [ -z "$installed" ]; then
  archive="$SOURCE/citus-$CITUS_VERSION.tar.gz"
  patch_file="$SOURCE/citus-$CITUS_VERSION-pg15.20.patch"
  [ -f "$archive" ] || die "the citus extension is not installed and its source $archive is missing: install Citus packages, set SRAG_CITUS_SOURCE to a directory holding citus-$CITUS_VERSION.tar.gz, or use docker compose --profile citus"
  apt_install "postgresql-server-dev-$PG_MAJOR" build-essential libcurl4-openssl-dev liblz4-dev libzstd-dev libkrb5-dev libssl-dev
  work=$(mktemp -d)
  log "building Citus $CITUS_VERSION from $archive (a few minutes)"
  tar xzf "$archive" -C "$work"
  if [ -f "$patch_file" ]; then (cd "$work/citus-$CITUS_VERSION" && patch -s -p1 <"$patch_file"); fi
  (cd "$work/citus-$CITUS_VERSION" && ./configure -q PG_CONFIG="$PG_BIN/pg_config" >/dev/null && make -s -j"$(nproc)" >/dev/null 2>&1 && make -s install >/dev/null) \
    || die "building Citus failed (in $work/citus-$CITUS_VERSION: run make there to see why)"
  rm -rf "$work"
fi

# --- secrets and the nodes' password file -------------------------------------------------------------
if [ ! -f "$SECRETS" ]; then
  (umask 077; printf 'ADMIN_PASSWORD=%s\nREADER_PASSWORD=%s\n' "$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')" "$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')" >"$SECRETS")
fi
# shellcheck disable=SC1090
. "$SECRETS"
{
  for i in $(seq 0 "$WORKERS"); do
    port=$(node_port "$i")
    for host in 127.0.0.1 localhost; do
      echo "$host:$port:*:postgres:$ADMIN_PASSWORD"
      echo "$host:$port:*:$ROLE:$PASSWORD"
      # Citus opens its connections to the workers as the current role: question answering's SET ROLE too.
      echo "$host:$port:*:$READER:$READER_PASSWORD"
    done
  done
} >"$PGPASS.new"
chown postgres:postgres "$PGPASS.new" "$SECRETS"
chmod 600 "$PGPASS.new" "$SECRETS"
mv "$PGPASS.new" "$PGPASS"

# --- the clusters ---------------------------------------------------------------------------------------
for i in $(seq 0 "$WORKERS"); do
  name=$(node_name "$i")
  port=$(node_port "$i")
  if [ -z "$(cluster_status "$name")" ]; then
    if runuser -u postgres -- "$PG_BIN/pg_isready" -q -h 127.0.0.1 -p "$port"; then
      die "port $port is taken by another server (set SRAG_CITUS_PORT)"
    fi
    log "creating cluster $PG_MAJOR/$name on port $port"
    pg_createcluster "$PG_MAJOR" "$name" -p "$port" -- --no-sync >/dev/null
  fi
  mkdir -p "$CONF_ROOT/$name/conf.d"
  cat >"$CONF_ROOT/$name/conf.d/90-citus.conf" <<EOF
# scripts/setup-citus.sh: $( [ "$i" -eq 0 ] && echo "the coordinator" || echo "worker $i" ) of the local Citus cluster
listen_addresses = '127.0.0.1'
port = $port
shared_preload_libraries = 'citus'
# Each database using Citus runs a maintenance daemon (the tests use a database per test file).
max_worker_processes = 64
max_connections = 300
citus.shard_count = 16
# The local nodes talk over the loopback without TLS; a node reaches itself there too (bulk inserts).
citus.node_conninfo = 'sslmode=prefer'
citus.local_hostname = '127.0.0.1'
EOF
  cat >"$CONF_ROOT/$name/environment" <<EOF
# scripts/setup-citus.sh: the passwords this node uses to reach the others
PGPASSFILE = '$PGPASS'
EOF
  # The settings above need a (re)start; a running node is restarted only when they are not in effect.
  if [[ "$(cluster_status "$name")" == online* ]]; then
    preload=$(runuser -u postgres -- psql -p "$port" -qAtc 'SHOW shared_preload_libraries' 2>/dev/null || true)
    if [[ "$preload" == *citus* ]]; then
      pg_ctlcluster --skip-systemctl-redirect "$PG_MAJOR" "$name" reload
    else
      pg_ctlcluster --skip-systemctl-redirect "$PG_MAJOR" "$name" restart
    fi
  else
    log "starting $PG_MAJOR/$name"
    pg_ctlcluster --skip-systemctl-redirect "$PG_MAJOR" "$name" start
  fi
done
for i in $(seq 0 "$WORKERS"); do
  port=$(node_port "$i")
  for _ in $(seq 1 60); do
    runuser -u postgres -- "$PG_BIN/pg_isready" -q -h 127.0.0.1 -p "$port" && break
    sleep 0.5
  done
  runuser -u postgres -- "$PG_BIN/pg_isready" -q -h 127.0.0.1 -p "$port" || die "the node on port $port does not start; see /var/log/postgresql/"
done

psql_node() { local port=$1; shift; PGOPTIONS='-c client_min_messages=warning' runuser -u postgres -- psql -p "$port" -v ON_ERROR_STOP=1 -qAt "$@"; }

# --- roles and databases on every node (the workers too: Citus connects to them as the same roles) -------
for i in $(seq 0 "$WORKERS"); do
  port=$(node_port "$i")
  psql_node "$port" -c "ALTER ROLE postgres PASSWORD '$ADMIN_PASSWORD'"
  psql_node "$port" -c "DO \$\$ BEGIN
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '$ROLE') THEN CREATE ROLE $ROLE LOGIN CREATEDB PASSWORD '$PASSWORD';
    ELSE ALTER ROLE $ROLE LOGIN CREATEDB PASSWORD '$PASSWORD'; END IF;
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '$READER') THEN CREATE ROLE $READER; END IF;
  END \$\$;"
  # LOGIN: the coordinator reaches the workers as the reader when question answering switched to it.
  psql_node "$port" -c "ALTER ROLE $READER LOGIN PASSWORD '$READER_PASSWORD'; GRANT $READER TO $ROLE"
  # The template has the extensions but not citus: a database with citus keeps a maintenance daemon
  # connected, and a template in use cannot be copied. The tests add citus to each copy (test/helpers/citus.ts).
  for db in "$DATABASE" "$TEMPLATE"; do
    if [ -z "$(psql_node "$port" -c "SELECT 1 FROM pg_database WHERE datname = '$db'")" ]; then
      psql_node "$port" -c "CREATE DATABASE $db OWNER $ROLE"
    fi
    # Once citus is there, a worker refuses DDL from anyone but the coordinator: done the first time only.
    [ -n "$(psql_node "$port" -d "$db" -c "SELECT 1 FROM pg_extension WHERE extname = 'citus'")" ] && continue
    psql_node "$port" -d "$db" -c "CREATE EXTENSION IF NOT EXISTS postgis; CREATE EXTENSION IF NOT EXISTS vector; CREATE EXTENSION IF NOT EXISTS pg_trgm; GRANT ALL ON SCHEMA public TO $ROLE"
  done
  psql_node "$port" -c "ALTER DATABASE $TEMPLATE IS_TEMPLATE true"
  psql_node "$port" -d "$DATABASE" -c "CREATE EXTENSION IF NOT EXISTS citus"
done

# --- the coordinator's metadata: itself (reference tables get a local copy) and the workers -------------
coordinator=$(node_port 0)
psql_node "$coordinator" -d "$DATABASE" -c "SELECT citus_set_coordinator_host('127.0.0.1', $coordinator)" >/dev/null
for i in $(seq 1 "$WORKERS"); do
  port=$(node_port "$i")
  if [ -z "$(psql_node "$coordinator" -d "$DATABASE" -c "SELECT 1 FROM pg_dist_node WHERE nodename = '127.0.0.1' AND nodeport = $port")" ]; then
    log "registering worker $i (port $port)"
    psql_node "$coordinator" -d "$DATABASE" -c "SELECT citus_add_node('127.0.0.1', $port)" >/dev/null
  fi
done
active=$(psql_node "$coordinator" -d "$DATABASE" -c "SELECT count(*) FROM citus_get_active_worker_nodes()")
[ "$active" -ge "$WORKERS" ] || die "the coordinator sees $active active workers, expected $WORKERS"

versions=$(psql_node "$coordinator" -d "$DATABASE" -c "SELECT 'PostgreSQL ' || current_setting('server_version') || ', Citus ' || (SELECT extversion FROM pg_extension WHERE extname = 'citus') || ', PostGIS ' || postgis_lib_version() || ', pgvector ' || (SELECT extversion FROM pg_extension WHERE extname = 'vector')")
log "ready: a coordinator on 127.0.0.1:$coordinator and $WORKERS workers ($versions)"
echo "DATABASE_URL=postgres://$ROLE:$PASSWORD@127.0.0.1:$coordinator/$DATABASE"
echo "CITUS_ADMIN_URL=postgres://postgres:$ADMIN_PASSWORD@127.0.0.1:$coordinator/postgres"
