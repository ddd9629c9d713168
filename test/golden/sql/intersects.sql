-- all pools, with query vectors

    WITH tagged AS MATERIALIZED (
      SELECT p.id FROM places p WHERE p.name IS NOT NULL AND coalesce(p.category, '') <> 'street' AND coalesce(p.category, '') <> 'country'
        AND NOT (p.id = ANY($1::bigint[])) AND NOT (p.name = ANY($2::text[])) AND (p.geom && ST_MakeEnvelope($3, $4, $5, $6, 4326) OR p.geom && ST_MakeEnvelope($7, $8, $9, $10, 4326) OR p.geom && ST_MakeEnvelope($11, $12, $13, $14, 4326) OR p.geom && ST_MakeEnvelope($15, $16, $17, $18, 4326) OR p.geom && ST_MakeEnvelope($19, $20, $21, $22, 4326) OR p.geom && ST_MakeEnvelope($23, $24, $25, $26, 4326) OR p.geom && ST_MakeEnvelope($27, $28, $29, $30, 4326) OR p.geom && ST_MakeEnvelope($31, $32, $33, $34, 4326) OR p.geom && ST_MakeEnvelope($35, $36, $37, $38, 4326) OR p.geom && ST_MakeEnvelope($39, $40, $41, $42, 4326) OR p.geom && ST_MakeEnvelope($43, $44, $45, $46, 4326)) AND (p.tag_tokens && $47::text[] OR p.category = ANY($48::text[]))
      ORDER BY ST_Distance(p.geom, ST_Simplify(ST_SetSRID(ST_GeomFromGeoJSON($49), 4326), $50, true)) LIMIT $51
    ), pool AS (
      (SELECT p.id FROM places p WHERE p.name IS NOT NULL AND coalesce(p.category, '') <> 'street' AND coalesce(p.category, '') <> 'country'
        AND NOT (p.id = ANY($52::bigint[])) AND NOT (p.name = ANY($53::text[])) AND (p.geom && ST_MakeEnvelope($54, $55, $56, $57, 4326) OR p.geom && ST_MakeEnvelope($58, $59, $60, $61, 4326) OR p.geom && ST_MakeEnvelope($62, $63, $64, $65, 4326) OR p.geom && ST_MakeEnvelope($66, $67, $68, $69, 4326) OR p.geom && ST_MakeEnvelope($70, $71, $72, $73, 4326) OR p.geom && ST_MakeEnvelope($74, $75, $76, $77, 4326) OR p.geom && ST_MakeEnvelope($78, $79, $80, $81, 4326) OR p.geom && ST_MakeEnvelope($82, $83, $84, $85, 4326) OR p.geom && ST_MakeEnvelope($86, $87, $88, $89, 4326) OR p.geom && ST_MakeEnvelope($90, $91, $92, $93, 4326) OR p.geom && ST_MakeEnvelope($94, $95, $96, $97, 4326))
       ORDER BY ST_Distance(p.geom, ST_Simplify(ST_SetSRID(ST_GeomFromGeoJSON($98), 4326), $99, true)) LIMIT $100)
      UNION
      SELECT id FROM tagged
      UNION
      (SELECT p.id FROM places p WHERE (SELECT count(*) FROM tagged) < $101 AND p.name IS NOT NULL AND coalesce(p.category, '') <> 'street' AND coalesce(p.category, '') <> 'country'
        AND NOT (p.id = ANY($102::bigint[])) AND NOT (p.name = ANY($103::text[])) AND (p.geom && ST_MakeEnvelope($104, $105, $106, $107, 4326) OR p.geom && ST_MakeEnvelope($108, $109, $110, $111, 4326) OR p.geom && ST_MakeEnvelope($112, $113, $114, $115, 4326) OR p.geom && ST_MakeEnvelope($116, $117, $118, $119, 4326) OR p.geom && ST_MakeEnvelope($120, $121, $122, $123, 4326) OR p.geom && ST_MakeEnvelope($124, $125, $126, $127, 4326) OR p.geom && ST_MakeEnvelope($128, $129, $130, $131, 4326) OR p.geom && ST_MakeEnvelope($132, $133, $134, $135, 4326) OR p.geom && ST_MakeEnvelope($136, $137, $138, $139, 4326) OR p.geom && ST_MakeEnvelope($140, $141, $142, $143, 4326) OR p.geom && ST_MakeEnvelope($144, $145, $146, $147, 4326)) AND p.embedding_model = $148
       ORDER BY p.embedding <=> $149::vector LIMIT $150)
    ), measured AS MATERIALIZED (
      SELECT p.id, ARRAY[ST_Distance(ST_Affine(p.geom, $151, 0, 0, $152, 0, 0), ST_SetSRID(ST_GeomFromGeoJSON($153), 4326))]::float8[] AS distances
      FROM places p JOIN pool USING (id)
    ), candidates AS (
      SELECT p.id, p.source_id, p.name, p.category, NULL::text AS description, p.geom,
             m.distances, m.distances[1] AS d0,
             ARRAY[ST_Intersects(p.geom, ST_SetSRID(ST_GeomFromGeoJSON($154), 4326))]::boolean[] AS satisfied,
             m.id IN (SELECT id FROM tagged) AS tag_match,
             CASE WHEN p.embedding_model = $155 THEN 1 - (p.embedding <=> $156::vector) END AS sem_sim,
             CASE WHEN p.embedding_model = $157 THEN 1 - (p.embedding <=> $158::vector) END AS spa_sim,
             NULL::bigint AS population
      FROM measured m JOIN places p USING (id)
      WHERE m.distances[1] <= $159
      ORDER BY (ST_Intersects(p.geom, ST_SetSRID(ST_GeomFromGeoJSON($160), 4326))) DESC, tag_match DESC, sem_sim DESC NULLS LAST, d0 ASC, p.source_id
      LIMIT $161
    )
    SELECT id, source_id, name, category, description,
           ST_XMin(geom) AS x0, ST_YMin(geom) AS y0, ST_XMax(geom) AS x1, ST_YMax(geom) AS y1,
           distances, satisfied, tag_match, sem_sim, spa_sim, population, (SELECT count(*) FROM tagged)::int AS tagged_n
    FROM candidates
