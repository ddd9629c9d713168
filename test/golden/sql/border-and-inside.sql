-- all pools, with query vectors

    WITH tagged AS MATERIALIZED (
      SELECT p.id FROM places p WHERE p.name IS NOT NULL AND coalesce(p.category, '') <> 'street' AND coalesce(p.category, '') <> 'country'
        AND NOT (p.id = ANY($1::bigint[])) AND NOT (p.name = ANY($2::text[])) AND (p.geom && ST_MakeEnvelope($3, $4, $5, $6, 4326)) AND (p.tag_tokens && $7::text[] OR p.category = ANY($8::text[])) AND ST_DWithin(ST_Affine(p.geom, $9, 0, 0, $10, 0, 0), ST_SetSRID(ST_GeomFromGeoJSON($11), 4326), $12) AND ST_Intersects(ST_PointOnSurface(p.geom), ST_SetSRID(ST_GeomFromGeoJSON($13), 4326))
      ORDER BY p.geom <-> ST_SetSRID(ST_GeomFromGeoJSON($14), 4326) LIMIT $15
    ), pool AS (
      (SELECT p.id FROM places p WHERE p.name IS NOT NULL AND coalesce(p.category, '') <> 'street' AND coalesce(p.category, '') <> 'country'
        AND NOT (p.id = ANY($16::bigint[])) AND NOT (p.name = ANY($17::text[])) AND (p.geom && ST_MakeEnvelope($18, $19, $20, $21, 4326)) AND ST_DWithin(ST_Affine(p.geom, $22, 0, 0, $23, 0, 0), ST_SetSRID(ST_GeomFromGeoJSON($24), 4326), $25) AND ST_Intersects(ST_PointOnSurface(p.geom), ST_SetSRID(ST_GeomFromGeoJSON($26), 4326))
       ORDER BY p.geom <-> ST_SetSRID(ST_GeomFromGeoJSON($27), 4326) LIMIT $28)
      UNION
      SELECT id FROM tagged
      UNION
      (SELECT s.id FROM (
         SELECT p.id, p.embedding, p.embedding_model, (p.geom && ST_MakeEnvelope($29, $30, $31, $32, 4326)) AS in_window FROM places p WHERE (SELECT count(*) FROM tagged) < $33 AND p.name IS NOT NULL AND coalesce(p.category, '') <> 'street' AND coalesce(p.category, '') <> 'country'
        AND NOT (p.id = ANY($34::bigint[])) AND NOT (p.name = ANY($35::text[]))
         ORDER BY p.geom <-> ST_SetSRID(ST_GeomFromGeoJSON($36), 4326) LIMIT $37) AS s
       WHERE s.in_window AND s.embedding_model = $38
       ORDER BY s.embedding <=> $39::vector LIMIT $40)
    ), measured AS MATERIALIZED (
      SELECT p.id, ARRAY[ST_Distance(ST_Affine(p.geom, $41, 0, 0, $42, 0, 0), ST_SetSRID(ST_GeomFromGeoJSON($43), 4326)), ST_Distance(ST_Affine(p.geom, $44, 0, 0, $45, 0, 0), ST_SetSRID(ST_GeomFromGeoJSON($46), 4326))]::float8[] AS distances
      FROM places p JOIN pool USING (id)
    ), candidates AS (
      SELECT p.id, p.source_id, p.name, p.category, NULL::text AS description, p.geom,
             m.distances, m.distances[1] AS d0,
             ARRAY[ST_DWithin(ST_Affine(p.geom, $47, 0, 0, $48, 0, 0), ST_SetSRID(ST_GeomFromGeoJSON($49), 4326), $50), ST_Intersects(ST_PointOnSurface(p.geom), ST_SetSRID(ST_GeomFromGeoJSON($51), 4326))]::boolean[] AS satisfied,
             m.id IN (SELECT id FROM tagged) AS tag_match,
             CASE WHEN p.embedding_model = $52 THEN 1 - (p.embedding <=> $53::vector) END AS sem_sim,
             CASE WHEN p.embedding_model = $54 THEN 1 - (p.embedding <=> $55::vector) END AS spa_sim,
             NULL::bigint AS population
      FROM measured m JOIN places p USING (id)
      WHERE m.distances[1] <= $56 AND m.distances[2] <= $57
      ORDER BY (ST_DWithin(ST_Affine(p.geom, $58, 0, 0, $59, 0, 0), ST_SetSRID(ST_GeomFromGeoJSON($60), 4326), $61) AND ST_Intersects(ST_PointOnSurface(p.geom), ST_SetSRID(ST_GeomFromGeoJSON($62), 4326))) DESC, tag_match DESC, sem_sim DESC NULLS LAST, d0 ASC, p.source_id
      LIMIT $63
    )
    SELECT id, source_id, name, category, description,
           ST_XMin(geom) AS x0, ST_YMin(geom) AS y0, ST_XMax(geom) AS x1, ST_YMax(geom) AS y1,
           distances, satisfied, tag_match, sem_sim, spa_sim, population, (SELECT count(*) FROM tagged)::int AS tagged_n
    FROM candidates
