-- all pools, with query vectors

    WITH tagged AS MATERIALIZED (
      SELECT p.id FROM places p WHERE p.name IS NOT NULL AND coalesce(p.category, '') <> 'street' AND coalesce(p.category, '') <> 'country'
        AND NOT (p.id = ANY($1::bigint[])) AND NOT (p.name = ANY($2::text[])) AND false AND (p.tag_tokens && $3::text[] OR p.category = ANY($4::text[])) AND ST_DWithin(p.geog, ST_SetSRID(ST_GeomFromGeoJSON($5), 4326)::geography, $6, false)
      ORDER BY p.geom <-> ST_SetSRID(ST_GeomFromGeoJSON($7), 4326) LIMIT $8
    ), pool AS (
      (SELECT p.id FROM places p WHERE p.name IS NOT NULL AND coalesce(p.category, '') <> 'street' AND coalesce(p.category, '') <> 'country'
        AND NOT (p.id = ANY($9::bigint[])) AND NOT (p.name = ANY($10::text[])) AND false AND ST_DWithin(p.geog, ST_SetSRID(ST_GeomFromGeoJSON($11), 4326)::geography, $12, false)
       ORDER BY p.geom <-> ST_SetSRID(ST_GeomFromGeoJSON($13), 4326) LIMIT $14)
      UNION
      SELECT id FROM tagged
      
    ), measured AS MATERIALIZED (
      SELECT p.id, ARRAY[ST_Distance(p.geog, ST_SetSRID(ST_GeomFromGeoJSON($15), 4326)::geography, false)]::float8[] AS distances
      FROM places p JOIN pool USING (id)
    ), candidates AS (
      SELECT p.id, p.source_id, p.name, p.category, NULL::text AS description, p.geom,
             m.distances, m.distances[1] AS d0,
             ARRAY[ST_DWithin(p.geog, ST_SetSRID(ST_GeomFromGeoJSON($16), 4326)::geography, $17, false)]::boolean[] AS satisfied,
             m.id IN (SELECT id FROM tagged) AS tag_match,
             CASE WHEN p.embedding_model = $18 THEN 1 - (p.embedding <=> $19::vector) END AS sem_sim,
             CASE WHEN p.embedding_model = $20 THEN 1 - (p.embedding <=> $21::vector) END AS spa_sim,
             NULL::bigint AS population
      FROM measured m JOIN places p USING (id)
      WHERE m.distances[1] <= $22
      ORDER BY (ST_DWithin(p.geog, ST_SetSRID(ST_GeomFromGeoJSON($23), 4326)::geography, $24, false)) DESC, tag_match DESC, sem_sim DESC NULLS LAST, d0 ASC, p.source_id
      LIMIT $25
    )
    SELECT id, source_id, name, category, description,
           ST_XMin(geom) AS x0, ST_YMin(geom) AS y0, ST_XMax(geom) AS x1, ST_YMax(geom) AS y1,
           distances, satisfied, tag_match, sem_sim, spa_sim, population, (SELECT count(*) FROM tagged)::int AS tagged_n
    FROM candidates
-- parameters: [[950],["Square Park"],["amenity=cafe"],["cafe"],"{\"type\":\"MultiLineString\",\"coordinates\":[]}",120,"{\"type\":\"MultiLineString\",\"coordinates\":[]}",200,[950],["Square Park"],"{\"type\":\"MultiLineString\",\"coordinates\":[]}",120,"{\"type\":\"MultiLineString\",\"coordinates\":[]}",100,"{\"type\":\"MultiLineString\",\"coordinates\":[]}","{\"type\":\"MultiLineString\",\"coordinates\":[]}",120,"test-model","[1,0,0]","test-model","[0,1,0]",220,"{\"type\":\"MultiLineString\",\"coordinates\":[]}",120,400]

-- tagged pool alone, rare targets

    WITH tagged AS MATERIALIZED (
      SELECT p.id FROM places p WHERE p.name IS NOT NULL AND coalesce(p.category, '') <> 'street' AND coalesce(p.category, '') <> 'country'
        AND NOT (p.id = ANY($1::bigint[])) AND NOT (p.name = ANY($2::text[])) AND (p.tag_tokens && $3::text[] OR p.category = ANY($4::text[])) AND (false) IS TRUE AND ST_DWithin(p.geog, ST_SetSRID(ST_GeomFromGeoJSON($5), 4326)::geography, $6, false)
      ORDER BY ST_Distance(p.geom, ST_SetSRID(ST_GeomFromGeoJSON($7), 4326)) LIMIT $8
    ), pool AS (
      SELECT id FROM tagged
    ), measured AS MATERIALIZED (
      SELECT p.id, ARRAY[ST_Distance(p.geog, ST_SetSRID(ST_GeomFromGeoJSON($9), 4326)::geography, false)]::float8[] AS distances
      FROM places p JOIN pool USING (id)
    ), candidates AS (
      SELECT p.id, p.source_id, p.name, p.category, NULL::text AS description, p.geom,
             m.distances, m.distances[1] AS d0,
             ARRAY[ST_DWithin(p.geog, ST_SetSRID(ST_GeomFromGeoJSON($10), 4326)::geography, $11, false)]::boolean[] AS satisfied,
             m.id IN (SELECT id FROM tagged) AS tag_match,
             CASE WHEN p.embedding_model = $12 THEN 1 - (p.embedding <=> $13::vector) END AS sem_sim,
             CASE WHEN p.embedding_model = $14 THEN 1 - (p.embedding <=> $15::vector) END AS spa_sim,
             NULL::bigint AS population
      FROM measured m JOIN places p USING (id)
      WHERE m.distances[1] <= $16
      ORDER BY (ST_DWithin(p.geog, ST_SetSRID(ST_GeomFromGeoJSON($17), 4326)::geography, $18, false)) DESC, tag_match DESC, sem_sim DESC NULLS LAST, d0 ASC, p.source_id
      LIMIT $19
    )
    SELECT id, source_id, name, category, description,
           ST_XMin(geom) AS x0, ST_YMin(geom) AS y0, ST_XMax(geom) AS x1, ST_YMax(geom) AS y1,
           distances, satisfied, tag_match, sem_sim, spa_sim, population, (SELECT count(*) FROM tagged)::int AS tagged_n
    FROM candidates
