-- all pools, with query vectors

    WITH tagged AS MATERIALIZED (
      SELECT p.id FROM places p WHERE p.name IS NOT NULL AND coalesce(p.category, '') <> 'street' AND coalesce(p.category, '') <> 'country'
        AND NOT (p.id = ANY($1::bigint[])) AND NOT (p.name = ANY($2::text[])) AND (p.geom && ST_MakeEnvelope($3, $4, $5, $6, 4326) OR p.geom && ST_MakeEnvelope($7, $8, $9, $10, 4326) OR p.geom && ST_MakeEnvelope($11, $12, $13, $14, 4326) OR p.geom && ST_MakeEnvelope($15, $16, $17, $18, 4326)) AND (p.tag_tokens && $19::text[] OR p.category = ANY($20::text[])) AND ST_DWithin(ST_Affine(p.geom, $21, 0, 0, $22, 0, 0), ST_SetSRID(ST_GeomFromGeoJSON($23), 4326), $24)
      ORDER BY ST_Distance(p.geom, ST_Simplify(ST_SetSRID(ST_GeomFromGeoJSON($25), 4326), $26, true)) LIMIT $27
    ), pool AS (
      (SELECT p.id FROM places p WHERE p.name IS NOT NULL AND coalesce(p.category, '') <> 'street' AND coalesce(p.category, '') <> 'country'
        AND NOT (p.id = ANY($28::bigint[])) AND NOT (p.name = ANY($29::text[])) AND (p.geom && ST_MakeEnvelope($30, $31, $32, $33, 4326) OR p.geom && ST_MakeEnvelope($34, $35, $36, $37, 4326) OR p.geom && ST_MakeEnvelope($38, $39, $40, $41, 4326) OR p.geom && ST_MakeEnvelope($42, $43, $44, $45, 4326)) AND ST_DWithin(ST_Affine(p.geom, $46, 0, 0, $47, 0, 0), ST_SetSRID(ST_GeomFromGeoJSON($48), 4326), $49)
       ORDER BY ST_Distance(p.geom, ST_Simplify(ST_SetSRID(ST_GeomFromGeoJSON($50), 4326), $51, true)) LIMIT $52)
      UNION
      SELECT id FROM tagged
      UNION
      (SELECT p.id FROM places p WHERE (SELECT count(*) FROM tagged) < $53 AND p.name IS NOT NULL AND coalesce(p.category, '') <> 'street' AND coalesce(p.category, '') <> 'country'
        AND NOT (p.id = ANY($54::bigint[])) AND NOT (p.name = ANY($55::text[])) AND (p.geom && ST_MakeEnvelope($56, $57, $58, $59, 4326) OR p.geom && ST_MakeEnvelope($60, $61, $62, $63, 4326) OR p.geom && ST_MakeEnvelope($64, $65, $66, $67, 4326) OR p.geom && ST_MakeEnvelope($68, $69, $70, $71, 4326)) AND p.embedding_model = $72
       ORDER BY p.embedding <=> $73::vector LIMIT $74)
    ), measured AS MATERIALIZED (
      SELECT p.id, ARRAY[ST_Distance(ST_Affine(p.geom, $75, 0, 0, $76, 0, 0), ST_SetSRID(ST_GeomFromGeoJSON($77), 4326))]::float8[] AS distances
      FROM places p JOIN pool USING (id)
    ), candidates AS (
      SELECT p.id, p.source_id, p.name, p.category, NULL::text AS description, p.geom,
             m.distances, m.distances[1] AS d0,
             ARRAY[ST_DWithin(ST_Affine(p.geom, $78, 0, 0, $79, 0, 0), ST_SetSRID(ST_GeomFromGeoJSON($80), 4326), $81)]::boolean[] AS satisfied,
             m.id IN (SELECT id FROM tagged) AS tag_match,
             CASE WHEN p.embedding_model = $82 THEN 1 - (p.embedding <=> $83::vector) END AS sem_sim,
             CASE WHEN p.embedding_model = $84 THEN 1 - (p.embedding <=> $85::vector) END AS spa_sim,
             NULL::bigint AS population
      FROM measured m JOIN places p USING (id)
      WHERE m.distances[1] <= $86
      ORDER BY (ST_DWithin(ST_Affine(p.geom, $87, 0, 0, $88, 0, 0), ST_SetSRID(ST_GeomFromGeoJSON($89), 4326), $90)) DESC, tag_match DESC, sem_sim DESC NULLS LAST, d0 ASC, p.source_id
      LIMIT $91
    )
    SELECT id, source_id, name, category, description,
           ST_XMin(geom) AS x0, ST_YMin(geom) AS y0, ST_XMax(geom) AS x1, ST_YMax(geom) AS y1,
           distances, satisfied, tag_match, sem_sim, spa_sim, population, (SELECT count(*) FROM tagged)::int AS tagged_n
    FROM candidates
