-- all pools, with query vectors

    WITH tagged AS MATERIALIZED (
      SELECT p.id FROM places p WHERE p.name IS NOT NULL AND coalesce(p.category, '') <> 'street' AND coalesce(p.category, '') <> 'country'
        AND NOT (p.id = ANY($1::bigint[])) AND NOT (p.name = ANY($2::text[])) AND (p.geom && ST_MakeEnvelope($3, $4, $5, $6, 4326)) AND (p.tag_tokens && $7::text[] OR p.category = ANY($8::text[]))
      ORDER BY p.geom <-> ST_SetSRID(ST_GeomFromGeoJSON($9), 4326) LIMIT $10
    ), pool AS (
      (SELECT p.id FROM places p WHERE p.name IS NOT NULL AND coalesce(p.category, '') <> 'street' AND coalesce(p.category, '') <> 'country'
        AND NOT (p.id = ANY($11::bigint[])) AND NOT (p.name = ANY($12::text[])) AND (p.geom && ST_MakeEnvelope($13, $14, $15, $16, 4326))
       ORDER BY p.geom <-> ST_SetSRID(ST_GeomFromGeoJSON($17), 4326) LIMIT $18)
      UNION
      SELECT id FROM tagged
      UNION
      (SELECT s.id FROM (
         SELECT p.id, p.embedding, p.embedding_model, (p.geom && ST_MakeEnvelope($19, $20, $21, $22, 4326)) AS in_window FROM places p WHERE (SELECT count(*) FROM tagged) < $23 AND p.name IS NOT NULL AND coalesce(p.category, '') <> 'street' AND coalesce(p.category, '') <> 'country'
        AND NOT (p.id = ANY($24::bigint[])) AND NOT (p.name = ANY($25::text[]))
         ORDER BY p.geom <-> ST_SetSRID(ST_GeomFromGeoJSON($26), 4326) LIMIT $27) AS s
       WHERE s.in_window AND s.embedding_model = $28
       ORDER BY s.embedding <=> $29::vector LIMIT $30)
    ), measured AS MATERIALIZED (
      SELECT p.id, ARRAY[ST_Distance(ST_Affine(p.geom, $31, 0, 0, $32, 0, 0), ST_SetSRID(ST_GeomFromGeoJSON($33), 4326))]::float8[] AS distances
      FROM places p JOIN pool USING (id)
    ), candidates AS (
      SELECT p.id, p.source_id, p.name, p.category, NULL::text AS description, p.geom,
             m.distances, m.distances[1] AS d0,
             ARRAY[(m.distances[1] <= $34)]::boolean[] AS satisfied,
             m.id IN (SELECT id FROM tagged) AS tag_match,
             CASE WHEN p.embedding_model = $35 THEN 1 - (p.embedding <=> $36::vector) END AS sem_sim,
             CASE WHEN p.embedding_model = $37 THEN 1 - (p.embedding <=> $38::vector) END AS spa_sim,
             NULL::bigint AS population
      FROM measured m JOIN places p USING (id)
      WHERE m.distances[1] <= $39
      ORDER BY ((m.distances[1] <= $40)) DESC, tag_match DESC, sem_sim DESC NULLS LAST, d0 ASC, p.source_id
      LIMIT $41
    )
    SELECT id, source_id, name, category, description,
           ST_XMin(geom) AS x0, ST_YMin(geom) AS y0, ST_XMax(geom) AS x1, ST_YMax(geom) AS y1,
           distances, satisfied, tag_match, sem_sim, spa_sim, population, (SELECT count(*) FROM tagged)::int AS tagged_n
    FROM candidates
-- parameters: [[950],["Square Park"],-73.99216864727502,40.74657013574661,-73.97383135272497,40.760429864253396,["amenity=cafe"],["cafe"],"{\"type\":\"Point\",\"coordinates\":[-73.983,40.7535]}",200,[950],["Square Park"],-73.99216864727502,40.74657013574661,-73.97383135272497,40.760429864253396,"{\"type\":\"Point\",\"coordinates\":[-73.983,40.7535]}",100,-73.9897789680572,40.74838009049774,-73.9762210319428,40.758619909502265,25,[950],["Square Park"],"{\"type\":\"Point\",\"coordinates\":[-73.983,40.7535]}",600,"test-model","[1,0,0]",150,84233.06517926088,111195.08023353292,"{\"type\":\"Polygon\",\"coordinates\":[[[-6231983.327287616,4531421.909676934],[-6231646.395026899,4531421.909676934],[-6231646.395026899,4531755.494917635],[-6231983.327287616,4531755.494917635],[-6231983.327287616,4531421.909676934]]]}",400,"test-model","[1,0,0]","test-model","[0,1,0]",600,400,400]

