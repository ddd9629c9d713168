-- all pools, with query vectors

    WITH tagged AS MATERIALIZED (
      SELECT p.id FROM places p WHERE p.name IS NOT NULL AND coalesce(p.category, '') <> 'street' AND coalesce(p.category, '') <> 'country' AND (CASE WHEN (p.tags->>'population') ~ '^[0-9]{1,12}$' THEN (p.tags->>'population')::bigint END) IS NOT NULL
        AND NOT (p.id = ANY($1::bigint[])) AND NOT (p.name = ANY($2::text[])) AND (p.geom && ST_MakeEnvelope($3, $4, $5, $6, 4326)) AND (p.tag_tokens && $7::text[] OR p.category = ANY($8::text[])) AND ST_Intersects(ST_PointOnSurface(p.geom), ST_SetSRID(ST_GeomFromGeoJSON($9), 4326))
      ORDER BY (CASE WHEN (p.tags->>'population') ~ '^[0-9]{1,12}$' THEN (p.tags->>'population')::bigint END) DESC NULLS LAST, p.geom <-> ST_SetSRID(ST_GeomFromGeoJSON($10), 4326) LIMIT $11
    ), pool AS (
      (SELECT p.id FROM places p WHERE p.name IS NOT NULL AND coalesce(p.category, '') <> 'street' AND coalesce(p.category, '') <> 'country' AND (CASE WHEN (p.tags->>'population') ~ '^[0-9]{1,12}$' THEN (p.tags->>'population')::bigint END) IS NOT NULL
        AND NOT (p.id = ANY($12::bigint[])) AND NOT (p.name = ANY($13::text[])) AND (p.geom && ST_MakeEnvelope($14, $15, $16, $17, 4326)) AND ST_Intersects(ST_PointOnSurface(p.geom), ST_SetSRID(ST_GeomFromGeoJSON($18), 4326))
       ORDER BY (CASE WHEN (p.tags->>'population') ~ '^[0-9]{1,12}$' THEN (p.tags->>'population')::bigint END) DESC NULLS LAST, p.geom <-> ST_SetSRID(ST_GeomFromGeoJSON($19), 4326) LIMIT $20)
      UNION
      SELECT id FROM tagged
      UNION
      (SELECT s.id FROM (
         SELECT p.id, p.embedding, p.embedding_model, (p.geom && ST_MakeEnvelope($21, $22, $23, $24, 4326)) AS in_window FROM places p WHERE (SELECT count(*) FROM tagged) < $25 AND p.name IS NOT NULL AND coalesce(p.category, '') <> 'street' AND coalesce(p.category, '') <> 'country' AND (CASE WHEN (p.tags->>'population') ~ '^[0-9]{1,12}$' THEN (p.tags->>'population')::bigint END) IS NOT NULL
        AND NOT (p.id = ANY($26::bigint[])) AND NOT (p.name = ANY($27::text[]))
         ORDER BY p.geom <-> ST_SetSRID(ST_GeomFromGeoJSON($28), 4326) LIMIT $29) AS s
       WHERE s.in_window AND s.embedding_model = $30
       ORDER BY s.embedding <=> $31::vector LIMIT $32)
    ), measured AS MATERIALIZED (
      SELECT p.id, ARRAY[ST_Distance(ST_Affine(p.geom, $33, 0, 0, $34, 0, 0), ST_SetSRID(ST_GeomFromGeoJSON($35), 4326))]::float8[] AS distances
      FROM places p JOIN pool USING (id)
    ), candidates AS (
      SELECT p.id, p.source_id, p.name, p.category, NULL::text AS description, p.geom,
             m.distances, m.distances[1] AS d0,
             ARRAY[ST_Intersects(ST_PointOnSurface(p.geom), ST_SetSRID(ST_GeomFromGeoJSON($36), 4326))]::boolean[] AS satisfied,
             m.id IN (SELECT id FROM tagged) AS tag_match,
             CASE WHEN p.embedding_model = $37 THEN 1 - (p.embedding <=> $38::vector) END AS sem_sim,
             CASE WHEN p.embedding_model = $39 THEN 1 - (p.embedding <=> $40::vector) END AS spa_sim,
             (CASE WHEN (p.tags->>'population') ~ '^[0-9]{1,12}$' THEN (p.tags->>'population')::bigint END) AS population
      FROM measured m JOIN places p USING (id)
      WHERE m.distances[1] <= $41
      ORDER BY (ST_Intersects(ST_PointOnSurface(p.geom), ST_SetSRID(ST_GeomFromGeoJSON($42), 4326))) DESC, tag_match DESC, population DESC NULLS LAST, d0 ASC, p.source_id
      LIMIT $43
    )
    SELECT id, source_id, name, category, description,
           ST_XMin(geom) AS x0, ST_YMin(geom) AS y0, ST_XMax(geom) AS x1, ST_YMax(geom) AS y1,
           distances, satisfied, tag_match, sem_sim, spa_sim, population, (SELECT count(*) FROM tagged)::int AS tagged_n
    FROM candidates