-- parameters: [[950],["Square Park"],-73.98762824942241,40.75000904977376,-73.97837175057758,40.753990950226246,-73.98362836802458,40.75000904977376,-73.9783716319754,40.756990950226246,-73.98762836802459,40.75300904977376,-73.9783716319754,40.756990950226246,-73.98762836802459,40.75000904977376,-73.98237163197541,40.756990950226246,["amenity=cafe"],["cafe"],84233.06517926088,111195.08023353292,"{\"type\":\"MultiLineString\",\"coordinates\":[[[-6231983.327287616,4531421.909676934],[-6231646.395026899,4531421.909676934],[-6231646.395026899,4531755.494917635],[-6231983.327287616,4531755.494917635],[-6231983.327287616,4531421.909676934]]]}",120,"{\"type\":\"MultiLineString\",\"coordinates\":[[[-73.985,40.752],[-73.981,40.752],[-73.981,40.755],[-73.985,40.755],[-73.985,40.752]]]}",0.00001,200,[950],["Square Park"],-73.98762824942241,40.75000904977376,-73.97837175057758,40.753990950226246,-73.98362836802458,40.75000904977376,-73.9783716319754,40.756990950226246,-73.98762836802459,40.75300904977376,-73.9783716319754,40.756990950226246,-73.98762836802459,40.75000904977376,-73.98237163197541,40.756990950226246,84233.06517926088,111195.08023353292,"{\"type\":\"MultiLineString\",\"coordinates\":[[[-6231983.327287616,4531421.909676934],[-6231646.395026899,4531421.909676934],[-6231646.395026899,4531755.494917635],[-6231983.327287616,4531755.494917635],[-6231983.327287616,4531421.909676934]]]}",120,"{\"type\":\"MultiLineString\",\"coordinates\":[[[-73.985,40.752],[-73.981,40.752],[-73.981,40.755],[-73.985,40.755],[-73.985,40.752]]]}",0.00001,100,25,[950],["Square Park"],-73.986433571081,40.75091402714932,-73.979566428919,40.753085972850684,-73.98243363577015,40.75091402714932,-73.97956636422984,40.756085972850684,-73.98643363577015,40.75391402714932,-73.97956636422984,40.756085972850684,-73.98643363577015,40.75091402714932,-73.98356636422984,40.756085972850684,"test-model","[1,0,0]",150,84233.06517926088,111195.08023353292,"{\"type\":\"MultiLineString\",\"coordinates\":[[[-6231983.327287616,4531421.909676934],[-6231646.395026899,4531421.909676934],[-6231646.395026899,4531755.494917635],[-6231983.327287616,4531755.494917635],[-6231983.327287616,4531421.909676934]]]}",84233.06517926088,111195.08023353292,"{\"type\":\"MultiLineString\",\"coordinates\":[[[-6231983.327287616,4531421.909676934],[-6231646.395026899,4531421.909676934],[-6231646.395026899,4531755.494917635],[-6231983.327287616,4531755.494917635],[-6231983.327287616,4531421.909676934]]]}",120,"test-model","[1,0,0]","test-model","[0,1,0]",220,84233.06517926088,111195.08023353292,"{\"type\":\"MultiLineString\",\"coordinates\":[[[-6231983.327287616,4531421.909676934],[-6231646.395026899,4531421.909676934],[-6231646.395026899,4531755.494917635],[-6231983.327287616,4531755.494917635],[-6231983.327287616,4531421.909676934]]]}",120,400]

