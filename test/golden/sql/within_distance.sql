
    WITH tagged AS MATERIALIZED (
      SELECT p.id FROM places p WHERE p.name IS NOT NULL AND coalesce(p.category, '') <> 'street'
        AND NOT (p.id = ANY($1::bigint[])) AND NOT (p.name = ANY($2::text[])) AND (p.geom && ST_MakeEnvelope($3, $4, $5, $6, 4326)) AND (p.tag_tokens && $7::text[] OR p.category = ANY($8::text[]))
      ORDER BY p.geom <-> ST_SetSRID(ST_GeomFromGeoJSON($9), 4326) LIMIT $10
    ), pool AS (
      (SELECT p.id FROM places p WHERE NOT EXISTS (SELECT FROM tagged) AND p.name IS NOT NULL AND coalesce(p.category, '') <> 'street'
        AND NOT (p.id = ANY($11::bigint[])) AND NOT (p.name = ANY($12::text[])) AND (p.geom && ST_MakeEnvelope($13, $14, $15, $16, 4326))
       ORDER BY p.geom <-> ST_SetSRID(ST_GeomFromGeoJSON($17), 4326) LIMIT $18)
      UNION
      SELECT id FROM tagged
      UNION
      (SELECT s.id FROM (
         SELECT p.id, p.embedding, p.embedding_model, (p.geom && ST_MakeEnvelope($19, $20, $21, $22, 4326)) AS in_window FROM places p WHERE NOT EXISTS (SELECT FROM tagged) AND p.name IS NOT NULL AND coalesce(p.category, '') <> 'street'
        AND NOT (p.id = ANY($23::bigint[])) AND NOT (p.name = ANY($24::text[]))
         ORDER BY p.geom <-> ST_SetSRID(ST_GeomFromGeoJSON($25), 4326) LIMIT $26) AS s
       WHERE s.in_window AND s.embedding_model = $27
       ORDER BY s.embedding <=> $28::vector LIMIT $29)
    ), measured AS MATERIALIZED (
      SELECT p.id, ARRAY[ST_Distance(ST_Affine(p.geom, $30, 0, 0, $31, 0, 0), ST_SetSRID(ST_GeomFromGeoJSON($32), 4326))]::float8[] AS distances
      FROM places p JOIN pool USING (id)
    ), candidates AS (
      SELECT p.id, p.source_id, p.name, p.category, NULL::text AS description, p.geom,
             m.distances, m.distances[1] AS d0,
             ARRAY[(m.distances[1] <= $33)]::boolean[] AS satisfied,
             m.id IN (SELECT id FROM tagged) AS tag_match,
             CASE WHEN p.embedding_model = $34 THEN 1 - (p.embedding <=> $35::vector) END AS sem_sim,
             CASE WHEN p.embedding_model = $36 THEN 1 - (p.embedding <=> $37::vector) END AS spa_sim
      FROM measured m JOIN places p USING (id)
      WHERE m.distances[1] <= $38
      ORDER BY ((m.distances[1] <= $39)) DESC, tag_match DESC, sem_sim DESC NULLS LAST, d0 ASC
      LIMIT $40
    )
    SELECT id, source_id, name, category, description,
           ST_XMin(geom) AS x0, ST_YMin(geom) AS y0, ST_XMax(geom) AS x1, ST_YMax(geom) AS y1,
           distances, satisfied, tag_match, sem_sim, spa_sim
    FROM candidates