-- parameters: [[950],["Square Park"],-73.98679205203106,40.750642533936656,-73.97920794796893,40.75635746606335,["place=city","place=town"],["city","town"],"{\"type\":\"Polygon\",\"coordinates\":[[[-73.985,40.752],[-73.981,40.752],[-73.981,40.755],[-73.985,40.755],[-73.985,40.752]]]}","{\"type\":\"Point\",\"coordinates\":[-73.983,40.7535]}",200,[950],["Square Park"],-73.98679205203106,40.750642533936656,-73.97920794796893,40.75635746606335,"{\"type\":\"Polygon\",\"coordinates\":[[[-73.985,40.752],[-73.981,40.752],[-73.981,40.755],[-73.985,40.755],[-73.985,40.752]]]}","{\"type\":\"Point\",\"coordinates\":[-73.983,40.7535]}",100,-73.985,40.752,-73.981,40.755,25,[950],["Square Park"],"{\"type\":\"Point\",\"coordinates\":[-73.983,40.7535]}",600,"test-model","[1,0,0]",150,84233.06517926088,111195.08023353292,"{\"type\":\"Polygon\",\"coordinates\":[[[-6231983.327287616,4531421.909676934],[-6231646.395026899,4531421.909676934],[-6231646.395026899,4531755.494917635],[-6231983.327287616,4531755.494917635],[-6231983.327287616,4531421.909676934]]]}","{\"type\":\"Polygon\",\"coordinates\":[[[-73.985,40.752],[-73.981,40.752],[-73.981,40.755],[-73.985,40.755],[-73.985,40.752]]]}","test-model","[1,0,0]","test-model","[0,1,0]",150,"{\"type\":\"Polygon\",\"coordinates\":[[[-73.985,40.752],[-73.981,40.752],[-73.981,40.755],[-73.985,40.755],[-73.985,40.752]]]}",400]

