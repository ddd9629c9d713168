#!/bin/sh
# Load the Midtown OSM extract and the neighbourhood polygons into PostGIS database `checkset`
# for eval/sets/build-spatial-check.py. Needs gdal-bin (ogr2ogr) and PostGIS.
# Usage: sh eval/sets/load-midtown.sh [../shared/data/nyc]
set -e
DATA=${1:-../shared/data/nyc}
PGARGS=${PGARGS:-"-h 127.0.0.1 -U postgres"}
PG="PG:host=${PGHOST:-127.0.0.1} user=${PGUSER:-postgres} dbname=checkset"
psql $PGARGS -d postgres -c "drop database if exists checkset" -c "create database checkset"
psql $PGARGS -d checkset -c "create extension postgis" -c "create extension hstore"
# ogr2ogr's default osmconf.ini, with all_tags=yes so every tag is kept in one column
CONF=$(mktemp --suffix .ini)
sed 's/^#\{0,1\}all_tags=.*/all_tags=yes/' "$(gdal-config --datadir 2>/dev/null || echo /usr/share/gdal)/osmconf.ini" > "$CONF"
ogr2ogr -f PostgreSQL "$PG" "$DATA/manhattan-midtown.osm.pbf" -oo CONFIG_FILE="$CONF" \
  -lco GEOMETRY_NAME=geom points lines multipolygons -overwrite
rm -f "$CONF"
psql $PGARGS -d checkset -c "alter table points rename to osm_points" \
  -c "alter table lines rename to osm_lines" -c "alter table multipolygons rename to osm_multipolygons"
ogr2ogr -f PostgreSQL "$PG" "$DATA/nyc-neighborhood-boundaries.geojson" -nln nbhd -lco GEOMETRY_NAME=geom -overwrite
