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
             ARRAY[(m.distances[1] <= $154)]::boolean[] AS satisfied,
             m.id IN (SELECT id FROM tagged) AS tag_match,
             CASE WHEN p.embedding_model = $155 THEN 1 - (p.embedding <=> $156::vector) END AS sem_sim,
             CASE WHEN p.embedding_model = $157 THEN 1 - (p.embedding <=> $158::vector) END AS spa_sim,
             NULL::bigint AS population
      FROM measured m JOIN places p USING (id)
      WHERE m.distances[1] <= $159
      ORDER BY ((m.distances[1] <= $160)) DESC, tag_match DESC, sem_sim DESC NULLS LAST, d0 ASC, p.source_id
      LIMIT $161
    )
    SELECT id, source_id, name, category, description,
           ST_XMin(geom) AS x0, ST_YMin(geom) AS y0, ST_XMax(geom) AS x1, ST_YMax(geom) AS y1,
           distances, satisfied, tag_match, sem_sim, spa_sim, population, (SELECT count(*) FROM tagged)::int AS tagged_n
    FROM candidates
-- parameters: [[960],["Long Avenue"],-73.9915528421323,40.73882352941177,-73.98571988514043,40.7448128342246,-73.98882565431637,40.74245989304813,-73.9829925275018,40.748449197860964,-73.98609846651598,40.746096256684496,-73.98026516984764,40.752085561497324,-73.98337127873113,40.749732620320856,-73.97753781217794,40.755721925133685,-73.98064409096183,40.753368983957216,-73.9748104544927,40.75935828877005,-73.97791690320808,40.757005347593584,-73.9720830967919,40.76299465240641,-73.9751897154699,40.760641711229944,-73.96935573907555,40.76663101604278,-73.97246252774727,40.76427807486631,-73.96662838134364,40.77026737967914,-73.9697353400402,40.76791443850267,-73.96390102359615,40.77390374331551,-73.9670081523487,40.77155080213904,-73.9611736658331,40.77754010695187,-73.96428096467275,40.7751871657754,-73.9584463080545,40.781176470588235,["amenity=cafe"],["cafe"],"{\"type\":\"LineString\",\"coordinates\":[[-73.99,40.74],[-73.975,40.76],[-73.96,40.78]]}",0.00001,200,[960],["Long Avenue"],-73.9915528421323,40.73882352941177,-73.98571988514043,40.7448128342246,-73.98882565431637,40.74245989304813,-73.9829925275018,40.748449197860964,-73.98609846651598,40.746096256684496,-73.98026516984764,40.752085561497324,-73.98337127873113,40.749732620320856,-73.97753781217794,40.755721925133685,-73.98064409096183,40.753368983957216,-73.9748104544927,40.75935828877005,-73.97791690320808,40.757005347593584,-73.9720830967919,40.76299465240641,-73.9751897154699,40.760641711229944,-73.96935573907555,40.76663101604278,-73.97246252774727,40.76427807486631,-73.96662838134364,40.77026737967914,-73.9697353400402,40.76791443850267,-73.96390102359615,40.77390374331551,-73.9670081523487,40.77155080213904,-73.9611736658331,40.77754010695187,-73.96428096467275,40.7751871657754,-73.9584463080545,40.781176470588235,"{\"type\":\"LineString\",\"coordinates\":[[-73.99,40.74],[-73.975,40.76],[-73.96,40.78]]}",0.00001,100,25,[960],["Long Avenue"],-73.99095558865692,40.73927601809955,-73.9863171386158,40.74436034553681,-73.9882283681816,40.74291238173591,-73.98358981363658,40.74799670917318,-73.98550114771582,40.74654874537228,-73.9808624886478,40.75163307280954,-73.98277392725961,40.75018510900864,-73.97813516364945,40.7552694364459,-73.98004670681298,40.753821472645,-73.97540783864154,40.75890580008227,-73.97731948637592,40.75745783628137,-73.97268051362407,40.76254216371863,-73.97459226594844,40.76109419991773,-73.969953188597,40.766178527354995,-73.97186504553052,40.764730563554096,-73.96722586356039,40.769814890991356,-73.96913782512219,40.768366927190456,-73.96449853851416,40.77345125462772,-73.96641060472342,40.772003290826824,-73.96177121345838,40.77708761826408,-73.96368338433425,40.775639654463184,-73.95904388839301,40.78072398190045,"test-model","[1,0,0]",150,84224.8296969745,111195.08023353292,"{\"type\":\"LineString\",\"coordinates\":[[-6231795.149279143,4530087.568714132],[-6230531.776833688,4532311.470318802],[-6229268.404388233,4534535.371923473]]}",80,"test-model","[1,0,0]","test-model","[0,1,0]",130,80,400]

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
             ARRAY[(m.distances[1] <= $55)]::boolean[] AS satisfied,
             m.id IN (SELECT id FROM tagged) AS tag_match,
             CASE WHEN p.embedding_model = $56 THEN 1 - (p.embedding <=> $57::vector) END AS sem_sim,
             CASE WHEN p.embedding_model = $58 THEN 1 - (p.embedding <=> $59::vector) END AS spa_sim,
             NULL::bigint AS population
      FROM measured m JOIN places p USING (id)
      WHERE m.distances[1] <= $60
      ORDER BY ((m.distances[1] <= $61)) DESC, tag_match DESC, sem_sim DESC NULLS LAST, d0 ASC, p.source_id
      LIMIT $62
    )
    SELECT id, source_id, name, category, description,
           ST_XMin(geom) AS x0, ST_YMin(geom) AS y0, ST_XMax(geom) AS x1, ST_YMax(geom) AS y1,
           distances, satisfied, tag_match, sem_sim, spa_sim, population, (SELECT count(*) FROM tagged)::int AS tagged_n
    FROM candidates