-- parameters: [[960],["Long Avenue"],-73.99179174579803,40.738642533936655,-73.9854809814747,40.74499382969971,-73.98906457104627,40.742278897573016,-73.98275361077191,40.748630193336076,-73.98633739631245,40.74591526120938,-73.98002624005117,40.75226655697244,-73.98361022159655,40.74955162484574,-73.97729886931252,40.7559029206088,-73.98088304689861,40.753187988482104,-73.97457149855592,40.759539284245164,-73.97815587221861,40.75682435211847,-73.97184412778138,40.763175647881525,-73.97542869755657,40.76046071575483,-73.96911675698888,40.76681201151789,-73.97270152291246,40.7640970793912,-73.96638938617845,40.77044837515425,-73.96997434828633,40.76773344302756,-73.96366201535002,40.77408473879062,-73.96724717367813,40.77136980666393,-73.96093464450367,40.77772110242698,-73.96451999908791,40.77500617030029,-73.95820727363935,40.78135746606335,["amenity=cafe"],["cafe"],"{\"type\":\"LineString\",\"coordinates\":[[-73.99,40.74],[-73.975,40.76],[-73.96,40.78]]}",0.00001,200,[960],["Long Avenue"],-73.99179174579803,40.738642533936655,-73.9854809814747,40.74499382969971,-73.98906457104627,40.742278897573016,-73.98275361077191,40.748630193336076,-73.98633739631245,40.74591526120938,-73.98002624005117,40.75226655697244,-73.98361022159655,40.74955162484574,-73.97729886931252,40.7559029206088,-73.98088304689861,40.753187988482104,-73.97457149855592,40.759539284245164,-73.97815587221861,40.75682435211847,-73.97184412778138,40.763175647881525,-73.97542869755657,40.76046071575483,-73.96911675698888,40.76681201151789,-73.97270152291246,40.7640970793912,-73.96638938617845,40.77044837515425,-73.96997434828633,40.76773344302756,-73.96366201535002,40.77408473879062,-73.96724717367813,40.77136980666393,-73.96093464450367,40.77772110242698,-73.96451999908791,40.77500617030029,-73.95820727363935,40.78135746606335,"{\"type\":\"LineString\",\"coordinates\":[[-73.99,40.74],[-73.975,40.76],[-73.96,40.78]]}",0.00001,100,25,[960],["Long Avenue"],-73.99,40.74,-73.98727272727272,40.74363636363636,-73.98727272727272,40.74363636363636,-73.98454545454545,40.74727272727273,-73.98454545454545,40.74727272727273,-73.98181818181817,40.75090909090909,-73.98181818181817,40.75090909090909,-73.9790909090909,40.75454545454545,-73.9790909090909,40.75454545454545,-73.97636363636363,40.75818181818182,-73.97636363636363,40.75818181818182,-73.97363636363636,40.76181818181818,-73.97363636363636,40.76181818181818,-73.97090909090909,40.765454545454546,-73.97090909090909,40.765454545454546,-73.96818181818182,40.769090909090906,-73.96818181818182,40.769090909090906,-73.96545454545453,40.77272727272727,-73.96545454545453,40.77272727272727,-73.96272727272726,40.776363636363634,-73.96272727272726,40.776363636363634,-73.96,40.78,"test-model","[1,0,0]",150,84224.8296969745,111195.08023353292,"{\"type\":\"LineString\",\"coordinates\":[[-6231795.149279143,4530087.568714132],[-6230531.776833688,4532311.470318802],[-6229268.404388233,4534535.371923473]]}","{\"type\":\"LineString\",\"coordinates\":[[-73.99,40.74],[-73.975,40.76],[-73.96,40.78]]}","test-model","[1,0,0]","test-model","[0,1,0]",150,"{\"type\":\"LineString\",\"coordinates\":[[-73.99,40.74],[-73.975,40.76],[-73.96,40.78]]}",400]

