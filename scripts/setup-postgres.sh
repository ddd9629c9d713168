#!/usr/bin/env bash
# Installs and starts PostgreSQL 15 + PostGIS + pgvector on Debian bookworm, and creates the role and
# databases the service and its tests use. Idempotent; run as root. Prints the DATABASE_URL to use.
# Works when a cluster already runs on 127.0.0.1:5432 (it is reused, not replaced).
set -euo pipefail

PG_MAJOR=${PG_MAJOR:-15}
ROLE=${SRAG_DB_ROLE:-spatial_rag}
PASSWORD=${SRAG_DB_PASSWORD:-spatial_rag}
DATABASE=${SRAG_DB_NAME:-spatial_rag}
TEMPLATE=${SRAG_DB_TEMPLATE:-spatial_rag_template}
PG_BIN=/usr/lib/postgresql/$PG_MAJOR/bin
EXT_DIR=/usr/share/postgresql/$PG_MAJOR/extension

log() { echo "setup-postgres: $*" >&2; }

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

# pgvector: bookworm has no binary package; build Debian trixie's source package against our server.
if [ ! -f "$EXT_DIR/vector.control" ]; then
  apt_install "postgresql-server-dev-$PG_MAJOR" build-essential dpkg-dev
  work=$(mktemp -d)
  chmod 755 "$work"  # apt downloads as the _apt user
  # A private apt configuration, so the machine's own sources and lists stay untouched.
  mkdir -p "$work/lists/partial"
  echo "deb-src http://deb.debian.org/debian trixie main" > "$work/sources.list"
  apt_opts=(-o "Dir::Etc::SourceList=$work/sources.list" -o "Dir::Etc::SourceParts=-" -o "Dir::State::Lists=$work/lists")
  log "building pgvector from Debian's source package"
  apt-get "${apt_opts[@]}" update -qq
  (cd "$work" && apt-get "${apt_opts[@]}" source --download-only -qq pgvector >/dev/null)
  (cd "$work" && dpkg-source -x --no-check ./pgvector_*.dsc src >/dev/null)
  make -s -C "$work/src" PG_CONFIG="$PG_BIN/pg_config" >/dev/null
  make -s -C "$work/src" PG_CONFIG="$PG_BIN/pg_config" install >/dev/null
  rm -rf "$work"
fi

# Start the cluster (create one when the machine has none).
if ! pg_lsclusters -h | awk -v v="$PG_MAJOR" '$1 == v && $2 == "main"' | grep -q .; then
  log "creating cluster $PG_MAJOR/main"
  pg_createcluster "$PG_MAJOR" main >/dev/null
fi
if ! pg_lsclusters -h | awk -v v="$PG_MAJOR" '$1 == v && $2 == "main" && $4 == "online"' | grep -q .; then
  log "starting cluster $PG_MAJOR/main"
  pg_ctlcluster --skip-systemctl-redirect "$PG_MAJOR" main start
fi
for _ in $(seq 1 30); do
  runuser -u postgres -- psql -qAtc 'SELECT 1' >/dev/null 2>&1 && break
  sleep 1
done

psql_admin() { runuser -u postgres -- psql -v ON_ERROR_STOP=1 -qAt "$@"; }

psql_admin -c "DO \$\$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '$ROLE') THEN
    CREATE ROLE $ROLE LOGIN CREATEDB PASSWORD '$PASSWORD';
  ELSE
    ALTER ROLE $ROLE LOGIN CREATEDB PASSWORD '$PASSWORD';
  END IF;
END \$\$;"

# The SELECT-only role that question answering switches to in server mode (migrations/0003 grants it).
psql_admin -c "DO \$\$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'srag_reader') THEN CREATE ROLE srag_reader NOLOGIN; END IF;
END \$\$;"
psql_admin -c "GRANT srag_reader TO $ROLE"

# The extensions are created by the superuser here (PostGIS is not a trusted extension); the service's
# migrations then find them present. The template lets tests clone a fresh database per test file.
for db in "$DATABASE" "$TEMPLATE"; do
  if [ -z "$(psql_admin -c "SELECT 1 FROM pg_database WHERE datname = '$db'")" ]; then
    psql_admin -c "CREATE DATABASE $db OWNER $ROLE"
  fi
  psql_admin -d "$db" -c "CREATE EXTENSION IF NOT EXISTS postgis; CREATE EXTENSION IF NOT EXISTS vector; CREATE EXTENSION IF NOT EXISTS pg_trgm;"
  psql_admin -d "$db" -c "GRANT ALL ON SCHEMA public TO $ROLE"
done
psql_admin -c "ALTER DATABASE $TEMPLATE IS_TEMPLATE true"

versions=$(psql_admin -d "$DATABASE" -c "SELECT 'PostgreSQL ' || current_setting('server_version') || ', PostGIS ' || postgis_lib_version() || ', pgvector ' || (SELECT extversion FROM pg_extension WHERE extname = 'vector')")
log "ready: $versions"
echo "DATABASE_URL=postgres://$ROLE:$PASSWORD@127.0.0.1:5432/$DATABASE"