-- parameters: [[950],["Square Park"],["amenity=cafe"],["cafe"],"{\"type\":\"MultiLineString\",\"coordinates\":[]}",120,"{\"type\":\"MultiLineString\",\"coordinates\":[]}",200,"{\"type\":\"MultiLineString\",\"coordinates\":[]}","{\"type\":\"MultiLineString\",\"coordinates\":[]}",120,"test-model","[1,0,0]","test-model","[0,1,0]",220,"{\"type\":\"MultiLineString\",\"coordinates\":[]}",120,400]

-- all pools, without query vectors

    WITH tagged AS MATERIALIZED (
      SELECT p.id FROM places p WHERE p.name IS NOT NULL AND coalesce(p.category, '') <> 'street' AND coalesce(p.category, '') <> 'country'
        AND NOT (p.id = ANY($1::bigint[])) AND NOT (p.name = ANY($2::text[])) AND false AND (p.tag_tokens && $3::text[] OR p.category = ANY($4::text[])) AND ST_DWithin(p.geog, ST_SetSRID(ST_GeomFromGeoJSON($5), 4326)::geography, $6, false)
      ORDER BY p.geom <-> ST_SetSRID(ST_GeomFromGeoJSON($7), 4326) LIMIT $8
    ), pool AS (
      (SELECT p.id FROM places p WHERE p.name IS NOT NULL AND coalesce(p.category, '') <> 'street' AND coalesce(p.category, '') <> 'country'
        AND NOT (p.id = ANY($9::bigint[])) AND NOT (p.name = ANY($10::text[])) AND false AND ST_DWithin(p.geog, ST_SetSRID(ST_GeomFromGeoJSON($11), 4326)::geography, $12, false)
       ORDER BY p.geom <-> ST_SetSRID(ST_GeomFromGeoJSON($13), 4326) LIMIT $14)
      UNION
      SELECT id FROM tagged
      
    ), measured AS MATERIALIZED (
      SELECT p.id, ARRAY[ST_Distance(p.geog, ST_SetSRID(ST_GeomFromGeoJSON($15), 4326)::geography, false)]::float8[] AS distances
      FROM places p JOIN pool USING (id)
    ), candidates AS (
      SELECT p.id, p.source_id, p.name, p.category, p.description AS description, p.geom,
             m.distances, m.distances[1] AS d0,
             ARRAY[ST_DWithin(p.geog, ST_SetSRID(ST_GeomFromGeoJSON($16), 4326)::geography, $17, false)]::boolean[] AS satisfied,
             m.id IN (SELECT id FROM tagged) AS tag_match,
             NULL::float8 AS sem_sim,
             NULL::float8 AS spa_sim,
             NULL::bigint AS population
      FROM measured m JOIN places p USING (id)
      WHERE m.distances[1] <= $18
      ORDER BY (ST_DWithin(p.geog, ST_SetSRID(ST_GeomFromGeoJSON($19), 4326)::geography, $20, false)) DESC, tag_match DESC, sem_sim DESC NULLS LAST, d0 ASC, p.source_id
      LIMIT $21
    )
    SELECT id, source_id, name, category, description,
           ST_XMin(geom) AS x0, ST_YMin(geom) AS y0, ST_XMax(geom) AS x1, ST_YMax(geom) AS y1,
           distances, satisfied, tag_match, sem_sim, spa_sim, population, (SELECT count(*) FROM tagged)::int AS tagged_n
    FROM candidates
-- parameters: [[950],["Square Park"],["amenity=cafe"],["cafe"],"{\"type\":\"MultiLineString\",\"coordinates\":[]}",120,"{\"type\":\"MultiLineString\",\"coordinates\":[]}",200,[950],["Square Park"],"{\"type\":\"MultiLineString\",\"coordinates\":[]}",120,"{\"type\":\"MultiLineString\",\"coordinates\":[]}",100,"{\"type\":\"MultiLineString\",\"coordinates\":[]}","{\"type\":\"MultiLineString\",\"coordinates\":[]}",120,220,"{\"type\":\"MultiLineString\",\"coordinates\":[]}",120,400]