-- tagged pool alone, rare targets

    WITH tagged AS MATERIALIZED (
      SELECT p.id FROM places p WHERE p.name IS NOT NULL AND coalesce(p.category, '') <> 'street' AND coalesce(p.category, '') <> 'country'
        AND NOT (p.id = ANY($1::bigint[])) AND NOT (p.name = ANY($2::text[])) AND (p.tag_tokens && $3::text[] OR p.category = ANY($4::text[])) AND ((p.geom && ST_MakeEnvelope($5, $6, $7, $8, 4326) OR p.geom && ST_MakeEnvelope($9, $10, $11, $12, 4326) OR p.geom && ST_MakeEnvelope($13, $14, $15, $16, 4326) OR p.geom && ST_MakeEnvelope($17, $18, $19, $20, 4326) OR p.geom && ST_MakeEnvelope($21, $22, $23, $24, 4326) OR p.geom && ST_MakeEnvelope($25, $26, $27, $28, 4326) OR p.geom && ST_MakeEnvelope($29, $30, $31, $32, 4326) OR p.geom && ST_MakeEnvelope($33, $34, $35, $36, 4326) OR p.geom && ST_MakeEnvelope($37, $38, $39, $40, 4326) OR p.geom && ST_MakeEnvelope($41, $42, $43, $44, 4326) OR p.geom && ST_MakeEnvelope($45, $46, $47, $48, 4326))) IS TRUE
      ORDER BY ST_Distance(p.geom, ST_Simplify(ST_SetSRID(ST_GeomFromGeoJSON($49), 4326), $50, true)) LIMIT $51
    ), pool AS (
      SELECT id FROM tagged
    ), measured AS MATERIALIZED (
      SELECT p.id, ARRAY[ST_Distance(ST_Affine(p.geom, $52, 0, 0, $53, 0, 0), ST_SetSRID(ST_GeomFromGeoJSON($54), 4326))]::float8[] AS distances
      FROM places p JOIN pool USING (id)
    ), candidates AS (
      SELECT p.id, p.source_id, p.name, p.category, NULL::text AS description, p.geom,
             m.distances, m.distances[1] AS d0,
             ARRAY[ST_Intersects(p.geom, ST_SetSRID(ST_GeomFromGeoJSON($55), 4326))]::boolean[] AS satisfied,
             m.id IN (SELECT id FROM tagged) AS tag_match,
             CASE WHEN p.embedding_model = $56 THEN 1 - (p.embedding <=> $57::vector) END AS sem_sim,
             CASE WHEN p.embedding_model = $58 THEN 1 - (p.embedding <=> $59::vector) END AS spa_sim,
             NULL::bigint AS population
      FROM measured m JOIN places p USING (id)
      WHERE m.distances[1] <= $60
      ORDER BY (ST_Intersects(p.geom, ST_SetSRID(ST_GeomFromGeoJSON($61), 4326))) DESC, tag_match DESC, sem_sim DESC NULLS LAST, d0 ASC, p.source_id
      LIMIT $62
    )
    SELECT id, source_id, name, category, description,
           ST_XMin(geom) AS x0, ST_YMin(geom) AS y0, ST_XMax(geom) AS x1, ST_YMax(geom) AS y1,
           distances, satisfied, tag_match, sem_sim, spa_sim, population, (SELECT count(*) FROM tagged)::int AS tagged_n
    FROM candidates
