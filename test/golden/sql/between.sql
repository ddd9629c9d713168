-- all pools, with query vectors

    WITH tagged AS MATERIALIZED (
      SELECT p.id FROM places p WHERE p.name IS NOT NULL AND coalesce(p.category, '') <> 'street' AND coalesce(p.category, '') <> 'country'
        AND NOT (p.id = ANY($1::bigint[])) AND NOT (p.name = ANY($2::text[])) AND (p.geom && ST_MakeEnvelope($3, $4, $5, $6, 4326) OR p.geom && ST_MakeEnvelope($7, $8, $9, $10, 4326) OR p.geom && ST_MakeEnvelope($11, $12, $13, $14, 4326)) AND (p.tag_tokens && $15::text[] OR p.category = ANY($16::text[]))
      ORDER BY ST_Distance(p.geom, ST_Simplify(ST_SetSRID(ST_GeomFromGeoJSON($17), 4326), $18, true)) LIMIT $19
    ), pool AS (
      (SELECT p.id FROM places p WHERE p.name IS NOT NULL AND coalesce(p.category, '') <> 'street' AND coalesce(p.category, '') <> 'country'
        AND NOT (p.id = ANY($20::bigint[])) AND NOT (p.name = ANY($21::text[])) AND (p.geom && ST_MakeEnvelope($22, $23, $24, $25, 4326) OR p.geom && ST_MakeEnvelope($26, $27, $28, $29, 4326) OR p.geom && ST_MakeEnvelope($30, $31, $32, $33, 4326))
       ORDER BY ST_Distance(p.geom, ST_Simplify(ST_SetSRID(ST_GeomFromGeoJSON($34), 4326), $35, true)) LIMIT $36)
      UNION
      SELECT id FROM tagged
      UNION
      (SELECT p.id FROM places p WHERE (SELECT count(*) FROM tagged) < $37 AND p.name IS NOT NULL AND coalesce(p.category, '') <> 'street' AND coalesce(p.category, '') <> 'country'
        AND NOT (p.id = ANY($38::bigint[])) AND NOT (p.name = ANY($39::text[])) AND (p.geom && ST_MakeEnvelope($40, $41, $42, $43, 4326) OR p.geom && ST_MakeEnvelope($44, $45, $46, $47, 4326) OR p.geom && ST_MakeEnvelope($48, $49, $50, $51, 4326)) AND p.embedding_model = $52
       ORDER BY p.embedding <=> $53::vector LIMIT $54)
    ), measured AS MATERIALIZED (
      SELECT p.id, ARRAY[ST_Distance(ST_Affine(p.geom, $55, 0, 0, $56, 0, 0), ST_SetSRID(ST_GeomFromGeoJSON($57), 4326))]::float8[] AS distances
      FROM places p JOIN pool USING (id)
    ), candidates AS (
      SELECT p.id, p.source_id, p.name, p.category, NULL::text AS description, p.geom,
             m.distances, m.distances[1] AS d0,
             ARRAY[(m.distances[1] <= $58)]::boolean[] AS satisfied,
             m.id IN (SELECT id FROM tagged) AS tag_match,
             CASE WHEN p.embedding_model = $59 THEN 1 - (p.embedding <=> $60::vector) END AS sem_sim,
             CASE WHEN p.embedding_model = $61 THEN 1 - (p.embedding <=> $62::vector) END AS spa_sim,
             NULL::bigint AS population
      FROM measured m JOIN places p USING (id)
      WHERE m.distances[1] <= $63
      ORDER BY ((m.distances[1] <= $64)) DESC, tag_match DESC, sem_sim DESC NULLS LAST, d0 ASC, p.source_id
      LIMIT $65
    )
    SELECT id, source_id, name, category, description,
           ST_XMin(geom) AS x0, ST_YMin(geom) AS y0, ST_XMax(geom) AS x1, ST_YMax(geom) AS y1,
           distances, satisfied, tag_match, sem_sim, spa_sim, population, (SELECT count(*) FROM tagged)::int AS tagged_n
    FROM candidates