-- tagged pool alone, rare targets

    WITH tagged AS MATERIALIZED (
      SELECT p.id FROM places p WHERE p.name IS NOT NULL AND coalesce(p.category, '') <> 'street' AND coalesce(p.category, '') <> 'country'
        AND NOT (p.id = ANY($1::bigint[])) AND NOT (p.name = ANY($2::text[])) AND (p.tag_tokens && $3::text[] OR p.category = ANY($4::text[])) AND ((p.geom && ST_MakeEnvelope($5, $6, $7, $8, 4326) OR p.geom && ST_MakeEnvelope($9, $10, $11, $12, 4326) OR p.geom && ST_MakeEnvelope($13, $14, $15, $16, 4326) OR p.geom && ST_MakeEnvelope($17, $18, $19, $20, 4326))) IS TRUE AND ST_DWithin(ST_Affine(p.geom, $21, 0, 0, $22, 0, 0), ST_SetSRID(ST_GeomFromGeoJSON($23), 4326), $24)
      ORDER BY ST_Distance(p.geom, ST_Simplify(ST_SetSRID(ST_GeomFromGeoJSON($25), 4326), $26, true)) LIMIT $27
    ), pool AS (
      SELECT id FROM tagged
    ), measured AS MATERIALIZED (
      SELECT p.id, ARRAY[ST_Distance(ST_Affine(p.geom, $28, 0, 0, $29, 0, 0), ST_SetSRID(ST_GeomFromGeoJSON($30), 4326))]::float8[] AS distances
      FROM places p JOIN pool USING (id)
    ), candidates AS (
      SELECT p.id, p.source_id, p.name, p.category, NULL::text AS description, p.geom,
             m.distances, m.distances[1] AS d0,
             ARRAY[ST_DWithin(ST_Affine(p.geom, $31, 0, 0, $32, 0, 0), ST_SetSRID(ST_GeomFromGeoJSON($33), 4326), $34)]::boolean[] AS satisfied,
             m.id IN (SELECT id FROM tagged) AS tag_match,
             CASE WHEN p.embedding_model = $35 THEN 1 - (p.embedding <=> $36::vector) END AS sem_sim,
             CASE WHEN p.embedding_model = $37 THEN 1 - (p.embedding <=> $38::vector) END AS spa_sim,
             NULL::bigint AS population
      FROM measured m JOIN places p USING (id)
      WHERE m.distances[1] <= $39
      ORDER BY (ST_DWithin(ST_Affine(p.geom, $40, 0, 0, $41, 0, 0), ST_SetSRID(ST_GeomFromGeoJSON($42), 4326), $43)) DESC, tag_match DESC, sem_sim DESC NULLS LAST, d0 ASC, p.source_id
      LIMIT $44
    )
    SELECT id, source_id, name, category, description,
           ST_XMin(geom) AS x0, ST_YMin(geom) AS y0, ST_XMax(geom) AS x1, ST_YMax(geom) AS y1,
           distances, satisfied, tag_match, sem_sim, spa_sim, population, (SELECT count(*) FROM tagged)::int AS tagged_n
    FROM candidates