-- parameters: [[950],["Square Park"],-73.98679205203106,40.750642533936656,-73.97920794796893,40.75635746606335,["amenity=cafe"],["cafe"],84233.06517926088,111195.08023353292,"{\"type\":\"MultiLineString\",\"coordinates\":[[[-6231983.327287616,4531421.909676934],[-6231646.395026899,4531421.909676934],[-6231646.395026899,4531755.494917635],[-6231983.327287616,4531755.494917635],[-6231983.327287616,4531421.909676934]]]}",120,"{\"type\":\"Polygon\",\"coordinates\":[[[-73.985,40.752],[-73.981,40.752],[-73.981,40.755],[-73.985,40.755],[-73.985,40.752]]]}","{\"type\":\"Point\",\"coordinates\":[-73.983,40.7535]}",200,[950],["Square Park"],-73.98679205203106,40.750642533936656,-73.97920794796893,40.75635746606335,84233.06517926088,111195.08023353292,"{\"type\":\"MultiLineString\",\"coordinates\":[[[-6231983.327287616,4531421.909676934],[-6231646.395026899,4531421.909676934],[-6231646.395026899,4531755.494917635],[-6231983.327287616,4531755.494917635],[-6231983.327287616,4531421.909676934]]]}",120,"{\"type\":\"Polygon\",\"coordinates\":[[[-73.985,40.752],[-73.981,40.752],[-73.981,40.755],[-73.985,40.755],[-73.985,40.752]]]}","{\"type\":\"Point\",\"coordinates\":[-73.983,40.7535]}",100,-73.985,40.752,-73.981,40.755,25,[950],["Square Park"],"{\"type\":\"Point\",\"coordinates\":[-73.983,40.7535]}",600,"test-model","[1,0,0]",150,84233.06517926088,111195.08023353292,"{\"type\":\"MultiLineString\",\"coordinates\":[[[-6231983.327287616,4531421.909676934],[-6231646.395026899,4531421.909676934],[-6231646.395026899,4531755.494917635],[-6231983.327287616,4531755.494917635],[-6231983.327287616,4531421.909676934]]]}",84233.06517926088,111195.08023353292,"{\"type\":\"Polygon\",\"coordinates\":[[[-6231983.327287616,4531421.909676934],[-6231646.395026899,4531421.909676934],[-6231646.395026899,4531755.494917635],[-6231983.327287616,4531755.494917635],[-6231983.327287616,4531421.909676934]]]}",84233.06517926088,111195.08023353292,"{\"type\":\"MultiLineString\",\"coordinates\":[[[-6231983.327287616,4531421.909676934],[-6231646.395026899,4531421.909676934],[-6231646.395026899,4531755.494917635],[-6231983.327287616,4531755.494917635],[-6231983.327287616,4531421.909676934]]]}",120,"{\"type\":\"Polygon\",\"coordinates\":[[[-73.985,40.752],[-73.981,40.752],[-73.981,40.755],[-73.985,40.755],[-73.985,40.752]]]}","test-model","[1,0,0]","test-model","[0,1,0]",220,150,84233.06517926088,111195.08023353292,"{\"type\":\"MultiLineString\",\"coordinates\":[[[-6231983.327287616,4531421.909676934],[-6231646.395026899,4531421.909676934],[-6231646.395026899,4531755.494917635],[-6231983.327287616,4531755.494917635],[-6231983.327287616,4531421.909676934]]]}",120,"{\"type\":\"Polygon\",\"coordinates\":[[[-73.985,40.752],[-73.981,40.752],[-73.981,40.755],[-73.985,40.755],[-73.985,40.752]]]}",400]

