#!/usr/bin/env python3
"""Build eval/sets/spatial-check*.jsonl from the question spec, with gold computed by SQL
from the raw OpenStreetMap extract (never from the service).

Prerequisites (see eval/sets/README.md):
  ogr2ogr loads ../shared/data/nyc/manhattan-midtown.osm.pbf into PostGIS as osm_points,
  osm_lines, osm_multipolygons (ogr2ogr's OSM driver, osmconf.ini with all_tags=yes so that
  every tag is in one column) and the neighbourhood GeoJSON as nbhd:

    eval/sets/load-midtown.sh            # creates database `checkset` and the tables

Usage:
  python3 eval/sets/build-spatial-check.py [--spec eval/sets/spatial-check.spec.jsonl]
         [--out eval/sets/spatial-check.jsonl] [--db "-h 127.0.0.1 -U postgres -d checkset"]

Gold rules follow ../shared/eval/README.md, "How the gold was computed":
  * a POI is a named feature of osm_points or of osm_multipolygons (its centroid), with all its tags;
  * distances are PostGIS geography distances in metres;
  * within_distance: distance to the reference point <= distance_m; inside: the point/centroid
    intersects the polygon; along: distance to the line <= distance_m; nearest: the k closest;
  * the reference feature itself is excluded; same normalized name < 60 m apart counts once;
  * semantic_ok: every named feature within 3 km of the reference that satisfies the tags.
The script uses psql (no Python driver needed).
"""
import argparse
import hashlib
import gzip
import json
import re
import subprocess
import sys
import unicodedata

ap = argparse.ArgumentParser()
ap.add_argument('--spec', default='eval/sets/spatial-check.spec.jsonl')
ap.add_argument('--out', default='eval/sets/spatial-check.jsonl')
ap.add_argument('--db', default='-h 127.0.0.1 -U postgres -d checkset')
ap.add_argument('--no-split', action='store_true')
args = ap.parse_args()

PSQL = ['psql', '-X', '-q', '-At', '-v', 'ON_ERROR_STOP=1'] + args.db.split()

SETUP = r"""
create or replace function safe_centroid(g geometry) returns geometry as $$
begin
  return ST_Centroid(g);
exception when others then
  return ST_Centroid(ST_MakeValid(g));
end; $$ language plpgsql;
do $$ begin
  if not exists (select 1 from information_schema.columns where table_name='osm_points' and column_name='tags') then
    alter table osm_points add column tags hstore; update osm_points set tags = all_tags::hstore;
    alter table osm_multipolygons add column tags hstore; update osm_multipolygons set tags = all_tags::hstore;
    alter table osm_lines add column tags hstore; update osm_lines set tags = all_tags::hstore;
  end if;
  if not exists (select 1 from pg_tables where tablename='poi') then
    create table poi as
      select 'node/'||osm_id as osm_id, name, tags, geom as pt from osm_points where name is not null
      union all
      select case when osm_way_id is not null then 'way/'||osm_way_id else 'relation/'||osm_id end,
             name, tags, safe_centroid(geom) from osm_multipolygons where name is not null;
    create index on poi using gist(pt);
    create index on poi using gist((pt::geography));
  end if;
end $$;
"""


def sql(query):
    r = subprocess.run(PSQL + ['-c', query], capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f'psql failed: {r.stderr}\n{query}')
    return r.stdout.strip()


def rows(query):
    out = sql(f"select coalesce(json_agg(t), '[]') from ({query}) t")
    return json.loads(out)


def lit(s):
    return "'" + str(s).replace("'", "''") + "'"


def norm(name):
    s = unicodedata.normalize('NFKD', name)
    s = ''.join(c for c in s if not unicodedata.combining(c)).lower().replace('&', 'and')
    return ''.join(c for c in s if c.isalnum())