-- tagged pool alone, rare targets

    WITH tagged AS MATERIALIZED (
      SELECT p.id FROM places p WHERE p.name IS NOT NULL AND coalesce(p.category, '') <> 'street' AND coalesce(p.category, '') <> 'country' AND (CASE WHEN (p.tags->>'population') ~ '^[0-9]{1,12}$' THEN (p.tags->>'population')::bigint END) IS NOT NULL
        AND NOT (p.id = ANY($1::bigint[])) AND NOT (p.name = ANY($2::text[])) AND (p.tag_tokens && $3::text[] OR p.category = ANY($4::text[])) AND ((p.geom && ST_MakeEnvelope($5, $6, $7, $8, 4326))) IS TRUE AND ST_Intersects(ST_PointOnSurface(p.geom), ST_SetSRID(ST_GeomFromGeoJSON($9), 4326))
      ORDER BY (CASE WHEN (p.tags->>'population') ~ '^[0-9]{1,12}$' THEN (p.tags->>'population')::bigint END) DESC NULLS LAST, p.geom <-> ST_SetSRID(ST_GeomFromGeoJSON($10), 4326) LIMIT $11
    ), pool AS (
      SELECT id FROM tagged
    ), measured AS MATERIALIZED (
      SELECT p.id, ARRAY[ST_Distance(ST_Affine(p.geom, $12, 0, 0, $13, 0, 0), ST_SetSRID(ST_GeomFromGeoJSON($14), 4326))]::float8[] AS distances
      FROM places p JOIN pool USING (id)
    ), candidates AS (
      SELECT p.id, p.source_id, p.name, p.category, NULL::text AS description, p.geom,
             m.distances, m.distances[1] AS d0,
             ARRAY[ST_Intersects(ST_PointOnSurface(p.geom), ST_SetSRID(ST_GeomFromGeoJSON($15), 4326))]::boolean[] AS satisfied,
             m.id IN (SELECT id FROM tagged) AS tag_match,
             CASE WHEN p.embedding_model = $16 THEN 1 - (p.embedding <=> $17::vector) END AS sem_sim,
             CASE WHEN p.embedding_model = $18 THEN 1 - (p.embedding <=> $19::vector) END AS spa_sim,
             (CASE WHEN (p.tags->>'population') ~ '^[0-9]{1,12}$' THEN (p.tags->>'population')::bigint END) AS population
      FROM measured m JOIN places p USING (id)
      WHERE m.distances[1] <= $20
      ORDER BY (ST_Intersects(ST_PointOnSurface(p.geom), ST_SetSRID(ST_GeomFromGeoJSON($21), 4326))) DESC, tag_match DESC, population DESC NULLS LAST, d0 ASC, p.source_id
      LIMIT $22
    )
    SELECT id, source_id, name, category, description,
           ST_XMin(geom) AS x0, ST_YMin(geom) AS y0, ST_XMax(geom) AS x1, ST_YMax(geom) AS y1,
           distances, satisfied, tag_match, sem_sim, spa_sim, population, (SELECT count(*) FROM tagged)::int AS tagged_n
    FROM candidates
-- parameters: [[950],["Square Park"],["place=city","place=town"],["city","town"],-73.98679205203106,40.750642533936656,-73.97920794796893,40.75635746606335,"{\"type\":\"Polygon\",\"coordinates\":[[[-73.985,40.752],[-73.981,40.752],[-73.981,40.755],[-73.985,40.755],[-73.985,40.752]]]}","{\"type\":\"Point\",\"coordinates\":[-73.983,40.7535]}",200,84233.06517926088,111195.08023353292,"{\"type\":\"Polygon\",\"coordinates\":[[[-6231983.327287616,4531421.909676934],[-6231646.395026899,4531421.909676934],[-6231646.395026899,4531755.494917635],[-6231983.327287616,4531755.494917635],[-6231983.327287616,4531421.909676934]]]}","{\"type\":\"Polygon\",\"coordinates\":[[[-73.985,40.752],[-73.981,40.752],[-73.981,40.755],[-73.985,40.755],[-73.985,40.752]]]}","test-model","[1,0,0]","test-model","[0,1,0]",150,"{\"type\":\"Polygon\",\"coordinates\":[[[-73.985,40.752],[-73.981,40.752],[-73.981,40.755],[-73.985,40.755],[-73.985,40.752]]]}",400]