-- tagged pool alone, rare targets

    WITH tagged AS MATERIALIZED (
      SELECT p.id FROM places p WHERE p.name IS NOT NULL AND coalesce(p.category, '') <> 'street' AND coalesce(p.category, '') <> 'country'
        AND NOT (p.id = ANY($1::bigint[])) AND NOT (p.name = ANY($2::text[])) AND (p.tag_tokens && $3::text[] OR p.category = ANY($4::text[])) AND ((p.geom && ST_MakeEnvelope($5, $6, $7, $8, 4326))) IS TRUE
      ORDER BY ST_Distance(p.geom, ST_Simplify(ST_SetSRID(ST_GeomFromGeoJSON($9), 4326), $10, true)) LIMIT $11
    ), pool AS (
      SELECT id FROM tagged
    ), measured AS MATERIALIZED (
      SELECT p.id, ARRAY[ST_Distance(ST_Affine(p.geom, $12, 0, 0, $13, 0, 0), ST_SetSRID(ST_GeomFromGeoJSON($14), 4326))]::float8[] AS distances
      FROM places p JOIN pool USING (id)
    ), candidates AS (
      SELECT p.id, p.source_id, p.name, p.category, NULL::text AS description, p.geom,
             m.distances, m.distances[1] AS d0,
             ARRAY[(m.distances[1] <= $15)]::boolean[] AS satisfied,
             m.id IN (SELECT id FROM tagged) AS tag_match,
             CASE WHEN p.embedding_model = $16 THEN 1 - (p.embedding <=> $17::vector) END AS sem_sim,
             CASE WHEN p.embedding_model = $18 THEN 1 - (p.embedding <=> $19::vector) END AS spa_sim,
             NULL::bigint AS population
      FROM measured m JOIN places p USING (id)
      WHERE m.distances[1] <= $20
      ORDER BY ((m.distances[1] <= $21)) DESC, tag_match DESC, sem_sim DESC NULLS LAST, d0 ASC, p.source_id
      LIMIT $22
    )
    SELECT id, source_id, name, category, description,
           ST_XMin(geom) AS x0, ST_YMin(geom) AS y0, ST_XMax(geom) AS x1, ST_YMax(geom) AS y1,
           distances, satisfied, tag_match, sem_sim, spa_sim, population, (SELECT count(*) FROM tagged)::int AS tagged_n
    FROM candidates
-- parameters: [[950],["Square Park"],["amenity=cafe"],["cafe"],-73.99216864727502,40.74657013574661,-73.97383135272497,40.760429864253396,"{\"type\":\"Polygon\",\"coordinates\":[[[-73.985,40.752],[-73.981,40.752],[-73.981,40.755],[-73.985,40.755],[-73.985,40.752]]]}",0.00001,200,84233.06517926088,111195.08023353292,"{\"type\":\"Polygon\",\"coordinates\":[[[-6231983.327287616,4531421.909676934],[-6231646.395026899,4531421.909676934],[-6231646.395026899,4531755.494917635],[-6231983.327287616,4531755.494917635],[-6231983.327287616,4531421.909676934]]]}",400,"test-model","[1,0,0]","test-model","[0,1,0]",600,400,400]

-- all pools, without query vectors

    WITH tagged AS MATERIALIZED (
      SELECT p.id FROM places p WHERE p.name IS NOT NULL AND coalesce(p.category, '') <> 'street' AND coalesce(p.category, '') <> 'country'
        AND NOT (p.id = ANY($1::bigint[])) AND NOT (p.name = ANY($2::text[])) AND (p.geom && ST_MakeEnvelope($3, $4, $5, $6, 4326)) AND (p.tag_tokens && $7::text[] OR p.category = ANY($8::text[]))
      ORDER BY p.geom <-> ST_SetSRID(ST_GeomFromGeoJSON($9), 4326) LIMIT $10
    ), pool AS (
      (SELECT p.id FROM places p WHERE p.name IS NOT NULL AND coalesce(p.category, '') <> 'street' AND coalesce(p.category, '') <> 'country'
        AND NOT (p.id = ANY($11::bigint[])) AND NOT (p.name = ANY($12::text[])) AND (p.geom && ST_MakeEnvelope($13, $14, $15, $16, 4326))
       ORDER BY p.geom <-> ST_SetSRID(ST_GeomFromGeoJSON($17), 4326) LIMIT $18)
      UNION
      SELECT id FROM tagged
      
    ), measured AS MATERIALIZED (
      SELECT p.id, ARRAY[ST_Distance(ST_Affine(p.geom, $19, 0, 0, $20, 0, 0), ST_SetSRID(ST_GeomFromGeoJSON($21), 4326))]::float8[] AS distances
      FROM places p JOIN pool USING (id)
    ), candidates AS (
      SELECT p.id, p.source_id, p.name, p.category, p.description AS description, p.geom,
             m.distances, m.distances[1] AS d0,
             ARRAY[(m.distances[1] <= $22)]::boolean[] AS satisfied,
             m.id IN (SELECT id FROM tagged) AS tag_match,
             NULL::float8 AS sem_sim,
             NULL::float8 AS spa_sim,
             NULL::bigint AS population
      FROM measured m JOIN places p USING (id)
      WHERE m.distances[1] <= $23
      ORDER BY ((m.distances[1] <= $24)) DESC, tag_match DESC, sem_sim DESC NULLS LAST, d0 ASC, p.source_id
      LIMIT $25
    )
    SELECT id, source_id, name, category, description,
           ST_XMin(geom) AS x0, ST_YMin(geom) AS y0, ST_XMax(geom) AS x1, ST_YMax(geom) AS y1,
           distances, satisfied, tag_match, sem_sim, spa_sim, population, (SELECT count(*) FROM tagged)::int AS tagged_n
    FROM candidates
-- parameters: [[950],["Square Park"],-73.99216864727502,40.74657013574661,-73.97383135272497,40.760429864253396,["amenity=cafe"],["cafe"],"{\"type\":\"Point\",\"coordinates\":[-73.983,40.7535]}",200,[950],["Square Park"],-73.99216864727502,40.74657013574661,-73.97383135272497,40.760429864253396,"{\"type\":\"Point\",\"coordinates\":[-73.983,40.7535]}",100,84233.06517926088,111195.08023353292,"{\"type\":\"Polygon\",\"coordinates\":[[[-6231983.327287616,4531421.909676934],[-6231646.395026899,4531421.909676934],[-6231646.395026899,4531755.494917635],[-6231983.327287616,4531755.494917635],[-6231983.327287616,4531421.909676934]]]}",400,600,400,400]
