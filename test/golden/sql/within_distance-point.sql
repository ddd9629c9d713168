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
-- parameters: [[901],["Place r1"],-73.98447993036044,40.74660633484163,-73.97552006963957,40.75339366515837,["amenity=cafe"],["cafe"],"{\"type\":\"Point\",\"coordinates\":[-73.98,40.75]}",200,[901],["Place r1"],-73.98447993036044,40.74660633484163,-73.97552006963957,40.75339366515837,"{\"type\":\"Point\",\"coordinates\":[-73.98,40.75]}",100,-73.98298656942688,40.747737556561084,-73.97701343057312,40.752262443438916,25,[901],["Place r1"],"{\"type\":\"Point\",\"coordinates\":[-73.98,40.75]}",600,"test-model","[1,0,0]",150,84237.49922069951,111195.08023353292,"{\"type\":\"Point\",\"coordinates\":[-6231890.19234735,4531199.519516466]}",250,"test-model","[1,0,0]","test-model","[0,1,0]",375,250,400]

-- tagged pool alone, rare targets

    WITH tagged AS MATERIALIZED (
      SELECT p.id FROM places p WHERE p.name IS NOT NULL AND coalesce(p.category, '') <> 'street' AND coalesce(p.category, '') <> 'country'
        AND NOT (p.id = ANY($1::bigint[])) AND NOT (p.name = ANY($2::text[])) AND (p.tag_tokens && $3::text[] OR p.category = ANY($4::text[])) AND ((p.geom && ST_MakeEnvelope($5, $6, $7, $8, 4326))) IS TRUE
      ORDER BY ST_Distance(p.geom, ST_SetSRID(ST_GeomFromGeoJSON($9), 4326)) LIMIT $10
    ), pool AS (
      SELECT id FROM tagged
    ), measured AS MATERIALIZED (
      SELECT p.id, ARRAY[ST_Distance(ST_Affine(p.geom, $11, 0, 0, $12, 0, 0), ST_SetSRID(ST_GeomFromGeoJSON($13), 4326))]::float8[] AS distances
      FROM places p JOIN pool USING (id)
    ), candidates AS (
      SELECT p.id, p.source_id, p.name, p.category, NULL::text AS description, p.geom,
             m.distances, m.distances[1] AS d0,
             ARRAY[(m.distances[1] <= $14)]::boolean[] AS satisfied,
             m.id IN (SELECT id FROM tagged) AS tag_match,
             CASE WHEN p.embedding_model = $15 THEN 1 - (p.embedding <=> $16::vector) END AS sem_sim,
             CASE WHEN p.embedding_model = $17 THEN 1 - (p.embedding <=> $18::vector) END AS spa_sim,
             NULL::bigint AS population
      FROM measured m JOIN places p USING (id)
      WHERE m.distances[1] <= $19
      ORDER BY ((m.distances[1] <= $20)) DESC, tag_match DESC, sem_sim DESC NULLS LAST, d0 ASC, p.source_id
      LIMIT $21
    )
    SELECT id, source_id, name, category, description,
           ST_XMin(geom) AS x0, ST_YMin(geom) AS y0, ST_XMax(geom) AS x1, ST_YMax(geom) AS y1,
           distances, satisfied, tag_match, sem_sim, spa_sim, population, (SELECT count(*) FROM tagged)::int AS tagged_n
    FROM candidates
-- parameters: [[901],["Place r1"],["amenity=cafe"],["cafe"],-73.98447993036044,40.74660633484163,-73.97552006963957,40.75339366515837,"{\"type\":\"Point\",\"coordinates\":[-73.98,40.75]}",200,84237.49922069951,111195.08023353292,"{\"type\":\"Point\",\"coordinates\":[-6231890.19234735,4531199.519516466]}",250,"test-model","[1,0,0]","test-model","[0,1,0]",375,250,400]

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
-- parameters: [[901],["Place r1"],-73.98447993036044,40.74660633484163,-73.97552006963957,40.75339366515837,["amenity=cafe"],["cafe"],"{\"type\":\"Point\",\"coordinates\":[-73.98,40.75]}",200,[901],["Place r1"],-73.98447993036044,40.74660633484163,-73.97552006963957,40.75339366515837,"{\"type\":\"Point\",\"coordinates\":[-73.98,40.75]}",100,84237.49922069951,111195.08023353292,"{\"type\":\"Point\",\"coordinates\":[-6231890.19234735,4531199.519516466]}",250,375,250,400]