-- all pools, without query vectors

    WITH tagged AS MATERIALIZED (
      SELECT p.id FROM places p WHERE p.name IS NOT NULL AND coalesce(p.category, '') <> 'street' AND coalesce(p.category, '') <> 'country' AND (CASE WHEN (p.tags->>'population') ~ '^[0-9]{1,12}$' THEN (p.tags->>'population')::bigint END) IS NOT NULL
        AND NOT (p.id = ANY($1::bigint[])) AND NOT (p.name = ANY($2::text[])) AND (p.geom && ST_MakeEnvelope($3, $4, $5, $6, 4326)) AND (p.tag_tokens && $7::text[] OR p.category = ANY($8::text[])) AND ST_Intersects(ST_PointOnSurface(p.geom), ST_SetSRID(ST_GeomFromGeoJSON($9), 4326))
      ORDER BY (CASE WHEN (p.tags->>'population') ~ '^[0-9]{1,12}$' THEN (p.tags->>'population')::bigint END) DESC NULLS LAST, p.geom <-> ST_SetSRID(ST_GeomFromGeoJSON($10), 4326) LIMIT $11
    ), pool AS (
      (SELECT p.id FROM places p WHERE p.name IS NOT NULL AND coalesce(p.category, '') <> 'street' AND coalesce(p.category, '') <> 'country' AND (CASE WHEN (p.tags->>'population') ~ '^[0-9]{1,12}$' THEN (p.tags->>'population')::bigint END) IS NOT NULL
        AND NOT (p.id = ANY($12::bigint[])) AND NOT (p.name = ANY($13::text[])) AND (p.geom && ST_MakeEnvelope($14, $15, $16, $17, 4326)) AND ST_Intersects(ST_PointOnSurface(p.geom), ST_SetSRID(ST_GeomFromGeoJSON($18), 4326))
       ORDER BY (CASE WHEN (p.tags->>'population') ~ '^[0-9]{1,12}$' THEN (p.tags->>'population')::bigint END) DESC NULLS LAST, p.geom <-> ST_SetSRID(ST_GeomFromGeoJSON($19), 4326) LIMIT $20)
      UNION
      SELECT id FROM tagged
      
    ), measured AS MATERIALIZED (
      SELECT p.id, ARRAY[ST_Distance(ST_Affine(p.geom, $21, 0, 0, $22, 0, 0), ST_SetSRID(ST_GeomFromGeoJSON($23), 4326))]::float8[] AS distances
      FROM places p JOIN pool USING (id)
    ), candidates AS (
      SELECT p.id, p.source_id, p.name, p.category, p.description AS description, p.geom,
             m.distances, m.distances[1] AS d0,
             ARRAY[ST_Intersects(ST_PointOnSurface(p.geom), ST_SetSRID(ST_GeomFromGeoJSON($24), 4326))]::boolean[] AS satisfied,
             m.id IN (SELECT id FROM tagged) AS tag_match,
             NULL::float8 AS sem_sim,
             NULL::float8 AS spa_sim,
             (CASE WHEN (p.tags->>'population') ~ '^[0-9]{1,12}$' THEN (p.tags->>'population')::bigint END) AS population
      FROM measured m JOIN places p USING (id)
      WHERE m.distances[1] <= $25
      ORDER BY (ST_Intersects(ST_PointOnSurface(p.geom), ST_SetSRID(ST_GeomFromGeoJSON($26), 4326))) DESC, tag_match DESC, population DESC NULLS LAST, d0 ASC, p.source_id
      LIMIT $27
    )
    SELECT id, source_id, name, category, description,
           ST_XMin(geom) AS x0, ST_YMin(geom) AS y0, ST_XMax(geom) AS x1, ST_YMax(geom) AS y1,
           distances, satisfied, tag_match, sem_sim, spa_sim, population, (SELECT count(*) FROM tagged)::int AS tagged_n
    FROM candidates
-- parameters: [[950],["Square Park"],-73.98679205203106,40.750642533936656,-73.97920794796893,40.75635746606335,["place=city","place=town"],["city","town"],"{\"type\":\"Polygon\",\"coordinates\":[[[-73.985,40.752],[-73.981,40.752],[-73.981,40.755],[-73.985,40.755],[-73.985,40.752]]]}","{\"type\":\"Point\",\"coordinates\":[-73.983,40.7535]}",200,[950],["Square Park"],-73.98679205203106,40.750642533936656,-73.97920794796893,40.75635746606335,"{\"type\":\"Polygon\",\"coordinates\":[[[-73.985,40.752],[-73.981,40.752],[-73.981,40.755],[-73.985,40.755],[-73.985,40.752]]]}","{\"type\":\"Point\",\"coordinates\":[-73.983,40.7535]}",100,84233.06517926088,111195.08023353292,"{\"type\":\"Polygon\",\"coordinates\":[[[-6231983.327287616,4531421.909676934],[-6231646.395026899,4531421.909676934],[-6231646.395026899,4531755.494917635],[-6231983.327287616,4531755.494917635],[-6231983.327287616,4531421.909676934]]]}","{\"type\":\"Polygon\",\"coordinates\":[[[-73.985,40.752],[-73.981,40.752],[-73.981,40.755],[-73.985,40.755],[-73.985,40.752]]]}",150,"{\"type\":\"Polygon\",\"coordinates\":[[[-73.985,40.752],[-73.981,40.752],[-73.981,40.755],[-73.985,40.755],[-73.985,40.752]]]}",400]
