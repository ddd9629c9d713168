-- all pools, with query vectors

    WITH tagged AS MATERIALIZED (
      SELECT p.id FROM places p WHERE p.name IS NOT NULL AND coalesce(p.category, '') <> 'street' AND coalesce(p.category, '') <> 'country'
        AND NOT (p.id = ANY($1::bigint[])) AND NOT (p.name = ANY($2::text[])) AND (p.geom && ST_MakeEnvelope($3, $4, $5, $6, 4326)) AND (p.tag_tokens && $7::text[] OR p.category = ANY($8::text[])) AND ST_DWithin(ST_Affine(p.geom, $9, 0, 0, $10, 0, 0), ST_SetSRID(ST_GeomFromGeoJSON($11), 4326), $12) AND (p.tag_tokens @> ARRAY[$13]::text[] OR (NOT (p.tags ? 'country_code') AND ST_Intersects(p.geom, ST_SetSRID(ST_GeomFromGeoJSON($14), 4326)) AND ST_Intersects(ST_PointOnSurface(p.geom), ST_SetSRID(ST_GeomFromGeoJSON($15), 4326))))
      ORDER BY p.geom <-> ST_SetSRID(ST_GeomFromGeoJSON($16), 4326) LIMIT $17
    ), pool AS (
      (SELECT p.id FROM places p WHERE p.name IS NOT NULL AND coalesce(p.category, '') <> 'street' AND coalesce(p.category, '') <> 'country'
        AND NOT (p.id = ANY($18::bigint[])) AND NOT (p.name = ANY($19::text[])) AND (p.geom && ST_MakeEnvelope($20, $21, $22, $23, 4326)) AND ST_DWithin(ST_Affine(p.geom, $24, 0, 0, $25, 0, 0), ST_SetSRID(ST_GeomFromGeoJSON($26), 4326), $27) AND (p.tag_tokens @> ARRAY[$28]::text[] OR (NOT (p.tags ? 'country_code') AND ST_Intersects(p.geom, ST_SetSRID(ST_GeomFromGeoJSON($29), 4326)) AND ST_Intersects(ST_PointOnSurface(p.geom), ST_SetSRID(ST_GeomFromGeoJSON($30), 4326))))
       ORDER BY p.geom <-> ST_SetSRID(ST_GeomFromGeoJSON($31), 4326) LIMIT $32)
      UNION
      SELECT id FROM tagged
      UNION
      (SELECT s.id FROM (
         SELECT p.id, p.embedding, p.embedding_model, (p.geom && ST_MakeEnvelope($33, $34, $35, $36, 4326)) AS in_window FROM places p WHERE (SELECT count(*) FROM tagged) < $37 AND p.name IS NOT NULL AND coalesce(p.category, '') <> 'street' AND coalesce(p.category, '') <> 'country'
        AND NOT (p.id = ANY($38::bigint[])) AND NOT (p.name = ANY($39::text[]))
         ORDER BY p.geom <-> ST_SetSRID(ST_GeomFromGeoJSON($40), 4326) LIMIT $41) AS s
       WHERE s.in_window AND s.embedding_model = $42
       ORDER BY s.embedding <=> $43::vector LIMIT $44)
    ), measured AS MATERIALIZED (
      SELECT p.id, ARRAY[ST_Distance(ST_Affine(p.geom, $45, 0, 0, $46, 0, 0), ST_SetSRID(ST_GeomFromGeoJSON($47), 4326)), (CASE WHEN p.tag_tokens @> ARRAY[$48]::text[] THEN 0 ELSE ST_Distance(ST_Affine(p.geom, $49, 0, 0, $50, 0, 0), ST_SetSRID(ST_GeomFromGeoJSON($51), 4326)) END)]::float8[] AS distances
      FROM places p JOIN pool USING (id)
    ), candidates AS (
      SELECT p.id, p.source_id, p.name, p.category, NULL::text AS description, p.geom,
             m.distances, m.distances[1] AS d0,
             ARRAY[ST_DWithin(ST_Affine(p.geom, $52, 0, 0, $53, 0, 0), ST_SetSRID(ST_GeomFromGeoJSON($54), 4326), $55), (p.tag_tokens @> ARRAY[$56]::text[] OR (NOT (p.tags ? 'country_code') AND ST_Intersects(p.geom, ST_SetSRID(ST_GeomFromGeoJSON($57), 4326)) AND ST_Intersects(ST_PointOnSurface(p.geom), ST_SetSRID(ST_GeomFromGeoJSON($58), 4326))))]::boolean[] AS satisfied,
             m.id IN (SELECT id FROM tagged) AS tag_match,
             CASE WHEN p.embedding_model = $59 THEN 1 - (p.embedding <=> $60::vector) END AS sem_sim,
             CASE WHEN p.embedding_model = $61 THEN 1 - (p.embedding <=> $62::vector) END AS spa_sim,
             NULL::bigint AS population
      FROM measured m JOIN places p USING (id)
      WHERE m.distances[1] <= $63 AND m.distances[2] <= $64
      ORDER BY (ST_DWithin(ST_Affine(p.geom, $65, 0, 0, $66, 0, 0), ST_SetSRID(ST_GeomFromGeoJSON($67), 4326), $68) AND (p.tag_tokens @> ARRAY[$69]::text[] OR (NOT (p.tags ? 'country_code') AND ST_Intersects(p.geom, ST_SetSRID(ST_GeomFromGeoJSON($70), 4326)) AND ST_Intersects(ST_PointOnSurface(p.geom), ST_SetSRID(ST_GeomFromGeoJSON($71), 4326))))) DESC, tag_match DESC, sem_sim DESC NULLS LAST, d0 ASC, p.source_id
      LIMIT $72
    )
    SELECT id, source_id, name, category, description,
           ST_XMin(geom) AS x0, ST_YMin(geom) AS y0, ST_XMax(geom) AS x1, ST_YMax(geom) AS y1,
           distances, satisfied, tag_match, sem_sim, spa_sim, population, (SELECT count(*) FROM tagged)::int AS tagged_n
    FROM candidates