-- parameters: [[960],["Long Avenue"],["amenity=cafe"],["cafe"],-73.9915528421323,40.73882352941177,-73.98571988514043,40.7448128342246,-73.98882565431637,40.74245989304813,-73.9829925275018,40.748449197860964,-73.98609846651598,40.746096256684496,-73.98026516984764,40.752085561497324,-73.98337127873113,40.749732620320856,-73.97753781217794,40.755721925133685,-73.98064409096183,40.753368983957216,-73.9748104544927,40.75935828877005,-73.97791690320808,40.757005347593584,-73.9720830967919,40.76299465240641,-73.9751897154699,40.760641711229944,-73.96935573907555,40.76663101604278,-73.97246252774727,40.76427807486631,-73.96662838134364,40.77026737967914,-73.9697353400402,40.76791443850267,-73.96390102359615,40.77390374331551,-73.9670081523487,40.77155080213904,-73.9611736658331,40.77754010695187,-73.96428096467275,40.7751871657754,-73.9584463080545,40.781176470588235,"{\"type\":\"LineString\",\"coordinates\":[[-73.99,40.74],[-73.975,40.76],[-73.96,40.78]]}",0.00001,200,84224.8296969745,111195.08023353292,"{\"type\":\"LineString\",\"coordinates\":[[-6231795.149279143,4530087.568714132],[-6230531.776833688,4532311.470318802],[-6229268.404388233,4534535.371923473]]}",80,"test-model","[1,0,0]","test-model","[0,1,0]",130,80,400]

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
             ARRAY[(m.distances[1] <= $104)]::boolean[] AS satisfied,
             m.id IN (SELECT id FROM tagged) AS tag_match,
             NULL::float8 AS sem_sim,
             NULL::float8 AS spa_sim,
             NULL::bigint AS population
      FROM measured m JOIN places p USING (id)
      WHERE m.distances[1] <= $105
      ORDER BY ((m.distances[1] <= $106)) DESC, tag_match DESC, sem_sim DESC NULLS LAST, d0 ASC, p.source_id
      LIMIT $107
    )
    SELECT id, source_id, name, category, description,
           ST_XMin(geom) AS x0, ST_YMin(geom) AS y0, ST_XMax(geom) AS x1, ST_YMax(geom) AS y1,
           distances, satisfied, tag_match, sem_sim, spa_sim, population, (SELECT count(*) FROM tagged)::int AS tagged_n
    FROM candidates
-- parameters: [[960],["Long Avenue"],-73.9915528421323,40.73882352941177,-73.98571988514043,40.7448128342246,-73.98882565431637,40.74245989304813,-73.9829925275018,40.748449197860964,-73.98609846651598,40.746096256684496,-73.98026516984764,40.752085561497324,-73.98337127873113,40.749732620320856,-73.97753781217794,40.755721925133685,-73.98064409096183,40.753368983957216,-73.9748104544927,40.75935828877005,-73.97791690320808,40.757005347593584,-73.9720830967919,40.76299465240641,-73.9751897154699,40.760641711229944,-73.96935573907555,40.76663101604278,-73.97246252774727,40.76427807486631,-73.96662838134364,40.77026737967914,-73.9697353400402,40.76791443850267,-73.96390102359615,40.77390374331551,-73.9670081523487,40.77155080213904,-73.9611736658331,40.77754010695187,-73.96428096467275,40.7751871657754,-73.9584463080545,40.781176470588235,["amenity=cafe"],["cafe"],"{\"type\":\"LineString\",\"coordinates\":[[-73.99,40.74],[-73.975,40.76],[-73.96,40.78]]}",0.00001,200,[960],["Long Avenue"],-73.9915528421323,40.73882352941177,-73.98571988514043,40.7448128342246,-73.98882565431637,40.74245989304813,-73.9829925275018,40.748449197860964,-73.98609846651598,40.746096256684496,-73.98026516984764,40.752085561497324,-73.98337127873113,40.749732620320856,-73.97753781217794,40.755721925133685,-73.98064409096183,40.753368983957216,-73.9748104544927,40.75935828877005,-73.97791690320808,40.757005347593584,-73.9720830967919,40.76299465240641,-73.9751897154699,40.760641711229944,-73.96935573907555,40.76663101604278,-73.97246252774727,40.76427807486631,-73.96662838134364,40.77026737967914,-73.9697353400402,40.76791443850267,-73.96390102359615,40.77390374331551,-73.9670081523487,40.77155080213904,-73.9611736658331,40.77754010695187,-73.96428096467275,40.7751871657754,-73.9584463080545,40.781176470588235,"{\"type\":\"LineString\",\"coordinates\":[[-73.99,40.74],[-73.975,40.76],[-73.96,40.78]]}",0.00001,100,84224.8296969745,111195.08023353292,"{\"type\":\"LineString\",\"coordinates\":[[-6231795.149279143,4530087.568714132],[-6230531.776833688,4532311.470318802],[-6229268.404388233,4534535.371923473]]}",80,130,80,400]
