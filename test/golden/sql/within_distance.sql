
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