-- parameters: [[950],["Square Park"],-73.98679205203106,40.750642533936656,-73.97920794796893,40.75635746606335,["amenity=cafe"],["cafe"],84233.06517926088,111195.08023353292,"{\"type\":\"MultiLineString\",\"coordinates\":[[[-6231983.327287616,4531421.909676934],[-6231983.327287616,4531755.494917635],[-6231646.395026899,4531755.494917635]]]}",120,"country_code=QQ","{\"type\":\"Polygon\",\"coordinates\":[[[-73.985,40.752],[-73.981,40.752],[-73.981,40.755],[-73.985,40.755],[-73.985,40.752]]]}","{\"type\":\"Polygon\",\"coordinates\":[[[-73.985,40.752],[-73.981,40.752],[-73.981,40.755],[-73.985,40.755],[-73.985,40.752]]]}","{\"type\":\"Point\",\"coordinates\":[-73.983,40.7535]}",200,[950],["Square Park"],-73.98679205203106,40.750642533936656,-73.97920794796893,40.75635746606335,84233.06517926088,111195.08023353292,"{\"type\":\"MultiLineString\",\"coordinates\":[[[-6231983.327287616,4531421.909676934],[-6231983.327287616,4531755.494917635],[-6231646.395026899,4531755.494917635]]]}",120,"country_code=QQ","{\"type\":\"Polygon\",\"coordinates\":[[[-73.985,40.752],[-73.981,40.752],[-73.981,40.755],[-73.985,40.755],[-73.985,40.752]]]}","{\"type\":\"Polygon\",\"coordinates\":[[[-73.985,40.752],[-73.981,40.752],[-73.981,40.755],[-73.985,40.755],[-73.985,40.752]]]}","{\"type\":\"Point\",\"coordinates\":[-73.983,40.7535]}",100,-73.985,40.752,-73.981,40.755,25,[950],["Square Park"],"{\"type\":\"Point\",\"coordinates\":[-73.983,40.7535]}",600,"test-model","[1,0,0]",150,84233.06517926088,111195.08023353292,"{\"type\":\"MultiLineString\",\"coordinates\":[[[-6231983.327287616,4531421.909676934],[-6231983.327287616,4531755.494917635],[-6231646.395026899,4531755.494917635]]]}","country_code=QQ",84233.06517926088,111195.08023353292,"{\"type\":\"Polygon\",\"coordinates\":[[[-6231983.327287616,4531421.909676934],[-6231646.395026899,4531421.909676934],[-6231646.395026899,4531755.494917635],[-6231983.327287616,4531755.494917635],[-6231983.327287616,4531421.909676934]]]}",84233.06517926088,111195.08023353292,"{\"type\":\"MultiLineString\",\"coordinates\":[[[-6231983.327287616,4531421.909676934],[-6231983.327287616,4531755.494917635],[-6231646.395026899,4531755.494917635]]]}",120,"country_code=QQ","{\"type\":\"Polygon\",\"coordinates\":[[[-73.985,40.752],[-73.981,40.752],[-73.981,40.755],[-73.985,40.755],[-73.985,40.752]]]}","{\"type\":\"Polygon\",\"coordinates\":[[[-73.985,40.752],[-73.981,40.752],[-73.981,40.755],[-73.985,40.755],[-73.985,40.752]]]}","test-model","[1,0,0]","test-model","[0,1,0]",220,150,84233.06517926088,111195.08023353292,"{\"type\":\"MultiLineString\",\"coordinates\":[[[-6231983.327287616,4531421.909676934],[-6231983.327287616,4531755.494917635],[-6231646.395026899,4531755.494917635]]]}",120,"country_code=QQ","{\"type\":\"Polygon\",\"coordinates\":[[[-73.985,40.752],[-73.981,40.752],[-73.981,40.755],[-73.985,40.755],[-73.985,40.752]]]}","{\"type\":\"Polygon\",\"coordinates\":[[[-73.985,40.752],[-73.981,40.752],[-73.981,40.755],[-73.985,40.755],[-73.985,40.752]]]}",400]