-- parameters: [[950],["Square Park"],["amenity=cafe"],["cafe"],-73.98762824942241,40.75000904977376,-73.97837175057758,40.753990950226246,-73.98362836802458,40.75000904977376,-73.9783716319754,40.756990950226246,-73.98762836802459,40.75300904977376,-73.9783716319754,40.756990950226246,-73.98762836802459,40.75000904977376,-73.98237163197541,40.756990950226246,84233.06517926088,111195.08023353292,"{\"type\":\"MultiLineString\",\"coordinates\":[[[-6231983.327287616,4531421.909676934],[-6231646.395026899,4531421.909676934],[-6231646.395026899,4531755.494917635],[-6231983.327287616,4531755.494917635],[-6231983.327287616,4531421.909676934]]]}",120,"{\"type\":\"MultiLineString\",\"coordinates\":[[[-73.985,40.752],[-73.981,40.752],[-73.981,40.755],[-73.985,40.755],[-73.985,40.752]]]}",0.00001,200,84233.06517926088,111195.08023353292,"{\"type\":\"MultiLineString\",\"coordinates\":[[[-6231983.327287616,4531421.909676934],[-6231646.395026899,4531421.909676934],[-6231646.395026899,4531755.494917635],[-6231983.327287616,4531755.494917635],[-6231983.327287616,4531421.909676934]]]}",84233.06517926088,111195.08023353292,"{\"type\":\"MultiLineString\",\"coordinates\":[[[-6231983.327287616,4531421.909676934],[-6231646.395026899,4531421.909676934],[-6231646.395026899,4531755.494917635],[-6231983.327287616,4531755.494917635],[-6231983.327287616,4531421.909676934]]]}",120,"test-model","[1,0,0]","test-model","[0,1,0]",220,84233.06517926088,111195.08023353292,"{\"type\":\"MultiLineString\",\"coordinates\":[[[-6231983.327287616,4531421.909676934],[-6231646.395026899,4531421.909676934],[-6231646.395026899,4531755.494917635],[-6231983.327287616,4531755.494917635],[-6231983.327287616,4531421.909676934]]]}",120,400]

-- all pools, without query vectors

    WITH tagged AS MATERIALIZED (
      SELECT p.id FROM places p WHERE p.name IS NOT NULL AND coalesce(p.category, '') <> 'street' AND coalesce(p.category, '') <> 'country'
        AND NOT (p.id = ANY($1::bigint[])) AND NOT (p.name = ANY($2::text[])) AND (p.geom && ST_MakeEnvelope($3, $4, $5, $6, 4326) OR p.geom && ST_MakeEnvelope($7, $8, $9, $10, 4326) OR p.geom && ST_MakeEnvelope($11, $12, $13, $14, 4326) OR p.geom && ST_MakeEnvelope($15, $16, $17, $18, 4326)) AND (p.tag_tokens && $19::text[] OR p.category = ANY($20::text[])) AND ST_DWithin(ST_Affine(p.geom, $21, 0, 0, $22, 0, 0), ST_SetSRID(ST_GeomFromGeoJSON($23), 4326), $24)
      ORDER BY ST_Distance(p.geom, ST_Simplify(ST_SetSRID(ST_GeomFromGeoJSON($25), 4326), $26, true)) LIMIT $27
    ), pool AS (
      (SELECT p.id FROM places p WHERE p.name IS NOT NULL AND coalesce(p.category, '') <> 'street' AND coalesce(p.category, '') <> 'country'
        AND NOT (p.id = ANY($28::bigint[])) AND NOT (p.name = ANY($29::text[])) AND (p.geom && ST_MakeEnvelope($30, $31, $32, $33, 4326) OR p.geom && ST_MakeEnvelope($34, $35, $36, $37, 4326) OR p.geom && ST_MakeEnvelope($38, $39, $40, $41, 4326) OR p.geom && ST_MakeEnvelope($42, $43, $44, $45, 4326)) AND ST_DWithin(ST_Affine(p.geom, $46, 0, 0, $47, 0, 0), ST_SetSRID(ST_GeomFromGeoJSON($48), 4326), $49)
       ORDER BY ST_Distance(p.geom, ST_Simplify(ST_SetSRID(ST_GeomFromGeoJSON($50), 4326), $51, true)) LIMIT $52)
      UNION
      SELECT id FROM tagged
      
    ), measured AS MATERIALIZED (
      SELECT p.id, ARRAY[ST_Distance(ST_Affine(p.geom, $53, 0, 0, $54, 0, 0), ST_SetSRID(ST_GeomFromGeoJSON($55), 4326))]::float8[] AS distances
      FROM places p JOIN pool USING (id)
    ), candidates AS (
      SELECT p.id, p.source_id, p.name, p.category, p.description AS description, p.geom,
             m.distances, m.distances[1] AS d0,
             ARRAY[ST_DWithin(ST_Affine(p.geom, $56, 0, 0, $57, 0, 0), ST_SetSRID(ST_GeomFromGeoJSON($58), 4326), $59)]::boolean[] AS satisfied,
             m.id IN (SELECT id FROM tagged) AS tag_match,
             NULL::float8 AS sem_sim,
             NULL::float8 AS spa_sim,
             NULL::bigint AS population
      FROM measured m JOIN places p USING (id)
      WHERE m.distances[1] <= $60
      ORDER BY (ST_DWithin(ST_Affine(p.geom, $61, 0, 0, $62, 0, 0), ST_SetSRID(ST_GeomFromGeoJSON($63), 4326), $64)) DESC, tag_match DESC, sem_sim DESC NULLS LAST, d0 ASC, p.source_id
      LIMIT $65
    )
    SELECT id, source_id, name, category, description,
           ST_XMin(geom) AS x0, ST_YMin(geom) AS y0, ST_XMax(geom) AS x1, ST_YMax(geom) AS y1,
           distances, satisfied, tag_match, sem_sim, spa_sim, population, (SELECT count(*) FROM tagged)::int AS tagged_n
    FROM candidates
