-- all pools, with query vectors

    WITH tagged AS MATERIALIZED (
      SELECT p.id FROM places p WHERE p.name IS NOT NULL AND coalesce(p.category, '') <> 'street' AND coalesce(p.category, '') <> 'country'
        AND NOT (p.id = ANY($1::bigint[])) AND NOT (p.name = ANY($2::text[])) AND (p.geom && ST_MakeEnvelope($3, $4, $5, $6, 4326)) AND (p.tag_tokens && $7::text[] OR p.category = ANY($8::text[])) AND ST_DWithin(ST_Affine(p.geom, $9, 0, 0, $10, 0, 0), ST_Boundary(ST_SetSRID(ST_GeomFromGeoJSON($11), 4326)), $12)
      ORDER BY p.geom <-> ST_SetSRID(ST_GeomFromGeoJSON($13), 4326) LIMIT $14
    ), pool AS (
      (SELECT p.id FROM places p WHERE p.name IS NOT NULL AND coalesce(p.category, '') <> 'street' AND coalesce(p.category, '') <> 'country'
        AND NOT (p.id = ANY($15::bigint[])) AND NOT (p.name = ANY($16::text[])) AND (p.geom && ST_MakeEnvelope($17, $18, $19, $20, 4326)) AND ST_DWithin(ST_Affine(p.geom, $21, 0, 0, $22, 0, 0), ST_Boundary(ST_SetSRID(ST_GeomFromGeoJSON($23), 4326)), $24)
       ORDER BY p.geom <-> ST_SetSRID(ST_GeomFromGeoJSON($25), 4326) LIMIT $26)
      UNION
      SELECT id FROM tagged
      UNION
      (SELECT s.id FROM (
         SELECT p.id, p.embedding, p.embedding_model, (p.geom && ST_MakeEnvelope($27, $28, $29, $30, 4326)) AS in_window FROM places p WHERE (SELECT count(*) FROM tagged) < $31 AND p.name IS NOT NULL AND coalesce(p.category, '') <> 'street' AND coalesce(p.category, '') <> 'country'
        AND NOT (p.id = ANY($32::bigint[])) AND NOT (p.name = ANY($33::text[]))
         ORDER BY p.geom <-> ST_SetSRID(ST_GeomFromGeoJSON($34), 4326) LIMIT $35) AS s
       WHERE s.in_window AND s.embedding_model = $36
       ORDER BY s.embedding <=> $37::vector LIMIT $38)
    ), measured AS MATERIALIZED (
      SELECT p.id, ARRAY[ST_Distance(ST_Affine(p.geom, $39, 0, 0, $40, 0, 0), ST_Boundary(ST_SetSRID(ST_GeomFromGeoJSON($41), 4326)))]::float8[] AS distances
      FROM places p JOIN pool USING (id)
    ), candidates AS (
      SELECT p.id, p.source_id, p.name, p.category, NULL::text AS description, p.geom,
             m.distances, m.distances[1] AS d0,
             ARRAY[ST_DWithin(ST_Affine(p.geom, $42, 0, 0, $43, 0, 0), ST_Boundary(ST_SetSRID(ST_GeomFromGeoJSON($44), 4326)), $45)]::boolean[] AS satisfied,
             m.id IN (SELECT id FROM tagged) AS tag_match,
             CASE WHEN p.embedding_model = $46 THEN 1 - (p.embedding <=> $47::vector) END AS sem_sim,
             CASE WHEN p.embedding_model = $48 THEN 1 - (p.embedding <=> $49::vector) END AS spa_sim,
             (CASE WHEN (p.tags->>'population') ~ '^[0-9]{1,12}$' THEN (p.tags->>'population')::bigint END) AS population
      FROM measured m JOIN places p USING (id)
      WHERE m.distances[1] <= $50
      ORDER BY (ST_DWithin(ST_Affine(p.geom, $51, 0, 0, $52, 0, 0), ST_Boundary(ST_SetSRID(ST_GeomFromGeoJSON($53), 4326)), $54)) DESC, tag_match DESC, sem_sim DESC NULLS LAST, d0 ASC, p.source_id
      LIMIT $55
    )
    SELECT id, source_id, name, category, description,
           ST_XMin(geom) AS x0, ST_YMin(geom) AS y0, ST_XMax(geom) AS x1, ST_YMax(geom) AS y1,
           distances, satisfied, tag_match, sem_sim, spa_sim, population, (SELECT count(*) FROM tagged)::int AS tagged_n
    FROM candidates