-- tagged pool alone, rare targets

    WITH tagged AS MATERIALIZED (
      SELECT p.id FROM places p WHERE p.name IS NOT NULL AND coalesce(p.category, '') <> 'street' AND coalesce(p.category, '') <> 'country'
        AND NOT (p.id = ANY($1::bigint[])) AND NOT (p.name = ANY($2::text[])) AND (p.tag_tokens && $3::text[] OR p.category = ANY($4::text[])) AND ((p.geom && ST_MakeEnvelope($5, $6, $7, $8, 4326))) IS TRUE AND ST_DWithin(ST_Affine(p.geom, $9, 0, 0, $10, 0, 0), ST_SetSRID(ST_GeomFromGeoJSON($11), 4326), $12) AND (p.tag_tokens @> ARRAY[$13]::text[] OR (NOT (p.tags ? 'country_code') AND ST_Intersects(p.geom, ST_SetSRID(ST_GeomFromGeoJSON($14), 4326)) AND ST_Intersects(ST_PointOnSurface(p.geom), ST_SetSRID(ST_GeomFromGeoJSON($15), 4326))))
      ORDER BY ST_Distance(p.geom, ST_Simplify(ST_SetSRID(ST_GeomFromGeoJSON($16), 4326), $17, true)) LIMIT $18
    ), pool AS (
      SELECT id FROM tagged
    ), measured AS MATERIALIZED (
      SELECT p.id, ARRAY[ST_Distance(ST_Affine(p.geom, $19, 0, 0, $20, 0, 0), ST_SetSRID(ST_GeomFromGeoJSON($21), 4326)), (CASE WHEN p.tag_tokens @> ARRAY[$22]::text[] THEN 0 ELSE ST_Distance(ST_Affine(p.geom, $23, 0, 0, $24, 0, 0), ST_SetSRID(ST_GeomFromGeoJSON($25), 4326)) END)]::float8[] AS distances
      FROM places p JOIN pool USING (id)
    ), candidates AS (
      SELECT p.id, p.source_id, p.name, p.category, NULL::text AS description, p.geom,
             m.distances, m.distances[1] AS d0,
             ARRAY[ST_DWithin(ST_Affine(p.geom, $26, 0, 0, $27, 0, 0), ST_SetSRID(ST_GeomFromGeoJSON($28), 4326), $29), (p.tag_tokens @> ARRAY[$30]::text[] OR (NOT (p.tags ? 'country_code') AND ST_Intersects(p.geom, ST_SetSRID(ST_GeomFromGeoJSON($31), 4326)) AND ST_Intersects(ST_PointOnSurface(p.geom), ST_SetSRID(ST_GeomFromGeoJSON($32), 4326))))]::boolean[] AS satisfied,
             m.id IN (SELECT id FROM tagged) AS tag_match,
             CASE WHEN p.embedding_model = $33 THEN 1 - (p.embedding <=> $34::vector) END AS sem_sim,
             CASE WHEN p.embedding_model = $35 THEN 1 - (p.embedding <=> $36::vector) END AS spa_sim,
             NULL::bigint AS population
      FROM measured m JOIN places p USING (id)
      WHERE m.distances[1] <= $37 AND m.distances[2] <= $38
      ORDER BY (ST_DWithin(ST_Affine(p.geom, $39, 0, 0, $40, 0, 0), ST_SetSRID(ST_GeomFromGeoJSON($41), 4326), $42) AND (p.tag_tokens @> ARRAY[$43]::text[] OR (NOT (p.tags ? 'country_code') AND ST_Intersects(p.geom, ST_SetSRID(ST_GeomFromGeoJSON($44), 4326)) AND ST_Intersects(ST_PointOnSurface(p.geom), ST_SetSRID(ST_GeomFromGeoJSON($45), 4326))))) DESC, tag_match DESC, sem_sim DESC NULLS LAST, d0 ASC, p.source_id
      LIMIT $46
    )
    SELECT id, source_id, name, category, description,
           ST_XMin(geom) AS x0, ST_YMin(geom) AS y0, ST_XMax(geom) AS x1, ST_YMax(geom) AS y1,
           distances, satisfied, tag_match, sem_sim, spa_sim, population, (SELECT count(*) FROM tagged)::int AS tagged_n
    FROM candidates