-- parameters: [[901,902],["Place r1","Place r2"],-73.98268798419323,40.74796380090498,-73.97331201580677,40.754036199095026,-73.97868806505649,40.74996380090498,-73.9693119349435,40.75603619909503,-73.97468810549117,40.75196380090498,-73.96731189450882,40.757036199095026,["amenity=cafe"],["cafe"],"{\"type\":\"LineString\",\"coordinates\":[[-73.98,40.75],[-73.97,40.755]]}",0.00001,200,[901,902],["Place r1","Place r2"],-73.98268798419323,40.74796380090498,-73.97331201580677,40.754036199095026,-73.97868806505649,40.74996380090498,-73.9693119349435,40.75603619909503,-73.97468810549117,40.75196380090498,-73.96731189450882,40.757036199095026,"{\"type\":\"LineString\",\"coordinates\":[[-73.98,40.75],[-73.97,40.755]]}",0.00001,100,25,[901,902],["Place r1","Place r2"],-73.98179197116853,40.74864253393665,-73.97420802883147,40.75335746606335,-73.97779202507553,40.750642533936656,-73.97020797492446,40.75535746606335,-73.97379205203106,40.75264253393666,-73.96820794796893,40.75635746606335,"test-model","[1,0,0]",150,84234.33208031765,111195.08023353292,"{\"type\":\"LineString\",\"coordinates\":[[-6231655.8873018995,4531199.519516466],[-6230813.543981096,4531755.494917635]]}",150,"test-model","[1,0,0]","test-model","[0,1,0]",225,150,400]

-- tagged pool alone, rare targets

    WITH tagged AS MATERIALIZED (
      SELECT p.id FROM places p WHERE p.name IS NOT NULL AND coalesce(p.category, '') <> 'street' AND coalesce(p.category, '') <> 'country'
        AND NOT (p.id = ANY($1::bigint[])) AND NOT (p.name = ANY($2::text[])) AND (p.tag_tokens && $3::text[] OR p.category = ANY($4::text[])) AND ((p.geom && ST_MakeEnvelope($5, $6, $7, $8, 4326) OR p.geom && ST_MakeEnvelope($9, $10, $11, $12, 4326) OR p.geom && ST_MakeEnvelope($13, $14, $15, $16, 4326))) IS TRUE
      ORDER BY ST_Distance(p.geom, ST_Simplify(ST_SetSRID(ST_GeomFromGeoJSON($17), 4326), $18, true)) LIMIT $19
    ), pool AS (
      SELECT id FROM tagged
    ), measured AS MATERIALIZED (
      SELECT p.id, ARRAY[ST_Distance(ST_Affine(p.geom, $20, 0, 0, $21, 0, 0), ST_SetSRID(ST_GeomFromGeoJSON($22), 4326))]::float8[] AS distances
      FROM places p JOIN pool USING (id)
    ), candidates AS (
      SELECT p.id, p.source_id, p.name, p.category, NULL::text AS description, p.geom,
             m.distances, m.distances[1] AS d0,
             ARRAY[(m.distances[1] <= $23)]::boolean[] AS satisfied,
             m.id IN (SELECT id FROM tagged) AS tag_match,
             CASE WHEN p.embedding_model = $24 THEN 1 - (p.embedding <=> $25::vector) END AS sem_sim,
             CASE WHEN p.embedding_model = $26 THEN 1 - (p.embedding <=> $27::vector) END AS spa_sim,
             NULL::bigint AS population
      FROM measured m JOIN places p USING (id)
      WHERE m.distances[1] <= $28
      ORDER BY ((m.distances[1] <= $29)) DESC, tag_match DESC, sem_sim DESC NULLS LAST, d0 ASC, p.source_id
      LIMIT $30
    )
    SELECT id, source_id, name, category, description,
           ST_XMin(geom) AS x0, ST_YMin(geom) AS y0, ST_XMax(geom) AS x1, ST_YMax(geom) AS y1,
           distances, satisfied, tag_match, sem_sim, spa_sim, population, (SELECT count(*) FROM tagged)::int AS tagged_n
    FROM candidates
-- parameters: [[901,902],["Place r1","Place r2"],["amenity=cafe"],["cafe"],-73.98268798419323,40.74796380090498,-73.97331201580677,40.754036199095026,-73.97868806505649,40.74996380090498,-73.9693119349435,40.75603619909503,-73.97468810549117,40.75196380090498,-73.96731189450882,40.757036199095026,"{\"type\":\"LineString\",\"coordinates\":[[-73.98,40.75],[-73.97,40.755]]}",0.00001,200,84234.33208031765,111195.08023353292,"{\"type\":\"LineString\",\"coordinates\":[[-6231655.8873018995,4531199.519516466],[-6230813.543981096,4531755.494917635]]}",150,"test-model","[1,0,0]","test-model","[0,1,0]",225,150,400]