-- parameters: [[950],["Square Park"],-73.98762824942241,40.75000904977376,-73.97837175057758,40.753990950226246,-73.98362836802458,40.75000904977376,-73.9783716319754,40.756990950226246,-73.98762836802459,40.75300904977376,-73.9783716319754,40.756990950226246,-73.98762836802459,40.75000904977376,-73.98237163197541,40.756990950226246,["amenity=cafe"],["cafe"],84233.06517926088,111195.08023353292,"{\"type\":\"MultiLineString\",\"coordinates\":[[[-6231983.327287616,4531421.909676934],[-6231646.395026899,4531421.909676934],[-6231646.395026899,4531755.494917635],[-6231983.327287616,4531755.494917635],[-6231983.327287616,4531421.909676934]]]}",120,"{\"type\":\"MultiLineString\",\"coordinates\":[[[-73.985,40.752],[-73.981,40.752],[-73.981,40.755],[-73.985,40.755],[-73.985,40.752]]]}",0.00001,200,[950],["Square Park"],-73.98762824942241,40.75000904977376,-73.97837175057758,40.753990950226246,-73.98362836802458,40.75000904977376,-73.9783716319754,40.756990950226246,-73.98762836802459,40.75300904977376,-73.9783716319754,40.756990950226246,-73.98762836802459,40.75000904977376,-73.98237163197541,40.756990950226246,84233.06517926088,111195.08023353292,"{\"type\":\"MultiLineString\",\"coordinates\":[[[-6231983.327287616,4531421.909676934],[-6231646.395026899,4531421.909676934],[-6231646.395026899,4531755.494917635],[-6231983.327287616,4531755.494917635],[-6231983.327287616,4531421.909676934]]]}",120,"{\"type\":\"MultiLineString\",\"coordinates\":[[[-73.985,40.752],[-73.981,40.752],[-73.981,40.755],[-73.985,40.755],[-73.985,40.752]]]}",0.00001,100,84233.06517926088,111195.08023353292,"{\"type\":\"MultiLineString\",\"coordinates\":[[[-6231983.327287616,4531421.909676934],[-6231646.395026899,4531421.909676934],[-6231646.395026899,4531755.494917635],[-6231983.327287616,4531755.494917635],[-6231983.327287616,4531421.909676934]]]}",84233.06517926088,111195.08023353292,"{\"type\":\"MultiLineString\",\"coordinates\":[[[-6231983.327287616,4531421.909676934],[-6231646.395026899,4531421.909676934],[-6231646.395026899,4531755.494917635],[-6231983.327287616,4531755.494917635],[-6231983.327287616,4531421.909676934]]]}",120,220,84233.06517926088,111195.08023353292,"{\"type\":\"MultiLineString\",\"coordinates\":[[[-6231983.327287616,4531421.909676934],[-6231646.395026899,4531421.909676934],[-6231646.395026899,4531755.494917635],[-6231983.327287616,4531755.494917635],[-6231983.327287616,4531421.909676934]]]}",120,400]