-- parameters: [[950],["Square Park"],["amenity=cafe"],["cafe"],-73.98679205203106,40.750642533936656,-73.97920794796893,40.75635746606335,84233.06517926088,111195.08023353292,"{\"type\":\"MultiLineString\",\"coordinates\":[[[-6231983.327287616,4531421.909676934],[-6231983.327287616,4531755.494917635],[-6231646.395026899,4531755.494917635]]]}",120,"country_code=QQ","{\"type\":\"Polygon\",\"coordinates\":[[[-73.985,40.752],[-73.981,40.752],[-73.981,40.755],[-73.985,40.755],[-73.985,40.752]]]}","{\"type\":\"Polygon\",\"coordinates\":[[[-73.985,40.752],[-73.981,40.752],[-73.981,40.755],[-73.985,40.755],[-73.985,40.752]]]}","{\"type\":\"Polygon\",\"coordinates\":[[[-73.985,40.752],[-73.981,40.752],[-73.981,40.755],[-73.985,40.755],[-73.985,40.752]]]}",0.00001,200,84233.06517926088,111195.08023353292,"{\"type\":\"MultiLineString\",\"coordinates\":[[[-6231983.327287616,4531421.909676934],[-6231983.327287616,4531755.494917635],[-6231646.395026899,4531755.494917635]]]}","country_code=QQ",84233.06517926088,111195.08023353292,"{\"type\":\"Polygon\",\"coordinates\":[[[-6231983.327287616,4531421.909676934],[-6231646.395026899,4531421.909676934],[-6231646.395026899,4531755.494917635],[-6231983.327287616,4531755.494917635],[-6231983.327287616,4531421.909676934]]]}",84233.06517926088,111195.08023353292,"{\"type\":\"MultiLineString\",\"coordinates\":[[[-6231983.327287616,4531421.909676934],[-6231983.327287616,4531755.494917635],[-6231646.395026899,4531755.494917635]]]}",120,"country_code=QQ","{\"type\":\"Polygon\",\"coordinates\":[[[-73.985,40.752],[-73.981,40.752],[-73.981,40.755],[-73.985,40.755],[-73.985,40.752]]]}","{\"type\":\"Polygon\",\"coordinates\":[[[-73.985,40.752],[-73.981,40.752],[-73.981,40.755],[-73.985,40.755],[-73.985,40.752]]]}","test-model","[1,0,0]","test-model","[0,1,0]",220,150,84233.06517926088,111195.08023353292,"{\"type\":\"MultiLineString\",\"coordinates\":[[[-6231983.327287616,4531421.909676934],[-6231983.327287616,4531755.494917635],[-6231646.395026899,4531755.494917635]]]}",120,"country_code=QQ","{\"type\":\"Polygon\",\"coordinates\":[[[-73.985,40.752],[-73.981,40.752],[-73.981,40.755],[-73.985,40.755],[-73.985,40.752]]]}","{\"type\":\"Polygon\",\"coordinates\":[[[-73.985,40.752],[-73.981,40.752],[-73.981,40.755],[-73.985,40.755],[-73.985,40.752]]]}",400]