-- all pools, without query vectors

    WITH tagged AS MATERIALIZED (
      SELECT p.id FROM places p WHERE p.name IS NOT NULL AND coalesce(p.category, '') <> 'street' AND coalesce(p.category, '') <> 'country'
        AND NOT (p.id = ANY($1::bigint[])) AND NOT (p.name = ANY($2::text[])) AND (p.geom && ST_MakeEnvelope($3, $4, $5, $6, 4326) OR p.geom && ST_MakeEnvelope($7, $8, $9, $10, 4326) OR p.geom && ST_MakeEnvelope($11, $12, $13, $14, 4326)) AND (p.tag_tokens && $15::text[] OR p.category = ANY($16::text[]))
      ORDER BY ST_Distance(p.geom, ST_Simplify(ST_SetSRID(ST_GeomFromGeoJSON($17), 4326), $18, true)) LIMIT $19
    ), pool AS (
      (SELECT p.id FROM places p WHERE p.name IS NOT NULL AND coalesce(p.category, '') <> 'street' AND coalesce(p.category, '') <> 'country'
        AND NOT (p.id = ANY($20::bigint[])) AND NOT (p.name = ANY($21::text[])) AND (p.geom && ST_MakeEnvelope($22, $23, $24, $25, 4326) OR p.geom && ST_MakeEnvelope($26, $27, $28, $29, 4326) OR p.geom && ST_MakeEnvelope($30, $31, $32, $33, 4326))
       ORDER BY ST_Distance(p.geom, ST_Simplify(ST_SetSRID(ST_GeomFromGeoJSON($34), 4326), $35, true)) LIMIT $36)
      UNION
      SELECT id FROM tagged
      
    ), measured AS MATERIALIZED (
      SELECT p.id, ARRAY[ST_Distance(ST_Affine(p.geom, $37, 0, 0, $38, 0, 0), ST_SetSRID(ST_GeomFromGeoJSON($39), 4326))]::float8[] AS distances
      FROM places p JOIN pool USING (id)
    ), candidates AS (
      SELECT p.id, p.source_id, p.name, p.category, p.description AS description, p.geom,
             m.distances, m.distances[1] AS d0,
             ARRAY[(m.distances[1] <= $40)]::boolean[] AS satisfied,
             m.id IN (SELECT id FROM tagged) AS tag_match,
             NULL::float8 AS sem_sim,
             NULL::float8 AS spa_sim,
             NULL::bigint AS population
      FROM measured m JOIN places p USING (id)
      WHERE m.distances[1] <= $41
      ORDER BY ((m.distances[1] <= $42)) DESC, tag_match DESC, sem_sim DESC NULLS LAST, d0 ASC, p.source_id
      LIMIT $43
    )
    SELECT id, source_id, name, category, description,
           ST_XMin(geom) AS x0, ST_YMin(geom) AS y0, ST_XMax(geom) AS x1, ST_YMax(geom) AS y1,
           distances, satisfied, tag_match, sem_sim, spa_sim, population, (SELECT count(*) FROM tagged)::int AS tagged_n
    FROM candidates
-- parameters: [[901,902],["Place r1","Place r2"],-73.98268798419323,40.74796380090498,-73.97331201580677,40.754036199095026,-73.97868806505649,40.74996380090498,-73.9693119349435,40.75603619909503,-73.97468810549117,40.75196380090498,-73.96731189450882,40.757036199095026,["amenity=cafe"],["cafe"],"{\"type\":\"LineString\",\"coordinates\":[[-73.98,40.75],[-73.97,40.755]]}",0.00001,200,[901,902],["Place r1","Place r2"],-73.98268798419323,40.74796380090498,-73.97331201580677,40.754036199095026,-73.97868806505649,40.74996380090498,-73.9693119349435,40.75603619909503,-73.97468810549117,40.75196380090498,-73.96731189450882,40.757036199095026,"{\"type\":\"LineString\",\"coordinates\":[[-73.98,40.75],[-73.97,40.755]]}",0.00001,100,84234.33208031765,111195.08023353292,"{\"type\":\"LineString\",\"coordinates\":[[-6231655.8873018995,4531199.519516466],[-6230813.543981096,4531755.494917635]]}",150,225,150,400]
