
    WITH candidates AS (
      SELECT p.id, p.source_id, p.name, p.category, p.tags, p.description, p.geom,
             ST_Distance(p.geog, ST_SetSRID(ST_GeomFromGeoJSON($1), 4326)::geography, false) AS d0,
             ARRAY[ST_Distance(p.geog, ST_SetSRID(ST_GeomFromGeoJSON($2), 4326)::geography, false)]::float8[] AS distances,
             ARRAY[ST_DWithin(p.geog, ST_SetSRID(ST_GeomFromGeoJSON($3), 4326)::geography, $4, false)]::boolean[] AS satisfied,
             (coalesce(regexp_split_to_array(p.tags->>$5, $6) && $7::text[], false) OR coalesce(regexp_split_to_array(p.tags->>$8, $9) && $10::text[], false) OR coalesce(p.category = ANY($11::text[]), false)) AS tag_match,
             CASE WHEN p.embedding_model = $12
                  THEN 1 - (p.embedding <=> $13::vector) END AS sem_sim,
             CASE WHEN p.embedding_model = $14
                  THEN 1 - (p.embedding <=> $15::vector) END AS spa_sim
      FROM places p
      WHERE p.name IS NOT NULL
        AND coalesce(p.category, '') <> 'street'
        AND NOT (p.id = ANY($16::bigint[]))
        AND NOT (p.name = ANY($17::text[]))
        AND ST_DWithin(p.geog, ST_SetSRID(ST_GeomFromGeoJSON($18), 4326)::geography, $19, false)
      ORDER BY (ST_DWithin(p.geog, ST_SetSRID(ST_GeomFromGeoJSON($20), 4326)::geography, $21, false)) DESC, tag_match DESC, sem_sim DESC NULLS LAST, d0 ASC
      LIMIT $22
    )
    SELECT id, source_id, name, category, tags, description,
           ST_AsGeoJSON(ST_ForcePolygonCCW(geom), 6) AS geometry,
           distances, satisfied, tag_match, sem_sim, spa_sim
    FROM candidates