-- all pools, without query vectors

    WITH tagged AS MATERIALIZED (
      SELECT p.id FROM places p WHERE p.name IS NOT NULL AND coalesce(p.category, '') <> 'street' AND coalesce(p.category, '') <> 'country'
        AND NOT (p.id = ANY($1::bigint[])) AND NOT (p.name = ANY($2::text[])) AND (p.geom && ST_MakeEnvelope($3, $4, $5, $6, 4326)) AND (p.tag_tokens && $7::text[] OR p.category = ANY($8::text[])) AND ST_DWithin(ST_Affine(p.geom, $9, 0, 0, $10, 0, 0), ST_SetSRID(ST_GeomFromGeoJSON($11), 4326), $12) AND (p.tag_tokens @> ARRAY[$13]::text[] OR (NOT (p.tags ? 'country_code') AND ST_Intersects(p.geom, ST_SetSRID(ST_GeomFromGeoJSON($14), 4326)) AND ST_Intersects(ST_PointOnSurface(p.geom), ST_SetSRID(ST_GeomFromGeoJSON($15), 4326))))
      ORDER BY p.geom <-> ST_SetSRID(ST_GeomFromGeoJSON($16), 4326) LIMIT $17
    ), pool AS (
      (SELECT p.id FROM places p WHERE p.name IS NOT NULL AND coalesce(p.category, '') <> 'street' AND coalesce(p.category, '') <> 'country'
        AND NOT (p.id = ANY($18::bigint[])) AND NOT (p.name = ANY($19::text[])) AND (p.geom && ST_MakeEnvelope($20, $21, $22, $23, 4326)) AND ST_DWithin(ST_Affine(p.geom, $24, 0, 0, $25, 0, 0), ST_SetSRID(ST_GeomFromGeoJSON($26), 4326), $27) AND (p.tag_tokens @> ARRAY[$28]::text[] OR (NOT (p.tags ? 'country_code') AND ST_Intersects(p.geom, ST_SetSRID(ST_GeomFromGeoJSON($29), 4326)) AND ST_Intersects(ST_PointOnSurface(p.geom), ST_SetSRID(ST_GeomFromGeoJSON($30), 4326))))
       ORDER BY p.geom <-> ST_SetSRID(ST_GeomFromGeoJSON($31), 4326) LIMIT $32)
      UNION
      SELECT id FROM tagged
      
    ), measured AS MATERIALIZED (
      SELECT p.id, ARRAY[ST_Distance(ST_Affine(p.geom, $33, 0, 0, $34, 0, 0), ST_SetSRID(ST_GeomFromGeoJSON($35), 4326)), (CASE WHEN p.tag_tokens @> ARRAY[$36]::text[] THEN 0 ELSE ST_Distance(ST_Affine(p.geom, $37, 0, 0, $38, 0, 0), ST_SetSRID(ST_GeomFromGeoJSON($39), 4326)) END)]::float8[] AS distances
      FROM places p JOIN pool USING (id)
    ), candidates AS (
      SELECT p.id, p.source_id, p.name, p.category, p.description AS description, p.geom,
             m.distances, m.distances[1] AS d0,
             ARRAY[ST_DWithin(ST_Affine(p.geom, $40, 0, 0, $41, 0, 0), ST_SetSRID(ST_GeomFromGeoJSON($42), 4326), $43), (p.tag_tokens @> ARRAY[$44]::text[] OR (NOT (p.tags ? 'country_code') AND ST_Intersects(p.geom, ST_SetSRID(ST_GeomFromGeoJSON($45), 4326)) AND ST_Intersects(ST_PointOnSurface(p.geom), ST_SetSRID(ST_GeomFromGeoJSON($46), 4326))))]::boolean[] AS satisfied,
             m.id IN (SELECT id FROM tagged) AS tag_match,
             NULL::float8 AS sem_sim,
             NULL::float8 AS spa_sim,
             NULL::bigint AS population
      FROM measured m JOIN places p USING (id)
      WHERE m.distances[1] <= $47 AND m.distances[2] <= $48
      ORDER BY (ST_DWithin(ST_Affine(p.geom, $49, 0, 0, $50, 0, 0), ST_SetSRID(ST_GeomFromGeoJSON($51), 4326), $52) AND (p.tag_tokens @> ARRAY[$53]::text[] OR (NOT (p.tags ? 'country_code') AND ST_Intersects(p.geom, ST_SetSRID(ST_GeomFromGeoJSON($54), 4326)) AND ST_Intersects(ST_PointOnSurface(p.geom), ST_SetSRID(ST_GeomFromGeoJSON($55), 4326))))) DESC, tag_match DESC, sem_sim DESC NULLS LAST, d0 ASC, p.source_id
      LIMIT $56
    )
    SELECT id, source_id, name, category, description,
           ST_XMin(geom) AS x0, ST_YMin(geom) AS y0, ST_XMax(geom) AS x1, ST_YMax(geom) AS y1,
           distances, satisfied, tag_match, sem_sim, spa_sim, population, (SELECT count(*) FROM tagged)::int AS tagged_n
    FROM candidates