-- parameters: [[960],["Long Avenue"],["amenity=cafe"],["cafe"],-73.99179174579803,40.738642533936655,-73.9854809814747,40.74499382969971,-73.98906457104627,40.742278897573016,-73.98275361077191,40.748630193336076,-73.98633739631245,40.74591526120938,-73.98002624005117,40.75226655697244,-73.98361022159655,40.74955162484574,-73.97729886931252,40.7559029206088,-73.98088304689861,40.753187988482104,-73.97457149855592,40.759539284245164,-73.97815587221861,40.75682435211847,-73.97184412778138,40.763175647881525,-73.97542869755657,40.76046071575483,-73.96911675698888,40.76681201151789,-73.97270152291246,40.7640970793912,-73.96638938617845,40.77044837515425,-73.96997434828633,40.76773344302756,-73.96366201535002,40.77408473879062,-73.96724717367813,40.77136980666393,-73.96093464450367,40.77772110242698,-73.96451999908791,40.77500617030029,-73.95820727363935,40.78135746606335,"{\"type\":\"LineString\",\"coordinates\":[[-73.99,40.74],[-73.975,40.76],[-73.96,40.78]]}",0.00001,200,84224.8296969745,111195.08023353292,"{\"type\":\"LineString\",\"coordinates\":[[-6231795.149279143,4530087.568714132],[-6230531.776833688,4532311.470318802],[-6229268.404388233,4534535.371923473]]}","{\"type\":\"LineString\",\"coordinates\":[[-73.99,40.74],[-73.975,40.76],[-73.96,40.78]]}","test-model","[1,0,0]","test-model","[0,1,0]",150,"{\"type\":\"LineString\",\"coordinates\":[[-73.99,40.74],[-73.975,40.76],[-73.96,40.78]]}",400]

-- all pools, without query vectors

    WITH tagged AS MATERIALIZED (
      SELECT p.id FROM places p WHERE p.name IS NOT NULL AND coalesce(p.category, '') <> 'street' AND coalesce(p.category, '') <> 'country'
        AND NOT (p.id = ANY($1::bigint[])) AND NOT (p.name = ANY($2::text[])) AND (p.geom && ST_MakeEnvelope($3, $4, $5, $6, 4326) OR p.geom && ST_MakeEnvelope($7, $8, $9, $10, 4326) OR p.geom && ST_MakeEnvelope($11, $12, $13, $14, 4326) OR p.geom && ST_MakeEnvelope($15, $16, $17, $18, 4326) OR p.geom && ST_MakeEnvelope($19, $20, $21, $22, 4326) OR p.geom && ST_MakeEnvelope($23, $24, $25, $26, 4326) OR p.geom && ST_MakeEnvelope($27, $28, $29, $30, 4326) OR p.geom && ST_MakeEnvelope($31, $32, $33, $34, 4326) OR p.geom && ST_MakeEnvelope($35, $36, $37, $38, 4326) OR p.geom && ST_MakeEnvelope($39, $40, $41, $42, 4326) OR p.geom && ST_MakeEnvelope($43, $44, $45, $46, 4326)) AND (p.tag_tokens && $47::text[] OR p.category = ANY($48::text[]))
      ORDER BY ST_Distance(p.geom, ST_Simplify(ST_SetSRID(ST_GeomFromGeoJSON($49), 4326), $50, true)) LIMIT $51
    ), pool AS (
      (SELECT p.id FROM places p WHERE p.name IS NOT NULL AND coalesce(p.category, '') <> 'street' AND coalesce(p.category, '') <> 'country'
        AND NOT (p.id = ANY($52::bigint[])) AND NOT (p.name = ANY($53::text[])) AND (p.geom && ST_MakeEnvelope($54, $55, $56, $57, 4326) OR p.geom && ST_MakeEnvelope($58, $59, $60, $61, 4326) OR p.geom && ST_MakeEnvelope($62, $63, $64, $65, 4326) OR p.geom && ST_MakeEnvelope($66, $67, $68, $69, 4326) OR p.geom && ST_MakeEnvelope($70, $71, $72, $73, 4326) OR p.geom && ST_MakeEnvelope($74, $75, $76, $77, 4326) OR p.geom && ST_MakeEnvelope($78, $79, $80, $81, 4326) OR p.geom && ST_MakeEnvelope($82, $83, $84, $85, 4326) OR p.geom && ST_MakeEnvelope($86, $87, $88, $89, 4326) OR p.geom && ST_MakeEnvelope($90, $91, $92, $93, 4326) OR p.geom && ST_MakeEnvelope($94, $95, $96, $97, 4326))
       ORDER BY ST_Distance(p.geom, ST_Simplify(ST_SetSRID(ST_GeomFromGeoJSON($98), 4326), $99, true)) LIMIT $100)
      UNION
      SELECT id FROM tagged
      
    ), measured AS MATERIALIZED (
      SELECT p.id, ARRAY[ST_Distance(ST_Affine(p.geom, $101, 0, 0, $102, 0, 0), ST_SetSRID(ST_GeomFromGeoJSON($103), 4326))]::float8[] AS distances
      FROM places p JOIN pool USING (id)
    ), candidates AS (
      SELECT p.id, p.source_id, p.name, p.category, p.description AS description, p.geom,
             m.distances, m.distances[1] AS d0,
             ARRAY[ST_Intersects(p.geom, ST_SetSRID(ST_GeomFromGeoJSON($104), 4326))]::boolean[] AS satisfied,
             m.id IN (SELECT id FROM tagged) AS tag_match,
             NULL::float8 AS sem_sim,
             NULL::float8 AS spa_sim,
             NULL::bigint AS population
      FROM measured m JOIN places p USING (id)
      WHERE m.distances[1] <= $105
      ORDER BY (ST_Intersects(p.geom, ST_SetSRID(ST_GeomFromGeoJSON($106), 4326))) DESC, tag_match DESC, sem_sim DESC NULLS LAST, d0 ASC, p.source_id
      LIMIT $107
    )
    SELECT id, source_id, name, category, description,
           ST_XMin(geom) AS x0, ST_YMin(geom) AS y0, ST_XMax(geom) AS x1, ST_YMax(geom) AS y1,
           distances, satisfied, tag_match, sem_sim, spa_sim, population, (SELECT count(*) FROM tagged)::int AS tagged_n
    FROM candidates