-- tagged pool alone, rare targets

    WITH tagged AS MATERIALIZED (
      SELECT p.id FROM places p WHERE p.name IS NOT NULL AND coalesce(p.category, '') <> 'street' AND coalesce(p.category, '') <> 'country'
        AND NOT (p.id = ANY($1::bigint[])) AND NOT (p.name = ANY($2::text[])) AND (p.tag_tokens && $3::text[] OR p.category = ANY($4::text[])) AND ((p.geom && ST_MakeEnvelope($5, $6, $7, $8, 4326))) IS TRUE AND ST_DWithin(ST_Affine(p.geom, $9, 0, 0, $10, 0, 0), ST_SetSRID(ST_GeomFromGeoJSON($11), 4326), $12) AND ST_Intersects(ST_PointOnSurface(p.geom), ST_SetSRID(ST_GeomFromGeoJSON($13), 4326))
      ORDER BY ST_Distance(p.geom, ST_Simplify(ST_SetSRID(ST_GeomFromGeoJSON($14), 4326), $15, true)) LIMIT $16
    ), pool AS (
      SELECT id FROM tagged
    ), measured AS MATERIALIZED (
      SELECT p.id, ARRAY[ST_Distance(ST_Affine(p.geom, $17, 0, 0, $18, 0, 0), ST_SetSRID(ST_GeomFromGeoJSON($19), 4326)), ST_Distance(ST_Affine(p.geom, $20, 0, 0, $21, 0, 0), ST_SetSRID(ST_GeomFromGeoJSON($22), 4326))]::float8[] AS distances
      FROM places p JOIN pool USING (id)
    ), candidates AS (
      SELECT p.id, p.source_id, p.name, p.category, NULL::text AS description, p.geom,
             m.distances, m.distances[1] AS d0,
             ARRAY[ST_DWithin(ST_Affine(p.geom, $23, 0, 0, $24, 0, 0), ST_SetSRID(ST_GeomFromGeoJSON($25), 4326), $26), ST_Intersects(ST_PointOnSurface(p.geom), ST_SetSRID(ST_GeomFromGeoJSON($27), 4326))]::boolean[] AS satisfied,
             m.id IN (SELECT id FROM tagged) AS tag_match,
             CASE WHEN p.embedding_model = $28 THEN 1 - (p.embedding <=> $29::vector) END AS sem_sim,
             CASE WHEN p.embedding_model = $30 THEN 1 - (p.embedding <=> $31::vector) END AS spa_sim,
             NULL::bigint AS population
      FROM measured m JOIN places p USING (id)
      WHERE m.distances[1] <= $32 AND m.distances[2] <= $33
      ORDER BY (ST_DWithin(ST_Affine(p.geom, $34, 0, 0, $35, 0, 0), ST_SetSRID(ST_GeomFromGeoJSON($36), 4326), $37) AND ST_Intersects(ST_PointOnSurface(p.geom), ST_SetSRID(ST_GeomFromGeoJSON($38), 4326))) DESC, tag_match DESC, sem_sim DESC NULLS LAST, d0 ASC, p.source_id
      LIMIT $39
    )
    SELECT id, source_id, name, category, description,
           ST_XMin(geom) AS x0, ST_YMin(geom) AS y0, ST_XMax(geom) AS x1, ST_YMax(geom) AS y1,
           distances, satisfied, tag_match, sem_sim, spa_sim, population, (SELECT count(*) FROM tagged)::int AS tagged_n
    FROM candidates