-- parameters: [[950],["Square Park"],-73.98679205203106,40.750642533936656,-73.97920794796893,40.75635746606335,["amenity=cafe"],["cafe"],84233.06517926088,111195.08023353292,"{\"type\":\"MultiLineString\",\"coordinates\":[[[-6231983.327287616,4531421.909676934],[-6231983.327287616,4531755.494917635],[-6231646.395026899,4531755.494917635]]]}",120,"country_code=QQ","{\"type\":\"Polygon\",\"coordinates\":[[[-73.985,40.752],[-73.981,40.752],[-73.981,40.755],[-73.985,40.755],[-73.985,40.752]]]}","{\"type\":\"Polygon\",\"coordinates\":[[[-73.985,40.752],[-73.981,40.752],[-73.981,40.755],[-73.985,40.755],[-73.985,40.752]]]}","{\"type\":\"Point\",\"coordinates\":[-73.983,40.7535]}",200,[950],["Square Park"],-73.98679205203106,40.750642533936656,-73.97920794796893,40.75635746606335,84233.06517926088,111195.08023353292,"{\"type\":\"MultiLineString\",\"coordinates\":[[[-6231983.327287616,4531421.909676934],[-6231983.327287616,4531755.494917635],[-6231646.395026899,4531755.494917635]]]}",120,"country_code=QQ","{\"type\":\"Polygon\",\"coordinates\":[[[-73.985,40.752],[-73.981,40.752],[-73.981,40.755],[-73.985,40.755],[-73.985,40.752]]]}","{\"type\":\"Polygon\",\"coordinates\":[[[-73.985,40.752],[-73.981,40.752],[-73.981,40.755],[-73.985,40.755],[-73.985,40.752]]]}","{\"type\":\"Point\",\"coordinates\":[-73.983,40.7535]}",100,84233.06517926088,111195.08023353292,"{\"type\":\"MultiLineString\",\"coordinates\":[[[-6231983.327287616,4531421.909676934],[-6231983.327287616,4531755.494917635],[-6231646.395026899,4531755.494917635]]]}","country_code=QQ",84233.06517926088,111195.08023353292,"{\"type\":\"Polygon\",\"coordinates\":[[[-6231983.327287616,4531421.909676934],[-6231646.395026899,4531421.909676934],[-6231646.395026899,4531755.494917635],[-6231983.327287616,4531755.494917635],[-6231983.327287616,4531421.909676934]]]}",84233.06517926088,111195.08023353292,"{\"type\":\"MultiLineString\",\"coordinates\":[[[-6231983.327287616,4531421.909676934],[-6231983.327287616,4531755.494917635],[-6231646.395026899,4531755.494917635]]]}",120,"country_code=QQ","{\"type\":\"Polygon\",\"coordinates\":[[[-73.985,40.752],[-73.981,40.752],[-73.981,40.755],[-73.985,40.755],[-73.985,40.752]]]}","{\"type\":\"Polygon\",\"coordinates\":[[[-73.985,40.752],[-73.981,40.752],[-73.981,40.755],[-73.985,40.755],[-73.985,40.752]]]}",220,150,84233.06517926088,111195.08023353292,"{\"type\":\"MultiLineString\",\"coordinates\":[[[-6231983.327287616,4531421.909676934],[-6231983.327287616,4531755.494917635],[-6231646.395026899,4531755.494917635]]]}",120,"country_code=QQ","{\"type\":\"Polygon\",\"coordinates\":[[[-73.985,40.752],[-73.981,40.752],[-73.981,40.755],[-73.985,40.755],[-73.985,40.752]]]}","{\"type\":\"Polygon\",\"coordinates\":[[[-73.985,40.752],[-73.981,40.752],[-73.981,40.755],[-73.985,40.755],[-73.985,40.752]]]}",400]