def tag_filter(tags):
    parts = []
    for key, values in tags:
        if '*' in values:
            parts.append(f"(tags ? {lit(key)} and tags->{lit(key)} not in ('no','none'))")
        else:
            arr = 'ARRAY[' + ','.join(lit(v) for v in values) + ']::text[]'
            parts.append(f"exists (select 1 from unnest(string_to_array(tags->{lit(key)}, ';')) v "
                         f"where trim(v) = any({arr}))")
    return '(' + ' or '.join(parts) + ')'


def resolve_one(source):
    """Return (osm_id or None, name, geometry SQL expression) for one reference source."""
    layer, _, ident = source.partition(':')
    if layer == 'osm_points':
        nid = ident.split('/')[1]
        r = rows(f"select name, ST_AsText(geom) wkt from osm_points where osm_id = {lit(nid)}")
        assert r, source
        return ident, r[0]['name'], f"ST_GeomFromText({lit(r[0]['wkt'])}, 4326)"
    if layer == 'osm_multipolygons':
        kind, oid = ident.split('/')
        cond = f"osm_way_id = {lit(oid)}" if kind == 'way' else f"osm_id = {lit(oid)} and osm_way_id is null"
        r = rows(f"select name, ST_AsText(geom) wkt from osm_multipolygons where {cond}")
        assert r, source
        return ident, r[0]['name'], f"ST_GeomFromText({lit(r[0]['wkt'])}, 4326)"
    if layer == 'nbhd':
        r = rows(f"select name, ST_AsText(geom) wkt from nbhd where slug = {lit(ident)}")
        assert r, source
        return None, r[0]['name'], f"ST_GeomFromText({lit(r[0]['wkt'])}, 4326)"
    if layer == 'osm_lines':
        assert ident.startswith('name='), source
        name = ident[5:]
        r = rows(f"select ST_AsText(ST_Multi(ST_LineMerge(ST_Union(geom)))) wkt, count(*) n "
                 f"from osm_lines where name = {lit(name)}")
        assert r and r[0]['n'] > 0, source
        return None, name, f"ST_GeomFromText({lit(r[0]['wkt'])}, 4326)"
    raise ValueError(source)


def point_of(expr):
    return f"(case when GeometryType({expr}) = 'POINT' then {expr} else safe_centroid({expr}) end)"


def resolve(spec):
    src = spec['reference']['source']
    rel = spec['spatial']['relation']
    if '|' in src:
        a, b = [resolve_one(s) for s in src.split('|')]
        geom = f"ST_MakeLine({point_of(a[2])}, {point_of(b[2])})"
        return [a[0], b[0]], [a[1], b[1]], geom
    oid, name, g = resolve_one(src)
    if rel in ('within_distance', 'nearest'):
        g = point_of(g)
    return [oid] if oid else [], [name], g


def round_coords(c):
    if isinstance(c, (int, float)):
        return round(c, 7)
    return [round_coords(x) for x in c]


def dedup(items):
    kept = []
    for it in items:
        n = norm(it['name'])
        if any(norm(k['name']) == n and geo_close(k, it) for k in kept):
            continue
        kept.append(it)
    return kept