-- parameters: [[950],["Square Park"],["amenity=cafe"],["cafe"],-73.98679205203106,40.750642533936656,-73.97920794796893,40.75635746606335,84233.06517926088,111195.08023353292,"{\"type\":\"MultiLineString\",\"coordinates\":[[[-6231983.327287616,4531421.909676934],[-6231646.395026899,4531421.909676934],[-6231646.395026899,4531755.494917635],[-6231983.327287616,4531755.494917635],[-6231983.327287616,4531421.909676934]]]}",120,"{\"type\":\"Polygon\",\"coordinates\":[[[-73.985,40.752],[-73.981,40.752],[-73.981,40.755],[-73.985,40.755],[-73.985,40.752]]]}","{\"type\":\"Polygon\",\"coordinates\":[[[-73.985,40.752],[-73.981,40.752],[-73.981,40.755],[-73.985,40.755],[-73.985,40.752]]]}",0.00001,200,84233.06517926088,111195.08023353292,"{\"type\":\"MultiLineString\",\"coordinates\":[[[-6231983.327287616,4531421.909676934],[-6231646.395026899,4531421.909676934],[-6231646.395026899,4531755.494917635],[-6231983.327287616,4531755.494917635],[-6231983.327287616,4531421.909676934]]]}",84233.06517926088,111195.08023353292,"{\"type\":\"Polygon\",\"coordinates\":[[[-6231983.327287616,4531421.909676934],[-6231646.395026899,4531421.909676934],[-6231646.395026899,4531755.494917635],[-6231983.327287616,4531755.494917635],[-6231983.327287616,4531421.909676934]]]}",84233.06517926088,111195.08023353292,"{\"type\":\"MultiLineString\",\"coordinates\":[[[-6231983.327287616,4531421.909676934],[-6231646.395026899,4531421.909676934],[-6231646.395026899,4531755.494917635],[-6231983.327287616,4531755.494917635],[-6231983.327287616,4531421.909676934]]]}",120,"{\"type\":\"Polygon\",\"coordinates\":[[[-73.985,40.752],[-73.981,40.752],[-73.981,40.755],[-73.985,40.755],[-73.985,40.752]]]}","test-model","[1,0,0]","test-model","[0,1,0]",220,150,84233.06517926088,111195.08023353292,"{\"type\":\"MultiLineString\",\"coordinates\":[[[-6231983.327287616,4531421.909676934],[-6231646.395026899,4531421.909676934],[-6231646.395026899,4531755.494917635],[-6231983.327287616,4531755.494917635],[-6231983.327287616,4531421.909676934]]]}",120,"{\"type\":\"Polygon\",\"coordinates\":[[[-73.985,40.752],[-73.981,40.752],[-73.981,40.755],[-73.985,40.755],[-73.985,40.752]]]}",400]

-- all pools, without query vectors

    WITH tagged AS MATERIALIZED (
      SELECT p.id FROM places p WHERE p.name IS NOT NULL AND coalesce(p.category, '') <> 'street' AND coalesce(p.category, '') <> 'country'
        AND NOT (p.id = ANY($1::bigint[])) AND NOT (p.name = ANY($2::text[])) AND (p.geom && ST_MakeEnvelope($3, $4, $5, $6, 4326)) AND (p.tag_tokens && $7::text[] OR p.category = ANY($8::text[])) AND ST_DWithin(ST_Affine(p.geom, $9, 0, 0, $10, 0, 0), ST_SetSRID(ST_GeomFromGeoJSON($11), 4326), $12) AND ST_Intersects(ST_PointOnSurface(p.geom), ST_SetSRID(ST_GeomFromGeoJSON($13), 4326))
      ORDER BY p.geom <-> ST_SetSRID(ST_GeomFromGeoJSON($14), 4326) LIMIT $15
    ), pool AS (
      (SELECT p.id FROM places p WHERE p.name IS NOT NULL AND coalesce(p.category, '') <> 'street' AND coalesce(p.category, '') <> 'country'
        AND NOT (p.id = ANY($16::bigint[])) AND NOT (p.name = ANY($17::text[])) AND (p.geom && ST_MakeEnvelope($18, $19, $20, $21, 4326)) AND ST_DWithin(ST_Affine(p.geom, $22, 0, 0, $23, 0, 0), ST_SetSRID(ST_GeomFromGeoJSON($24), 4326), $25) AND ST_Intersects(ST_PointOnSurface(p.geom), ST_SetSRID(ST_GeomFromGeoJSON($26), 4326))
       ORDER BY p.geom <-> ST_SetSRID(ST_GeomFromGeoJSON($27), 4326) LIMIT $28)
      UNION
      SELECT id FROM tagged
      
    ), measured AS MATERIALIZED (
      SELECT p.id, ARRAY[ST_Distance(ST_Affine(p.geom, $29, 0, 0, $30, 0, 0), ST_SetSRID(ST_GeomFromGeoJSON($31), 4326)), ST_Distance(ST_Affine(p.geom, $32, 0, 0, $33, 0, 0), ST_SetSRID(ST_GeomFromGeoJSON($34), 4326))]::float8[] AS distances
      FROM places p JOIN pool USING (id)
    ), candidates AS (
      SELECT p.id, p.source_id, p.name, p.category, p.description AS description, p.geom,
             m.distances, m.distances[1] AS d0,
             ARRAY[ST_DWithin(ST_Affine(p.geom, $35, 0, 0, $36, 0, 0), ST_SetSRID(ST_GeomFromGeoJSON($37), 4326), $38), ST_Intersects(ST_PointOnSurface(p.geom), ST_SetSRID(ST_GeomFromGeoJSON($39), 4326))]::boolean[] AS satisfied,
             m.id IN (SELECT id FROM tagged) AS tag_match,
             NULL::float8 AS sem_sim,
             NULL::float8 AS spa_sim,
             NULL::bigint AS population
      FROM measured m JOIN places p USING (id)
      WHERE m.distances[1] <= $40 AND m.distances[2] <= $41
      ORDER BY (ST_DWithin(ST_Affine(p.geom, $42, 0, 0, $43, 0, 0), ST_SetSRID(ST_GeomFromGeoJSON($44), 4326), $45) AND ST_Intersects(ST_PointOnSurface(p.geom), ST_SetSRID(ST_GeomFromGeoJSON($46), 4326))) DESC, tag_match DESC, sem_sim DESC NULLS LAST, d0 ASC, p.source_id
      LIMIT $47
    )
    SELECT id, source_id, name, category, description,
           ST_XMin(geom) AS x0, ST_YMin(geom) AS y0, ST_XMax(geom) AS x1, ST_YMax(geom) AS y1,
           distances, satisfied, tag_match, sem_sim, spa_sim, population, (SELECT count(*) FROM tagged)::int AS tagged_n
    FROM candidates
