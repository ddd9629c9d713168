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
             ARRAY[(m.distances[1] <= $32 AND m.distances[1] > 0 AND coalesce(cos(ST_Azimuth(ST_ClosestPoint(ST_SetSRID(ST_GeomFromGeoJSON($33), 4326), ST_PointOnSurface(p.geom))::geography, ST_PointOnSurface(p.geom)::geography) - $34) >= $35, false))]::boolean[] AS satisfied,
             m.id IN (SELECT id FROM tagged) AS tag_match,
             CASE WHEN p.embedding_model = $36 THEN 1 - (p.embedding <=> $37::vector) END AS sem_sim,
             CASE WHEN p.embedding_model = $38 THEN 1 - (p.embedding <=> $39::vector) END AS spa_sim,
             NULL::bigint AS population
      FROM measured m JOIN places p USING (id)
      WHERE m.distances[1] <= $40
      ORDER BY ((m.distances[1] <= $41 AND m.distances[1] > 0 AND coalesce(cos(ST_Azimuth(ST_ClosestPoint(ST_SetSRID(ST_GeomFromGeoJSON($42), 4326), ST_PointOnSurface(p.geom))::geography, ST_PointOnSurface(p.geom)::geography) - $43) >= $44, false))) DESC, tag_match DESC, sem_sim DESC NULLS LAST, d0 ASC, p.source_id
      LIMIT $45
    )
    SELECT id, source_id, name, category, description,
           ST_XMin(geom) AS x0, ST_YMin(geom) AS y0, ST_XMax(geom) AS x1, ST_YMax(geom) AS y1,
           distances, satisfied, tag_match, sem_sim, spa_sim, population, (SELECT count(*) FROM tagged)::int AS tagged_n
    FROM candidates
-- parameters: [[901],["Place r1"],-74.52089045091721,40.34276018099548,-73.4391095490828,41.15723981900452,["amenity=cafe"],["cafe"],"{\"type\":\"Point\",\"coordinates\":[-73.98,40.75]}",200,[901],["Place r1"],-74.52089045091721,40.34276018099548,-73.4391095490828,41.15723981900452,"{\"type\":\"Point\",\"coordinates\":[-73.98,40.75]}",100,-74.33984940415742,40.47850678733032,-73.62015059584259,41.02149321266968,25,[901],["Place r1"],"{\"type\":\"Point\",\"coordinates\":[-73.98,40.75]}",600,"test-model","[1,0,0]",150,"{\"type\":\"Point\",\"coordinates\":[-73.98,40.75]}",30000,"{\"type\":\"Point\",\"coordinates\":[-73.98,40.75]}",4.71238898038469,0.7071067811865476,"test-model","[1,0,0]","test-model","[0,1,0]",45000,30000,"{\"type\":\"Point\",\"coordinates\":[-73.98,40.75]}",4.71238898038469,0.7071067811865476,400]

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
             ARRAY[(m.distances[1] <= $12 AND m.distances[1] > 0 AND coalesce(cos(ST_Azimuth(ST_ClosestPoint(ST_SetSRID(ST_GeomFromGeoJSON($13), 4326), ST_PointOnSurface(p.geom))::geography, ST_PointOnSurface(p.geom)::geography) - $14) >= $15, false))]::boolean[] AS satisfied,
             m.id IN (SELECT id FROM tagged) AS tag_match,
             CASE WHEN p.embedding_model = $16 THEN 1 - (p.embedding <=> $17::vector) END AS sem_sim,
             CASE WHEN p.embedding_model = $18 THEN 1 - (p.embedding <=> $19::vector) END AS spa_sim,
             NULL::bigint AS population
      FROM measured m JOIN places p USING (id)
      WHERE m.distances[1] <= $20
      ORDER BY ((m.distances[1] <= $21 AND m.distances[1] > 0 AND coalesce(cos(ST_Azimuth(ST_ClosestPoint(ST_SetSRID(ST_GeomFromGeoJSON($22), 4326), ST_PointOnSurface(p.geom))::geography, ST_PointOnSurface(p.geom)::geography) - $23) >= $24, false))) DESC, tag_match DESC, sem_sim DESC NULLS LAST, d0 ASC, p.source_id
      LIMIT $25
    )
    SELECT id, source_id, name, category, description,
           ST_XMin(geom) AS x0, ST_YMin(geom) AS y0, ST_XMax(geom) AS x1, ST_YMax(geom) AS y1,
           distances, satisfied, tag_match, sem_sim, spa_sim, population, (SELECT count(*) FROM tagged)::int AS tagged_n
    FROM candidates
-- parameters: [[901],["Place r1"],["amenity=cafe"],["cafe"],-74.52089045091721,40.34276018099548,-73.4391095490828,41.15723981900452,"{\"type\":\"Point\",\"coordinates\":[-73.98,40.75]}",200,"{\"type\":\"Point\",\"coordinates\":[-73.98,40.75]}",30000,"{\"type\":\"Point\",\"coordinates\":[-73.98,40.75]}",4.71238898038469,0.7071067811865476,"test-model","[1,0,0]","test-model","[0,1,0]",45000,30000,"{\"type\":\"Point\",\"coordinates\":[-73.98,40.75]}",4.71238898038469,0.7071067811865476,400]

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
             ARRAY[(m.distances[1] <= $20 AND m.distances[1] > 0 AND coalesce(cos(ST_Azimuth(ST_ClosestPoint(ST_SetSRID(ST_GeomFromGeoJSON($21), 4326), ST_PointOnSurface(p.geom))::geography, ST_PointOnSurface(p.geom)::geography) - $22) >= $23, false))]::boolean[] AS satisfied,
             m.id IN (SELECT id FROM tagged) AS tag_match,
             NULL::float8 AS sem_sim,
             NULL::float8 AS spa_sim,
             NULL::bigint AS population
      FROM measured m JOIN places p USING (id)
      WHERE m.distances[1] <= $24
      ORDER BY ((m.distances[1] <= $25 AND m.distances[1] > 0 AND coalesce(cos(ST_Azimuth(ST_ClosestPoint(ST_SetSRID(ST_GeomFromGeoJSON($26), 4326), ST_PointOnSurface(p.geom))::geography, ST_PointOnSurface(p.geom)::geography) - $27) >= $28, false))) DESC, tag_match DESC, sem_sim DESC NULLS LAST, d0 ASC, p.source_id
      LIMIT $29
    )
    SELECT id, source_id, name, category, description,
           ST_XMin(geom) AS x0, ST_YMin(geom) AS y0, ST_XMax(geom) AS x1, ST_YMax(geom) AS y1,
           distances, satisfied, tag_match, sem_sim, spa_sim, population, (SELECT count(*) FROM tagged)::int AS tagged_n
    FROM candidates
-- parameters: [[901],["Place r1"],-74.52089045091721,40.34276018099548,-73.4391095490828,41.15723981900452,["amenity=cafe"],["cafe"],"{\"type\":\"Point\",\"coordinates\":[-73.98,40.75]}",200,[901],["Place r1"],-74.52089045091721,40.34276018099548,-73.4391095490828,41.15723981900452,"{\"type\":\"Point\",\"coordinates\":[-73.98,40.75]}",100,"{\"type\":\"Point\",\"coordinates\":[-73.98,40.75]}",30000,"{\"type\":\"Point\",\"coordinates\":[-73.98,40.75]}",4.71238898038469,0.7071067811865476,45000,30000,"{\"type\":\"Point\",\"coordinates\":[-73.98,40.75]}",4.71238898038469,0.7071067811865476,400]