-- parameters: [[950],["Square Park"],-73.98762836802459,40.75000904977376,-73.9783716319754,40.756990950226246,["amenity=cafe"],["cafe"],84233.06517926088,111195.08023353292,"{\"type\":\"Polygon\",\"coordinates\":[[[-6231983.327287616,4531421.909676934],[-6231646.395026899,4531421.909676934],[-6231646.395026899,4531755.494917635],[-6231983.327287616,4531755.494917635],[-6231983.327287616,4531421.909676934]]]}",120,"{\"type\":\"Point\",\"coordinates\":[-73.983,40.7535]}",200,[950],["Square Park"],-73.98762836802459,40.75000904977376,-73.9783716319754,40.756990950226246,84233.06517926088,111195.08023353292,"{\"type\":\"Polygon\",\"coordinates\":[[[-6231983.327287616,4531421.909676934],[-6231646.395026899,4531421.909676934],[-6231646.395026899,4531755.494917635],[-6231983.327287616,4531755.494917635],[-6231983.327287616,4531421.909676934]]]}",120,"{\"type\":\"Point\",\"coordinates\":[-73.983,40.7535]}",100,-73.98643363577015,40.75091402714932,-73.97956636422984,40.756085972850684,25,[950],["Square Park"],"{\"type\":\"Point\",\"coordinates\":[-73.983,40.7535]}",600,"test-model","[1,0,0]",150,84233.06517926088,111195.08023353292,"{\"type\":\"Polygon\",\"coordinates\":[[[-6231983.327287616,4531421.909676934],[-6231646.395026899,4531421.909676934],[-6231646.395026899,4531755.494917635],[-6231983.327287616,4531755.494917635],[-6231983.327287616,4531421.909676934]]]}",84233.06517926088,111195.08023353292,"{\"type\":\"Polygon\",\"coordinates\":[[[-6231983.327287616,4531421.909676934],[-6231646.395026899,4531421.909676934],[-6231646.395026899,4531755.494917635],[-6231983.327287616,4531755.494917635],[-6231983.327287616,4531421.909676934]]]}",120,"test-model","[1,0,0]","test-model","[0,1,0]",220,84233.06517926088,111195.08023353292,"{\"type\":\"Polygon\",\"coordinates\":[[[-6231983.327287616,4531421.909676934],[-6231646.395026899,4531421.909676934],[-6231646.395026899,4531755.494917635],[-6231983.327287616,4531755.494917635],[-6231983.327287616,4531421.909676934]]]}",120,400]

-- tagged pool alone, rare targets

    WITH tagged AS MATERIALIZED (
      SELECT p.id FROM places p WHERE p.name IS NOT NULL AND coalesce(p.category, '') <> 'street' AND coalesce(p.category, '') <> 'country'
        AND NOT (p.id = ANY($1::bigint[])) AND NOT (p.name = ANY($2::text[])) AND (p.tag_tokens && $3::text[] OR p.category = ANY($4::text[])) AND ((p.geom && ST_MakeEnvelope($5, $6, $7, $8, 4326))) IS TRUE AND ST_DWithin(ST_Affine(p.geom, $9, 0, 0, $10, 0, 0), ST_Boundary(ST_SetSRID(ST_GeomFromGeoJSON($11), 4326)), $12)
      ORDER BY ST_Distance(p.geom, ST_Simplify(ST_SetSRID(ST_GeomFromGeoJSON($13), 4326), $14, true)) LIMIT $15
    ), pool AS (
      SELECT id FROM tagged
    ), measured AS MATERIALIZED (
      SELECT p.id, ARRAY[ST_Distance(ST_Affine(p.geom, $16, 0, 0, $17, 0, 0), ST_Boundary(ST_SetSRID(ST_GeomFromGeoJSON($18), 4326)))]::float8[] AS distances
      FROM places p JOIN pool USING (id)
    ), candidates AS (
      SELECT p.id, p.source_id, p.name, p.category, NULL::text AS description, p.geom,
             m.distances, m.distances[1] AS d0,
             ARRAY[ST_DWithin(ST_Affine(p.geom, $19, 0, 0, $20, 0, 0), ST_Boundary(ST_SetSRID(ST_GeomFromGeoJSON($21), 4326)), $22)]::boolean[] AS satisfied,
             m.id IN (SELECT id FROM tagged) AS tag_match,
             CASE WHEN p.embedding_model = $23 THEN 1 - (p.embedding <=> $24::vector) END AS sem_sim,
             CASE WHEN p.embedding_model = $25 THEN 1 - (p.embedding <=> $26::vector) END AS spa_sim,
             (CASE WHEN (p.tags->>'population') ~ '^[0-9]{1,12}$' THEN (p.tags->>'population')::bigint END) AS population
      FROM measured m JOIN places p USING (id)
      WHERE m.distances[1] <= $27
      ORDER BY (ST_DWithin(ST_Affine(p.geom, $28, 0, 0, $29, 0, 0), ST_Boundary(ST_SetSRID(ST_GeomFromGeoJSON($30), 4326)), $31)) DESC, tag_match DESC, sem_sim DESC NULLS LAST, d0 ASC, p.source_id
      LIMIT $32
    )
    SELECT id, source_id, name, category, description,
           ST_XMin(geom) AS x0, ST_YMin(geom) AS y0, ST_XMax(geom) AS x1, ST_YMax(geom) AS y1,
           distances, satisfied, tag_match, sem_sim, spa_sim, population, (SELECT count(*) FROM tagged)::int AS tagged_n
    FROM candidates