def geo_close(a, b, m=60.0):
    import math
    lat1, lon1, lat2, lon2 = map(math.radians, (a['lat'], a['lon'], b['lat'], b['lon']))
    h = math.sin((lat2 - lat1) / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2
    return 2 * 6371008.8 * math.asin(math.sqrt(h)) < m


def build(spec):
    ref_ids, ref_names, gexpr = resolve(spec)
    rel = spec['spatial']['relation']
    dist = spec['spatial'].get('distance_m')
    k = spec['spatial'].get('k')
    geo = rows(f"select ST_AsGeoJSON({gexpr}, 7)::json g")[0]['g']
    ref_norms = [norm(n) for n in ref_names + spec['reference'].get('aliases', [])]
    q = f"""
      with ref as (select {gexpr} g)
      select osm_id, name, round(ST_X(pt)::numeric, 7)::float lon, round(ST_Y(pt)::numeric, 7)::float lat,
             ST_Distance(pt::geography, ref.g::geography) d,
             ST_Intersects(pt, ref.g) inside
      from poi, ref
      where {tag_filter(spec['semantic']['tags'])}
        and ST_DWithin(pt::geography, ref.g::geography, 3000)
      order by d, osm_id"""
    cands = rows(q)
    # the reference itself: its own feature(s), and same-named features within 200 m of it
    cands = [c for c in cands if c['osm_id'] not in ref_ids
             and not (norm(c['name']) in ref_norms and c['d'] <= 200)]
    if rel == 'inside':
        for c in cands:
            c['d'] = 0.0 if c['inside'] else c['d']
        cands.sort(key=lambda c: (c['d'], c['osm_id']))
    sem = dedup(cands)
    if rel == 'within_distance' or rel == 'along':
        gold = [c for c in sem if c['d'] <= dist]
    elif rel == 'inside':
        gold = [c for c in sem if c['inside']]
    elif rel == 'nearest':
        gold = sem[:k]
    else:
        raise ValueError(rel)
    out = {
        'id': spec['id'], 'question': spec['question'], 'lang': spec['lang'], 'type': spec['type'],
        'reference': {'names': ref_names + spec['reference'].get('aliases', []),
                      'geometry': {'type': geo['type'], 'coordinates': round_coords(geo['coordinates'])},
                      'source': spec['reference']['source']},
        'spatial': {'relation': rel, 'distance_m': dist if rel in ('within_distance', 'along') else None,
                    'k': k if rel == 'nearest' else None},
        'semantic': {'description': spec['semantic']['description'], 'tags': spec['semantic']['tags']},
        'gold': [{'name': c['name'], 'lon': c['lon'], 'lat': c['lat'], 'osm_id': c['osm_id'],
                  'distance_m': round(c['d'], 1)} for c in gold],
        'semantic_ok': [{'name': c['name'], 'lon': c['lon'], 'lat': c['lat'], 'osm_id': c['osm_id']} for c in sem],
    }
    return out


def split(items):
    """Fixed split rule: within each (type, lang) group, order the items by sha256(id) and put
    every other one (positions 0, 2, 4, ...) in the tuning half, the rest in the check half."""
    tuning = set()
    groups = {}
    for it in items:
        groups.setdefault((it['type'], it['lang']), []).append(it['id'])
    for ids in groups.values():
        ids.sort(key=lambda i: hashlib.sha256(i.encode()).hexdigest())
        tuning.update(ids[0::2])
    return ([it for it in items if it['id'] in tuning], [it for it in items if it['id'] not in tuning])


def main():
    sql(SETUP)
    specs = [json.loads(l) for l in open(args.spec, encoding='utf-8') if l.strip()]
    out, empty = [], []
    for s in specs:
        item = build(s)
        if not item['gold']:
            empty.append(s['id'])
        out.append(item)
        print(f"{s['id']} {s['type']:8} {s['lang']} gold={len(item['gold']):3} ok={len(item['semantic_ok']):4} "
              f"{s['question'][:70]}", file=sys.stderr)
    ids = [o['id'] for o in out]
    assert len(ids) == len(set(ids)), 'duplicate ids'

    def dump(path, items):
        # gzip (mtime 0, so a rebuild gives the same bytes): the gold lists make each file several MB.
        with gzip.GzipFile(path + '.gz', 'wb', mtime=0) as f:
            for it in items:
                f.write((json.dumps(it, ensure_ascii=False) + '\n').encode('utf-8'))

    dump(args.out, out)
    if not args.no_split:
        base = re.sub(r'\.jsonl$', '', args.out)
        tuning, check = split(out)
        dump(base + '.tuning.jsonl', tuning)
        dump(base + '.check.jsonl', check)
    if empty:
        sys.exit(f'questions with empty gold: {empty}')


main()