-- parameters: [[960],["Long Avenue"],-73.99179174579803,40.738642533936655,-73.9854809814747,40.74499382969971,-73.98906457104627,40.742278897573016,-73.98275361077191,40.748630193336076,-73.98633739631245,40.74591526120938,-73.98002624005117,40.75226655697244,-73.98361022159655,40.74955162484574,-73.97729886931252,40.7559029206088,-73.98088304689861,40.753187988482104,-73.97457149855592,40.759539284245164,-73.97815587221861,40.75682435211847,-73.97184412778138,40.763175647881525,-73.97542869755657,40.76046071575483,-73.96911675698888,40.76681201151789,-73.97270152291246,40.7640970793912,-73.96638938617845,40.77044837515425,-73.96997434828633,40.76773344302756,-73.96366201535002,40.77408473879062,-73.96724717367813,40.77136980666393,-73.96093464450367,40.77772110242698,-73.96451999908791,40.77500617030029,-73.95820727363935,40.78135746606335,["amenity=cafe"],["cafe"],"{\"type\":\"LineString\",\"coordinates\":[[-73.99,40.74],[-73.975,40.76],[-73.96,40.78]]}",0.00001,200,[960],["Long Avenue"],-73.99179174579803,40.738642533936655,-73.9854809814747,40.74499382969971,-73.98906457104627,40.742278897573016,-73.98275361077191,40.748630193336076,-73.98633739631245,40.74591526120938,-73.98002624005117,40.75226655697244,-73.98361022159655,40.74955162484574,-73.97729886931252,40.7559029206088,-73.98088304689861,40.753187988482104,-73.97457149855592,40.759539284245164,-73.97815587221861,40.75682435211847,-73.97184412778138,40.763175647881525,-73.97542869755657,40.76046071575483,-73.96911675698888,40.76681201151789,-73.97270152291246,40.7640970793912,-73.96638938617845,40.77044837515425,-73.96997434828633,40.76773344302756,-73.96366201535002,40.77408473879062,-73.96724717367813,40.77136980666393,-73.96093464450367,40.77772110242698,-73.96451999908791,40.77500617030029,-73.95820727363935,40.78135746606335,"{\"type\":\"LineString\",\"coordinates\":[[-73.99,40.74],[-73.975,40.76],[-73.96,40.78]]}",0.00001,100,84224.8296969745,111195.08023353292,"{\"type\":\"LineString\",\"coordinates\":[[-6231795.149279143,4530087.568714132],[-6230531.776833688,4532311.470318802],[-6229268.404388233,4534535.371923473]]}","{\"type\":\"LineString\",\"coordinates\":[[-73.99,40.74],[-73.975,40.76],[-73.96,40.78]]}",150,"{\"type\":\"LineString\",\"coordinates\":[[-73.99,40.74],[-73.975,40.76],[-73.96,40.78]]}",400]