-- parameters: [[950],["Square Park"],["amenity=cafe"],["cafe"],-73.98762836802459,40.75000904977376,-73.9783716319754,40.756990950226246,84233.06517926088,111195.08023353292,"{\"type\":\"Polygon\",\"coordinates\":[[[-6231983.327287616,4531421.909676934],[-6231646.395026899,4531421.909676934],[-6231646.395026899,4531755.494917635],[-6231983.327287616,4531755.494917635],[-6231983.327287616,4531421.909676934]]]}",120,"{\"type\":\"Polygon\",\"coordinates\":[[[-73.985,40.752],[-73.981,40.752],[-73.981,40.755],[-73.985,40.755],[-73.985,40.752]]]}",0.00001,200,84233.06517926088,111195.08023353292,"{\"type\":\"Polygon\",\"coordinates\":[[[-6231983.327287616,4531421.909676934],[-6231646.395026899,4531421.909676934],[-6231646.395026899,4531755.494917635],[-6231983.327287616,4531755.494917635],[-6231983.327287616,4531421.909676934]]]}",84233.06517926088,111195.08023353292,"{\"type\":\"Polygon\",\"coordinates\":[[[-6231983.327287616,4531421.909676934],[-6231646.395026899,4531421.909676934],[-6231646.395026899,4531755.494917635],[-6231983.327287616,4531755.494917635],[-6231983.327287616,4531421.909676934]]]}",120,"test-model","[1,0,0]","test-model","[0,1,0]",220,84233.06517926088,111195.08023353292,"{\"type\":\"Polygon\",\"coordinates\":[[[-6231983.327287616,4531421.909676934],[-6231646.395026899,4531421.909676934],[-6231646.395026899,4531755.494917635],[-6231983.327287616,4531755.494917635],[-6231983.327287616,4531421.909676934]]]}",120,400]

