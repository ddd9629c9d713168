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
      SELECT p.id, ARRAY[ST_Distance(p.geog, ST_SetSRID(ST_GeomFromGeoJSON($31), 4326)::geography, false)]::float8[] AS distances
      FROM places p JOIN pool USING (id)
    ), candidates AS (
      SELECT p.id, p.source_id, p.name, p.category, NULL::text AS description, p.geom,
             m.distances, m.distances[1] AS d0,
             ARRAY[(m.distances[1] <= $32)]::boolean[] AS satisfied,
             m.id IN (SELECT id FROM tagged) AS tag_match,
             CASE WHEN p.embedding_model = $33 THEN 1 - (p.embedding <=> $34::vector) END AS sem_sim,
             CASE WHEN p.embedding_model = $35 THEN 1 - (p.embedding <=> $36::vector) END AS spa_sim,
             NULL::bigint AS population
      FROM measured m JOIN places p USING (id)
      WHERE m.distances[1] <= $37
      ORDER BY ((m.distances[1] <= $38)) DESC, tag_match DESC, sem_sim DESC NULLS LAST, d0 ASC, p.source_id
      LIMIT $39
    )
    SELECT id, source_id, name, category, description,
           ST_XMin(geom) AS x0, ST_YMin(geom) AS y0, ST_XMax(geom) AS x1, ST_YMax(geom) AS y1,
           distances, satisfied, tag_match, sem_sim, spa_sim, population, (SELECT count(*) FROM tagged)::int AS tagged_n
    FROM candidates
-- parameters: [[901],["Place r1"],-74.52089045091721,40.34276018099548,-73.4391095490828,41.15723981900452,["amenity=cafe"],["cafe"],"{\"type\":\"Point\",\"coordinates\":[-73.98,40.75]}",200,[901],["Place r1"],-74.52089045091721,40.34276018099548,-73.4391095490828,41.15723981900452,"{\"type\":\"Point\",\"coordinates\":[-73.98,40.75]}",100,-74.33984940415742,40.47850678733032,-73.62015059584259,41.02149321266968,25,[901],["Place r1"],"{\"type\":\"Point\",\"coordinates\":[-73.98,40.75]}",600,"test-model","[1,0,0]",150,"{\"type\":\"Point\",\"coordinates\":[-73.98,40.75]}",30000,"test-model","[1,0,0]","test-model","[0,1,0]",45000,30000,400]

-- tagged pool alone, rare targets

    WITH tagged AS MATERIALIZED (
      SELECT p.id FROM places p WHERE p.name IS NOT NULL AND coalesce(p.category, '') <> 'street' AND coalesce(p.category, '') <> 'country'
        AND NOT (p.id = ANY($1::bigint[])) AND NOT (p.name = ANY($2::text[])) AND (p.tag_tokens && $3::text[] OR p.category = ANY($4::text[])) AND ((p.geom && ST_MakeEnvelope($5, $6, $7, $8, 4326))) IS TRUE
      ORDER BY ST_Distance(p.geom, ST_SetSRID(ST_GeomFromGeoJSON($9), 4326)) LIMIT $10
    ), pool AS (
      SELECT id FROM tagged
    ), measured AS MATERIALIZED (
      SELECT p.id, ARRAY[ST_Distance(p.geog, ST_SetSRID(ST_GeomFromGeoJSON($11), 4326)::geography, false)]::float8[] AS distances
      FROM places p JOIN pool USING (id)
    ), candidates AS (
      SELECT p.id, p.source_id, p.name, p.category, NULL::text AS description, p.geom,
             m.distances, m.distances[1] AS d0,
             ARRAY[(m.distances[1] <= $12)]::boolean[] AS satisfied,
             m.id IN (SELECT id FROM tagged) AS tag_match,
             CASE WHEN p.embedding_model = $13 THEN 1 - (p.embedding <=> $14::vector) END AS sem_sim,
             CASE WHEN p.embedding_model = $15 THEN 1 - (p.embedding <=> $16::vector) END AS spa_sim,
             NULL::bigint AS population
      FROM measured m JOIN places p USING (id)
      WHERE m.distances[1] <= $17
      ORDER BY ((m.distances[1] <= $18)) DESC, tag_match DESC, sem_sim DESC NULLS LAST, d0 ASC, p.source_id
      LIMIT $19
    )
    SELECT id, source_id, name, category, description,
           ST_XMin(geom) AS x0, ST_YMin(geom) AS y0, ST_XMax(geom) AS x1, ST_YMax(geom) AS y1,
           distances, satisfied, tag_match, sem_sim, spa_sim, population, (SELECT count(*) FROM tagged)::int AS tagged_n
    FROM candidates
-- parameters: [[901],["Place r1"],["amenity=cafe"],["cafe"],-74.52089045091721,40.34276018099548,-73.4391095490828,41.15723981900452,"{\"type\":\"Point\",\"coordinates\":[-73.98,40.75]}",200,"{\"type\":\"Point\",\"coordinates\":[-73.98,40.75]}",30000,"test-model","[1,0,0]","test-model","[0,1,0]",45000,30000,400]

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
      SELECT p.id, ARRAY[ST_Distance(p.geog, ST_SetSRID(ST_GeomFromGeoJSON($19), 4326)::geography, false)]::float8[] AS distances
      FROM places p JOIN pool USING (id)
    ), candidates AS (
      SELECT p.id, p.source_id, p.name, p.category, p.description AS description, p.geom,
             m.distances, m.distances[1] AS d0,
             ARRAY[(m.distances[1] <= $20)]::boolean[] AS satisfied,
             m.id IN (SELECT id FROM tagged) AS tag_match,
             NULL::float8 AS sem_sim,
             NULL::float8 AS spa_sim,
             NULL::bigint AS population
      FROM measured m JOIN places p USING (id)
      WHERE m.distances[1] <= $21
      ORDER BY ((m.distances[1] <= $22)) DESC, tag_match DESC, sem_sim DESC NULLS LAST, d0 ASC, p.source_id
      LIMIT $23
    )
    SELECT id, source_id, name, category, description,
           ST_XMin(geom) AS x0, ST_YMin(geom) AS y0, ST_XMax(geom) AS x1, ST_YMax(geom) AS y1,
           distances, satisfied, tag_match, sem_sim, spa_sim, population, (SELECT count(*) FROM tagged)::int AS tagged_n
    FROM candidates
-- parameters: [[901],["Place r1"],-74.52089045091721,40.34276018099548,-73.4391095490828,41.15723981900452,["amenity=cafe"],["cafe"],"{\"type\":\"Point\",\"coordinates\":[-73.98,40.75]}",200,[901],["Place r1"],-74.52089045091721,40.34276018099548,-73.4391095490828,41.15723981900452,"{\"type\":\"Point\",\"coordinates\":[-73.98,40.75]}",100,"{\"type\":\"Point\",\"coordinates\":[-73.98,40.75]}",30000,45000,30000,400]
