
    WITH tagged AS MATERIALIZED (
      SELECT p.id FROM places p WHERE p.name IS NOT NULL AND coalesce(p.category, '') <> 'street'
        AND NOT (p.id = ANY($1::bigint[])) AND NOT (p.name = ANY($2::text[])) AND (p.geom && ST_MakeEnvelope($3, $4, $5, $6, 4326)) AND (p.tag_tokens && $7::text[] OR p.category = ANY($8::text[]))
      ORDER BY p.geom <-> ST_SetSRID(ST_GeomFromGeoJSON($9), 4326) LIMIT $10
    ), pool AS (
      (SELECT p.id FROM places p WHERE p.name IS NOT NULL AND coalesce(p.category, '') <> 'street'
        AND NOT (p.id = ANY($11::bigint[])) AND NOT (p.name = ANY($12::text[])) AND (p.geom && ST_MakeEnvelope($13, $14, $15, $16, 4326))
       ORDER BY p.geom <-> ST_SetSRID(ST_GeomFromGeoJSON($17), 4326) LIMIT $18)
      UNION
      SELECT id FROM tagged
      UNION
      (SELECT p.id FROM places p WHERE (SELECT count(*) FROM tagged) < $19
         AND p.name IS NOT NULL AND coalesce(p.category, '') <> 'street'
        AND NOT (p.id = ANY($20::bigint[])) AND NOT (p.name = ANY($21::text[])) AND (p.geom && ST_MakeEnvelope($22, $23, $24, $25, 4326)) AND p.embedding_model = $26
       ORDER BY p.embedding <=> $27::vector LIMIT $28)
    ), measured AS MATERIALIZED (
      SELECT p.id, ARRAY[ST_Distance(ST_Affine(p.geom, $29, 0, 0, $30, 0, 0), ST_SetSRID(ST_GeomFromGeoJSON($31), 4326))]::float8[] AS distances
      FROM places p JOIN pool USING (id)
    ), candidates AS (
      SELECT p.id, p.source_id, p.name, p.category, NULL::text AS description, p.geom,
             m.distances, m.distances[1] AS d0,
             ARRAY[(m.distances[1] <= $32)]::boolean[] AS satisfied,
             m.id IN (SELECT id FROM tagged) AS tag_match,
             CASE WHEN p.embedding_model = $33 THEN 1 - (p.embedding <=> $34::vector) END AS sem_sim,
             CASE WHEN p.embedding_model = $35 THEN 1 - (p.embedding <=> $36::vector) END AS spa_sim
      FROM measured m JOIN places p USING (id)
      WHERE m.distances[1] <= $37
      ORDER BY ((m.distances[1] <= $38)) DESC, tag_match DESC, sem_sim DESC NULLS LAST, d0 ASC
      LIMIT $39
    )
    SELECT id, source_id, name, category, description,
           ST_XMin(geom) AS x0, ST_YMin(geom) AS y0, ST_XMax(geom) AS x1, ST_YMax(geom) AS y1,
           distances, satisfied, tag_match, sem_sim, spa_sim
    FROM candidates