-- all pools, without query vectors

    WITH tagged AS MATERIALIZED (
      SELECT p.id FROM places p WHERE p.name IS NOT NULL AND coalesce(p.category, '') <> 'street' AND coalesce(p.category, '') <> 'country'
        AND NOT (p.id = ANY($1::bigint[])) AND NOT (p.name = ANY($2::text[])) AND (p.geom && ST_MakeEnvelope($3, $4, $5, $6, 4326)) AND (p.tag_tokens && $7::text[] OR p.category = ANY($8::text[])) AND ST_DWithin(ST_Affine(p.geom, $9, 0, 0, $10, 0, 0), ST_Boundary(ST_SetSRID(ST_GeomFromGeoJSON($11), 4326)), $12)
      ORDER BY p.geom <-> ST_SetSRID(ST_GeomFromGeoJSON($13), 4326) LIMIT $14
    ), pool AS (
      (SELECT p.id FROM places p WHERE p.name IS NOT NULL AND coalesce(p.category, '') <> 'street' AND coalesce(p.category, '') <> 'country'
        AND NOT (p.id = ANY($15::bigint[])) AND NOT (p.name = ANY($16::text[])) AND (p.geom && ST_MakeEnvelope($17, $18, $19, $20, 4326)) AND ST_DWithin(ST_Affine(p.geom, $21, 0, 0, $22, 0, 0), ST_Boundary(ST_SetSRID(ST_GeomFromGeoJSON($23), 4326)), $24)
       ORDER BY p.geom <-> ST_SetSRID(ST_GeomFromGeoJSON($25), 4326) LIMIT $26)
      UNION
      SELECT id FROM tagged
      
    ), measured AS MATERIALIZED (
      SELECT p.id, ARRAY[ST_Distance(ST_Affine(p.geom, $27, 0, 0, $28, 0, 0), ST_Boundary(ST_SetSRID(ST_GeomFromGeoJSON($29), 4326)))]::float8[] AS distances
      FROM places p JOIN pool USING (id)
    ), candidates AS (
      SELECT p.id, p.source_id, p.name, p.category, p.description AS description, p.geom,
             m.distances, m.distances[1] AS d0,
             ARRAY[ST_DWithin(ST_Affine(p.geom, $30, 0, 0, $31, 0, 0), ST_Boundary(ST_SetSRID(ST_GeomFromGeoJSON($32), 4326)), $33)]::boolean[] AS satisfied,
             m.id IN (SELECT id FROM tagged) AS tag_match,
             NULL::float8 AS sem_sim,
             NULL::float8 AS spa_sim,
             (CASE WHEN (p.tags->>'population') ~ '^[0-9]{1,12}$' THEN (p.tags->>'population')::bigint END) AS population
      FROM measured m JOIN places p USING (id)
      WHERE m.distances[1] <= $34
      ORDER BY (ST_DWithin(ST_Affine(p.geom, $35, 0, 0, $36, 0, 0), ST_Boundary(ST_SetSRID(ST_GeomFromGeoJSON($37), 4326)), $38)) DESC, tag_match DESC, sem_sim DESC NULLS LAST, d0 ASC, p.source_id
      LIMIT $39
    )
    SELECT id, source_id, name, category, description,
           ST_XMin(geom) AS x0, ST_YMin(geom) AS y0, ST_XMax(geom) AS x1, ST_YMax(geom) AS y1,
           distances, satisfied, tag_match, sem_sim, spa_sim, population, (SELECT count(*) FROM tagged)::int AS tagged_n
    FROM candidates
-- parameters: [[950],["Square Park"],-73.98762836802459,40.75000904977376,-73.9783716319754,40.756990950226246,["amenity=cafe"],["cafe"],84233.06517926088,111195.08023353292,"{\"type\":\"Polygon\",\"coordinates\":[[[-6231983.327287616,4531421.909676934],[-6231646.395026899,4531421.909676934],[-6231646.395026899,4531755.494917635],[-6231983.327287616,4531755.494917635],[-6231983.327287616,4531421.909676934]]]}",120,"{\"type\":\"Point\",\"coordinates\":[-73.983,40.7535]}",200,[950],["Square Park"],-73.98762836802459,40.75000904977376,-73.9783716319754,40.756990950226246,84233.06517926088,111195.08023353292,"{\"type\":\"Polygon\",\"coordinates\":[[[-6231983.327287616,4531421.909676934],[-6231646.395026899,4531421.909676934],[-6231646.395026899,4531755.494917635],[-6231983.327287616,4531755.494917635],[-6231983.327287616,4531421.909676934]]]}",120,"{\"type\":\"Point\",\"coordinates\":[-73.983,40.7535]}",100,84233.06517926088,111195.08023353292,"{\"type\":\"Polygon\",\"coordinates\":[[[-6231983.327287616,4531421.909676934],[-6231646.395026899,4531421.909676934],[-6231646.395026899,4531755.494917635],[-6231983.327287616,4531755.494917635],[-6231983.327287616,4531421.909676934]]]}",84233.06517926088,111195.08023353292,"{\"type\":\"Polygon\",\"coordinates\":[[[-6231983.327287616,4531421.909676934],[-6231646.395026899,4531421.909676934],[-6231646.395026899,4531755.494917635],[-6231983.327287616,4531755.494917635],[-6231983.327287616,4531421.909676934]]]}",120,220,84233.06517926088,111195.08023353292,"{\"type\":\"Polygon\",\"coordinates\":[[[-6231983.327287616,4531421.909676934],[-6231646.395026899,4531421.909676934],[-6231646.395026899,4531755.494917635],[-6231983.327287616,4531755.494917635],[-6231983.327287616,4531421.909676934]]]}",120,400]