-- parameters: [[950],["Square Park"],-73.98679205203106,40.750642533936656,-73.97920794796893,40.75635746606335,["amenity=cafe"],["cafe"],84233.06517926088,111195.08023353292,"{\"type\":\"MultiLineString\",\"coordinates\":[[[-6231983.327287616,4531421.909676934],[-6231646.395026899,4531421.909676934],[-6231646.395026899,4531755.494917635],[-6231983.327287616,4531755.494917635],[-6231983.327287616,4531421.909676934]]]}",120,"{\"type\":\"Polygon\",\"coordinates\":[[[-73.985,40.752],[-73.981,40.752],[-73.981,40.755],[-73.985,40.755],[-73.985,40.752]]]}","{\"type\":\"Point\",\"coordinates\":[-73.983,40.7535]}",200,[950],["Square Park"],-73.98679205203106,40.750642533936656,-73.97920794796893,40.75635746606335,84233.06517926088,111195.08023353292,"{\"type\":\"MultiLineString\",\"coordinates\":[[[-6231983.327287616,4531421.909676934],[-6231646.395026899,4531421.909676934],[-6231646.395026899,4531755.494917635],[-6231983.327287616,4531755.494917635],[-6231983.327287616,4531421.909676934]]]}",120,"{\"type\":\"Polygon\",\"coordinates\":[[[-73.985,40.752],[-73.981,40.752],[-73.981,40.755],[-73.985,40.755],[-73.985,40.752]]]}","{\"type\":\"Point\",\"coordinates\":[-73.983,40.7535]}",100,84233.06517926088,111195.08023353292,"{\"type\":\"MultiLineString\",\"coordinates\":[[[-6231983.327287616,4531421.909676934],[-6231646.395026899,4531421.909676934],[-6231646.395026899,4531755.494917635],[-6231983.327287616,4531755.494917635],[-6231983.327287616,4531421.909676934]]]}",84233.06517926088,111195.08023353292,"{\"type\":\"Polygon\",\"coordinates\":[[[-6231983.327287616,4531421.909676934],[-6231646.395026899,4531421.909676934],[-6231646.395026899,4531755.494917635],[-6231983.327287616,4531755.494917635],[-6231983.327287616,4531421.909676934]]]}",84233.06517926088,111195.08023353292,"{\"type\":\"MultiLineString\",\"coordinates\":[[[-6231983.327287616,4531421.909676934],[-6231646.395026899,4531421.909676934],[-6231646.395026899,4531755.494917635],[-6231983.327287616,4531755.494917635],[-6231983.327287616,4531421.909676934]]]}",120,"{\"type\":\"Polygon\",\"coordinates\":[[[-73.985,40.752],[-73.981,40.752],[-73.981,40.755],[-73.985,40.755],[-73.985,40.752]]]}",220,150,84233.06517926088,111195.08023353292,"{\"type\":\"MultiLineString\",\"coordinates\":[[[-6231983.327287616,4531421.909676934],[-6231646.395026899,4531421.909676934],[-6231646.395026899,4531755.494917635],[-6231983.327287616,4531755.494917635],[-6231983.327287616,4531421.909676934]]]}",120,"{\"type\":\"Polygon\",\"coordinates\":[[[-73.985,40.752],[-73.981,40.752],[-73.981,40.755],[-73.985,40.755],[-73.985,40.752]]]}",400]
