import { describe, expect, it } from 'vitest';
import { asksForProcessing, asksForSubset, parseLevel, parsePrecision, pointCount, twoResolutions, parseTemporal, parseToolRequest, splitClauses, statedObjectTerms, withoutAlternatives, withoutRelativeTime, withoutYesNoQuestions } from '../../../src/tools/request/index.ts';
import { isExplicitSequence, onlyHolds, opensWithVerb } from '../../../src/tools/request/clauses.ts';
import { doneAt, laterStepAt, negatedAt, outputFormatAt } from '../../../src/tools/request/wording.ts';
import { normalizeForMatch } from '../../../src/tools/knowledge/index.ts';
import { lexicalTerms, buildLexicalIndex, docTerms, topLexical, queryTerms, relatedTerms, sameFamily } from '../../../src/tools/lexical.ts';

/** The words of the first dictionary sense of each Chinese word the graph does not cover. */
const firstSenses = (text: string) => parseToolRequest(text).glossed.flatMap((g) => g.senses[0] ?? []);

describe('request channel: slots', () => {
  it('reads task type, target product, data source and level from an English request', () => {
    const p = parseToolRequest('Calculate NDVI on a Sentinel-2 L2A image over the Ebro delta');
    expect(p.taskTypes[0]?.id).toBe('vegetation_index');
    expect(p.target.products[0]?.id).toBe('ndvi');
    expect(p.dataSources).toEqual(['Sentinel-2']);
    expect(p.processingLevel).toBe('L2A');
    expect(p.spatial).toEqual({ kind: 'place', text: 'Ebro delta' });
  });

  it('reads Chinese requests, including Latin terms written against Han characters', () => {
    const p = parseToolRequest('拿哨兵二号L1C影像算一下NDVI');
    expect(p.dataSources).toEqual(['Sentinel-2']);
    expect(p.processingLevel).toBe('L1C');
    expect(p.target.products[0]?.id).toBe('ndvi');
    expect(parseToolRequest('把高分二号图上的道路网络提出来').target.products[0]?.id).toBe('road_network');
  });

  it('resolves dates, intervals and seasons', () => {
    expect(parseTemporal('scenes between 2019-03-15 and 2019-10-31', [])).toMatchObject({ start: '2019-03-15', end: '2019-10-31' });
    expect(parseTemporal('filter it to summer 2022', [])).toMatchObject({ start: '2022-06-01', end: '2022-08-31' });
    // A range of months of one year is an interval; across the new year it starts in the year before.
    expect(parseTemporal('use the scenes from March to May 2021', [])).toMatchObject({ shape: 'series', start: '2021-03-01', end: '2021-05-31' });
    expect(parseTemporal('a composite for November through February 2020', [])).toMatchObject({ start: '2019-11-01', end: '2020-02-29' });
    expect(parseTemporal('only Jul 2019', [])).toMatchObject({ shape: 'single', dates: ['2019-07-01'] });
    expect(parseTemporal('relative to the 1991-2020 normal', [])).toMatchObject({ start: '1991-01-01', end: '2020-12-31', shape: 'series' });
    expect(parseTemporal('scenes from 2018 and 2023', [])).toMatchObject({ shape: 'pair', dates: ['2018-01-01', '2023-01-01'] });
    expect(parseTemporal('2020年6月的影像', [])?.dates).toEqual(['2020-06-01']);
    // Chinese ranges of months, in digits or numerals, with the year before, after or elsewhere.
    expect(parseTemporal('只要2021年4月到6月的影像', [])).toMatchObject({ shape: 'series', start: '2021-04-01', end: '2021-06-30' });
    expect(parseTemporal('2022年11月到2月', [])).toMatchObject({ start: '2022-11-01', end: '2023-02-28' });
    expect(parseTemporal('十月到十二月 2020年', [])).toMatchObject({ start: '2020-10-01', end: '2020-12-31' });
    expect(parseTemporal('三月至五月的数据', [])).toMatchObject({ shape: 'series' });
    // A range of months without a year is still a period; words that merely begin like months are not.
    expect(parseTemporal('keep the scenes from 1 April to 15 June', [])).toMatchObject({ shape: 'series', undated: true, dates: [] });
    expect(parseTemporal('separate and decompose the signal', [])).toBeUndefined();
    // A resolution written against Han characters is read; a unit inside an English word is not one.
    expect(parsePrecision('用0.5米分辨率的影像提取建筑', [])?.resolutionM).toBe(0.5);
    expect(parsePrecision('wait 10 mins', [])).toBeUndefined();
    // Resolutions are not years.
    expect(parseTemporal('super-resolve to 2.5 m', [])).toBeUndefined();
  });

  it('sets a processing level only from level codes, not from product words', () => {
    expect(parseLevel('Estimate leaf area index with Landsat-8 Collection 2 Level-1 data', ['Landsat-8'])).toBe('L1TP');
    expect(parseLevel('Calibrate a Sentinel-1 GRD scene', ['Sentinel-1'])).toBe('GRD');
    expect(parseLevel('speckle filter on sigma0 backscatter', ['Sentinel-1'])).toBeUndefined();
  });

  it('reads what the data is and is not from the text', () => {
    const notAligned = parseToolRequest('Find what changed between my Pleiades images with change vector analysis; they are not co-registered.');
    expect(notAligned.lacks).toContain('image_registration');
    expect(notAligned.taskTypes[0]?.id).toBe('change_detection');
    const aligned = parseToolRequest('Look for change in a co-registered pair of SPOT-6 images');
    expect(aligned.has).toContain('image_registration');
    // Two dates and nothing said about alignment: an image pair, not yet co-registered.
    expect(parseToolRequest('map new buildings between two dates from L1C Sentinel-2').context.available).toContain('image_pair');
  });

  it('treats a variable before an operation as its operand ("precipitation anomalies" asks for anomalies)', () => {
    const p = parseToolRequest('Derive precipitation anomalies against the 1981-2010 climatological normal');
    expect(p.taskTypes[0]?.id).toBe('climatology');
  });
});

describe('request channel: dictionary definitions and words of time', () => {
  it('reads a definition of the form "head of/in modifier" as the compound it paraphrases', () => {
    // CC-CEDICT gives 谱带 as "band of a spectrum": a spectrum band, optical data.
    expect(parseToolRequest('这几个谱带').concepts.map((c) => c.id)).toContain('optical');
  });

  it('leaves a word whose commonest sense names a time out of the glosses', () => {
    // 年初 "beginning of the year" says when; "beginning" would match a text function.
    expect(firstSenses('年初的植被长势')).not.toContain('beginning');
  });
});

describe('request channel: a quality asked about by its degree', () => {
  const concepts = (text: string) => parseToolRequest(text).concepts.map((c) => c.id);

  it('reads "how steep", 更陡, 有多浑 and a superlative as a request for the measure of the quality', () => {
    expect(concepts('how steep are the vineyard terraces behind the farm')).toContain('terrain');
    expect(concepts('这条沟两边哪边更陡')).toContain('terrain');
    expect(concepts('村口那个塘的水有多浑')).toContain('turbidity');
    expect(concepts('which of the meadows look greenest in May')).toContain('vegetation_monitoring');
    expect(concepts('how turbid is the pond next to the mill')).toContain('turbidity');
  });

  it('reads no degree in amounts, in words that hold a marker, or in a plain adjective', () => {
    expect(concepts('how many scenes cover the farm')).not.toContain('terrain');
    // 最近 "recently" and 更新 "update" are words of their own: 近 and 新 are not asked by degree.
    expect(parseToolRequest('最近更新的影像').concepts).toEqual(parseToolRequest('影像').concepts);
    expect(concepts('a steep path to the vineyard terraces')).not.toContain('terrain');
  });
});

/** The normalised text and where a form stands in it, as the wording predicates take them. */
function spanOf(text: string, form: string): [norm: string, start: number, end: number] {
  const norm = normalizeForMatch(text);
  const start = norm.indexOf(normalizeForMatch(form));
  return [norm, start, start + normalizeForMatch(form).length];
}

describe('request channel: a file format asks for saving only as the form of the result', () => {
  it('reads a format the data is in as no task, and a format the result is written in as export', () => {
    const types = (text: string) => parseToolRequest(text).taskTypes.map((t) => t.id);
    expect(types('I have a GeoTIFF of the valley; derive the slope')).not.toContain('export');
    expect(types('打开这个GeoTIFF')).not.toContain('export');
    expect(types('export the hillshade to a cloud optimized GeoTIFF')[0]).toBe('export');
    expect(types('坡度结果另存为GeoTIFF')).toContain('export');
    expect(types("I'd like the slope as a GeoTIFF")).toContain('export');
  });

  it('does not read a format after a participle, a passive, "to" alone or 下载了 as the result\'s form', () => {
    const at = (text: string, form: string) => {
      const [norm, start] = spanOf(text, form);
      return outputFormatAt(norm, start);
    };
    expect(at('clip the slope raster to the geotiff extent', 'geotiff')).toBe(false);
    expect(at('I want to open GeoTIFF tiles and mosaic them', 'geotiff')).toBe(false);
    expect(at('The DEM is delivered as a GeoTIFF; derive the slope', 'geotiff')).toBe(false);
    expect(at('The rainfall is stored as NetCDF; compute the trend', 'netcdf')).toBe(false);
    expect(at('我下载了一个NetCDF文件，算一下坡度', 'netcdf')).toBe(false);
    expect(at('保存好的GeoTIFF怎么算坡度', 'geotiff')).toBe(false);
  });
});

describe('request channel: a step named as coming later', () => {
  it('reads "before we mosaic" and 做…之前 as a later step, and "before the flood" as a time', () => {
    const at = (text: string, form: string) => laterStepAt(...spanOf(text, form));
    expect(at('before we mosaic the tiles mask the clouds', 'mosaic')).toBe(true);
    expect(at('before deriving a slope map fill the sinks', 'slope map')).toBe(true);
    expect(at('做分类之前先去云', '分类')).toBe(true);
    expect(at('before mosaicking the tiles mask the clouds', 'mosaicking')).toBe(true);
    expect(at('images from before the flood', 'flood')).toBe(false);
    expect(at('scenes from before spring flooding', 'flooding')).toBe(false);
    expect(at('做镶嵌前后的影像对比', '镶嵌')).toBe(false);
    expect(at('做分类目前最好用什么方法', '分类')).toBe(false);
  });

  it('weights a later step below the step asked for, and reads its prerequisites when nothing else is asked', () => {
    const asked = parseToolRequest('before we mosaic the tiles, mask the clouds');
    expect(asked.taskTypes[0]?.id).toBe('masking');
    expect(asked.concepts.find((c) => c.id === 'mosaicking')?.weight).toBeLessThan(0.5);
    const needs = parseToolRequest('what should happen to the two images before I run a change detection?');
    expect(needs.taskTypes[0]?.id).toBe('preprocessing_geometric');
    expect(needs.concepts.map((c) => c.id)).toContain('registration');
  });
});

describe('request channel: Chinese yes/no questions are not negations', () => {
  it('reads 是不是 / 有没有 before a task as a question about it', () => {
    const q = parseToolRequest('这片农田有没有出现干旱');
    expect(q.concepts.find((c) => c.id === 'drought')?.negated).toBe(false);
    expect(withoutYesNoQuestions('河边是不是')).toBe('河边');
  });

  it('still reads a plain negation', () => {
    const q = parseToolRequest('影像还没有做大气校正');
    expect(q.concepts.some((c) => c.negated)).toBe(true);
  });
});

describe('request channel: work said to be done describes the data', () => {
  it('reads "already" before a task as a state of the data, not a step to run', () => {
    const en = parseToolRequest('My two scenes are already co-registered; map the new buildings.');
    expect(en.concepts.some((c) => c.id === 'registration')).toBe(false);
    expect(en.taskTypes.some((t) => t.id === 'preprocessing_geometric')).toBe(false);
    const zh = parseToolRequest('影像已经配准，请提取新增建筑');
    expect(zh.concepts.some((c) => c.id === 'registration')).toBe(false);
  });

  it('still reads the same task when it is asked for', () => {
    expect(parseToolRequest('Co-register my two scenes.').concepts.some((c) => c.id === 'registration')).toBe(true);
  });

  it('reads the map something is read on as a map at hand', () => {
    const onMap = parseToolRequest('on the land-cover map, which class covers the most hectares');
    expect(onMap.has).toContain('landcover_map');
    expect(onMap.taskTypes.some((t) => t.id === 'classification')).toBe(false);
    expect(parseToolRequest('土地利用分类图上哪一类面积最大').has).toContain('landcover_map');
    expect(parseToolRequest('make a land-cover map of the valley').has).not.toContain('landcover_map');
  });
});

describe('request channel: relative time is setting, not task', () => {
  it('takes relative time out of the text matched against tools', () => {
    expect(withoutRelativeTime("Last night's frost hit the orchard")).toBe('frost hit the orchard');
    expect(withoutRelativeTime('Has the glacier shrunk over the past three decades?')).toBe('Has the glacier shrunk ?');
    expect(withoutRelativeTime('landslides two weeks ago')).toBe('landslides');
    expect(withoutRelativeTime('近五年的城市扩张')).toBe('的城市扩张');
  });

  it('keeps "last" and "next" when they name an operation', () => {
    expect(withoutRelativeTime('keep the last value of each pixel series')).toBe('keep the last value of each pixel series');
  });
});

describe('request channel: an operation word used as the name of a thing', () => {
  it('reads "the crop" as the plants, not as cutting the image, and still reads the verb', () => {
    const ids = (q: string) => parseToolRequest(q).taskTypes.map((t) => t.id);
    expect(ids('how thirsty is the crop on the north terrace this week')).not.toContain('subsetting');
    expect(ids('our crop looks patchy after the frost')).not.toContain('subsetting');
    expect(ids('is there any crop stress showing in the east block')).not.toContain('subsetting');
    expect(ids('crop the orthophoto to the parish boundary')).toContain('subsetting');
    expect(ids('apply the mask to the mosaic')).toContain('masking');
  });
});

describe('request channel: data said to have only some bands', () => {
  it('reads "only" before or after the bands as all the bands the data has, a family named without its number in full', () => {
    expect(parseToolRequest('the old aerial survey has only RGB, which greenness index works?').onlyBands.sort()).toEqual(['blue', 'green', 'green1', 'red']);
    expect(parseToolRequest('a moisture index from the shortwave-infrared bands only').onlyBands.sort()).toEqual(['swir1', 'swir2']);
    expect(parseToolRequest('手上只有红光和近红外两个波段，能算哪些指数').onlyBands.sort()).toEqual(['nir', 'nir2', 'red']);
    expect(parseToolRequest('a greenness index from the red and near-infrared bands').onlyBands).toEqual([]);
  });

  it('ends a negation at its clause: the bands after a comma or "only" are held', () => {
    const p = parseToolRequest('no SWIR, only red, green and blue: which index for the meadow?');
    expect(p.absentBands.some((b) => b.startsWith('swir'))).toBe(true);
    expect(p.absentBands).not.toContain('red');
    expect(p.onlyBands).toContain('green');
    expect(parseToolRequest('没有短波红外，只有红绿蓝三个波段').absentBands).not.toContain('red');
  });
});

describe('request channel: "not just" and questions about which one', () => {
  it('reads "not just X" as X and more, neither missing nor all there is', () => {
    const p = parseToolRequest('a snow index using the green band, not just the shortwave infrared');
    expect(p.absentBands).toEqual([]);
    expect(p.onlyBands).toEqual([]);
    expect(p.bands).toEqual(expect.arrayContaining(['green', 'swir1']));
    expect(parseToolRequest('a snow index without the green band').absentBands).toEqual(['green']);
  });

  it('reads the kind a question asks which one of: the first task word after the question word', () => {
    expect(parseToolRequest('用哪个指数提取城镇建设用地').askedProducts).toEqual(['spectral_index']);
    expect(parseToolRequest('盐沼植被有没有专门的指数？').askedProducts).toEqual(['spectral_index']);
    expect(parseToolRequest('有没有云，算个指数').askedProducts).toEqual([]);
    expect(parseToolRequest('which classifier suits orchards?').askedProducts).toEqual(['classification_map']);
    expect(parseToolRequest('derive an index for the orchard').askedProducts).toEqual([]);
  });

  it('reads a general word as the task when the question asks which one', () => {
    const weight = (q: string) => parseToolRequest(q).taskTypes.find((t) => t.id === 'spectral_index')?.weight ?? 0;
    expect(weight('which indices suit sparse shrubland?')).toBeGreaterThanOrEqual(0.5);
    expect(weight('is there an index made for peat bogs?')).toBeGreaterThan(weight('work out an index for the peat bog'));
    expect(weight('泥炭地有没有合适的指数')).toBeGreaterThanOrEqual(0.5);
  });
});

describe('request channel: a task named as a map the user holds', () => {
  it('reads the map as held, not its task as asked', () => {
    const held = parseToolRequest('我们手里有2016和2021年的土地覆盖分类图各一张，想看湿地转成了什么');
    expect(held.has).toContain('landcover_map');
    expect(held.taskTypes.find((t) => t.id === 'classification')?.weight ?? 0).toBeLessThan(0.5);
    expect(parseToolRequest('we have two land-cover classification maps, from 2016 and 2021').has).toContain('landcover_map');
    expect(parseToolRequest('把土地利用分类图做出来').taskTypes[0]?.id).toBe('classification');
  });
});

describe('request channel: a verb that opens task forms of the graph', () => {
  it('reads the task whose forms share a word with the rest of the request, and nothing without one', () => {
    const concepts = (q: string) => parseToolRequest(q).concepts.map((c) => c.id);
    expect(concepts('fill the holes the clouds left in last week\'s mosaic')).toContain('cloud_removal');
    expect(concepts('fill the pits of the elevation model before routing')).toContain('depression_filling');
    expect(concepts('fill the form and send it')).not.toContain('cloud_removal');
  });
});

describe('request channel: a general verb weighs the same in Chinese as in English', () => {
  it('reads 导出 beside a named task as weakly as "export"', () => {
    const first = (q: string) => parseToolRequest(q).taskTypes[0]?.id;
    expect(first('能不能把村里房子的边框都勾出来，导出成shp')).toBe('extraction');
    expect(first('trace the outlines of the village houses and export a shapefile')).toBe('extraction');
    expect(first('把结果导出成GeoTIFF')).toBe('export');
  });
});

describe('request channel: bands named by their number on the sensor', () => {
  it('reads band numbers through the band table of the one sensor named, and not without one', () => {
    expect(parseToolRequest('ratio of Landsat 8 bands 6 and 5').bands.sort()).toEqual(['nir', 'nir2', 'swir1']);
    expect(parseToolRequest('a difference of B12 and B8A from Sentinel-2').bands.sort()).toEqual(['nir2', 'swir2']);
    expect(parseToolRequest('用哨兵2的第11波段和第8波段').bands.sort()).toEqual(['nir', 'swir1']);
    expect(parseToolRequest('a ratio of bands 6 and 5').bands).toEqual([]);
  });
});

describe('request channel: multi-step requests', () => {
  it('splits at sequence words and before verbs, not at every "and"', () => {
    expect(splitClauses('Open the archive, restrict it to spring 2019, derive EVI and write the output as NetCDF.')).toEqual([
      'Open the archive',
      'restrict it to spring 2019',
      'derive EVI',
      'write the output as NetCDF.',
    ]);
    expect(splitClauses('Orthorectify the strip with a DEM and the sensor model.')).toHaveLength(1);
    expect(splitClauses('用两张分类结果进行分类后对比，并算出每类变了多少面积。')).toHaveLength(2);
  });

  it('splits numbered and bulleted lists into steps, and keeps numbers inside a step', () => {
    expect(splitClauses('1. open the radar scenes 2. filter the speckle 3) export the backscatter')).toEqual(['open the radar scenes', 'filter the speckle', 'export the backscatter']);
    expect(splitClauses('Plan:\n- mosaic the tiles\n- clip to the county\n• write a COG')).toEqual(['Plan:', 'mosaic the tiles', 'clip to the county', 'write a COG']);
    expect(splitClauses('①镶嵌影像 ②裁剪到研究区')).toEqual(['镶嵌影像', '裁剪到研究区']);
    expect(splitClauses('resample the 2.5 m grid to 30 m')).toHaveLength(1);
  });

  it('does not split at "next to" or at a "then" of past time, and still splits at sequence words', () => {
    expect(splitClauses('count the boats moored next to the pier')).toHaveLength(1);
    expect(splitClauses('since then the marsh has dried out in places')).toHaveLength(1);
    expect(splitClauses('open the tiles, next mosaic them')).toEqual(['open the tiles', 'mosaic them']);
    expect(splitClauses('open the tiles then mosaic them')).toEqual(['open the tiles', 'mosaic them']);
  });

  it('reads a sentence opening with a sequence word as a step of its own', () => {
    expect(isExplicitSequence('Stack the yearly rasters. Then tell me where the lake was largest.')).toBe(true);
    expect(isExplicitSequence('Stack the yearly rasters. Finally, a chart of the shoreline.')).toBe(true);
    expect(parseToolRequest('Take the burn scar masks of both summers. Then tell me where the forest came back.').subTasks).toHaveLength(2);
  });

  it('reads a verb whose object follows a particle or an adverb as opening a step', () => {
    expect(opensWithVerb('tot up the hours of sunshine')).toBe(true);
    expect(opensWithVerb('keep only those from the wet months')).toBe(true);
    expect(opensWithVerb('over the ridge')).toBe(false);
    expect(parseToolRequest('We hold 90 scenes of the estuary. Keep only those from the wet months and build a median composite.').subTasks).toHaveLength(2);
  });

  it('reads a contraction as a subject, not as a verb opening a step', () => {
    expect(opensWithVerb("there's a cloud mask in the bucket")).toBe(false);
    expect(opensWithVerb("it's a mosaic of four tiles")).toBe(false);
    expect(opensWithVerb('grab the scenes')).toBe(true);
    expect(parseToolRequest("there's a DEM on the shared drive; derive the slope from it").subTasks).toEqual([]);
  });

  it('gives a short clause that names its own product no borrowed object', () => {
    const p = parseToolRequest('Open the scenes, derive NDWI, then clip the result to the lake');
    const step = p.subTasks.find((s) => s.text === 'derive NDWI');
    expect(step?.query).not.toContain('lake');
  });

  it('reads a bare "index" as the spectral index task type, weakly', () => {
    const p = parseToolRequest('work out an index for the orchard rows');
    const index = p.taskTypes.find((t) => t.id === 'spectral_index');
    expect(index).toBeDefined();
    expect(index!.weight).toBeLessThan(0.5);
  });

  it('lends the last clause\'s object only to a bare verb, not to a short clause with an object of its own', () => {
    for (const first of ['drop clouds', 'remove haze']) {
      const p = parseToolRequest(`${first}, then derive the index, then sum it per parcel`);
      expect(p.subTasks[0]?.text).toBe(first);
      expect(p.subTasks[0]?.query).not.toContain('parcel');
    }
  });

  it('makes sub-tasks, sharing the object with bare verbs and folding state clauses away', () => {
    const p = parseToolRequest('Calibrate, despeckle and geocode an ALOS-2 PALSAR strip.');
    expect(p.subTasks.map((s) => s.text)).toEqual(['Calibrate', 'despeckle', 'geocode an ALOS-2 PALSAR strip.']);
    expect(p.subTasks[0]?.query).toContain('an ALOS-2 PALSAR strip');
    expect(parseToolRequest('Run a change vector analysis on my images; they are not co-registered.').subTasks).toEqual([]);
    expect(parseToolRequest('Detect aircraft at an airport and return bounding boxes.').subTasks).toEqual([]);
  });
});

describe('lexical index', () => {
  it('joins a word the catalog lacks to catalog terms of its word family, at a lower weight', () => {
    const index = buildLexicalIndex([
      ['glacier_tool', docTerms({ id: 'glacier_tool', fields: [{ text: 'Glacier outline mapping', weight: 1 }] })],
      ['glass_tool', docTerms({ id: 'glass_tool', fields: [{ text: 'Glass roof detection', weight: 1 }] })],
    ]);
    const related = relatedTerms(index, queryTerms('glacial retreat'));
    expect(related).toEqual([{ term: 'glacier', weight: 0.5 }]);
    expect(topLexical(index, related, 2).map(([id]) => id)).toEqual(['glacier_tool']);
    // A term the catalog has is left alone, and short stems never join unrelated words.
    expect(relatedTerms(index, queryTerms('glacier'))).toEqual([]);
    expect(sameFamily('glass', 'glacier')).toBe(false);
    expect(sameFamily('burnt', 'burn')).toBe(true);
  });

  it('uses the embedder stems and adjacent-word bigrams', () => {
    const terms = lexicalTerms('Radiometric calibration of VH/VV ratios');
    expect(terms.has('calibr')).toBe(true);
    expect(terms.has('vh_vv')).toBe(true);
    expect(lexicalTerms('calibrate').has('calibr')).toBe(true);
  });

  it('keeps a hyphenated word with a stop word in it as one word as well', () => {
    expect(lexicalTerms('pixels flagged as no-data').has('nodata')).toBe(true);
    expect(lexicalTerms('the nodata mask').has('nodata')).toBe(true);
    // Without a stop word the parts say it already: no joined term.
    expect(lexicalTerms('near-infrared band').has('nearinfrar')).toBe(false);
  });

  it('ranks the document with the rare matching term first', () => {
    const index = buildLexicalIndex(
      [
        ['a', 'VH-VV ratio of backscatter'],
        ['b', 'VV-VH ratio of backscatter'],
        ['c', 'normalized difference of two bands'],
      ].map(([id, text]) => [id!, docTerms({ id: id!, fields: [{ text: text!, weight: 1 }] })] as [string, ReturnType<typeof docTerms>]),
    );
    expect(topLexical(index, queryTerms('VH/VV ratio'), 3)[0]?.[0]).toBe('a');
  });
});

describe('request channel: does a geographic question ask for EO processing?', () => {
  it.each([
    'Which parks within 1 km of the Vessel are the greenest by NDVI from Sentinel-2?',
    'Detect ships near the Vessel',
    'ship detection in the Hudson',
    'ships in the Hudson from Sentinel-1',
    'map flooded buildings near Penn Station',
    'building footprints near Grand Central',
    '检测中央公园附近的船只',
    '用哨兵二号计算中央公园的NDVI',
  ])('yes: %s', (question) => expect(asksForProcessing(question)).toBe(true));

  // Objects of EO tasks named as places or things: a building, a ship, ice.
  it.each([
    'Is there a bakery within a 10-minute walk of the Empire State Building?',
    'Name the three nearest pubs to the Vessel',
    'Is there an ice cream parlour close to the Chrysler Building?',
    'Where were the ships in the Hudson last week?',
    'Show me cafés within 200 m of Herald Square',
    '宾州车站附近的药店',
  ])('no: %s', (question) => expect(asksForProcessing(question)).toBe(false));
});

describe('request channel: data the user says they have', () => {
  it('reads a product after "we have" / "I\'ve got" / 手上有 as input, not as the product asked for', () => {
    const en = parseToolRequest('We have a 2015 land use map and want to see what changed since');
    expect(en.context.available).toContain('landcover_map');
    expect(en.target.products.map((p) => p.id)).not.toContain('landcover_map');
    expect(parseToolRequest("I've got a cloud mask, apply it to the scene").context.available).toContain('cloud_mask');
    const zh = parseToolRequest('我手上有一张土地利用图，想看看哪里变了');
    expect(zh.context.available).toContain('landcover_map');
    expect(zh.target.products.map((p) => p.id)).not.toContain('landcover_map');
  });

  it('reads a task said to be done as holding the tool that does it, not its first preparatory step', () => {
    expect(parseToolRequest('we already ran change detection on the pair; now count the changed area per district').has).toContain('cva_change_detector');
    expect(parseToolRequest('已经做过变化检测了，再统计每个区变了多少面积').has).not.toContain('image_registration');
    expect(parseToolRequest('the scenes are not calibrated and we have no flood mapping yet').lacks).toContain('flood_mapping');
  });

  it('reads 已经有 and 有 with a classifier of images (有一幅…) as holding', () => {
    const held = parseToolRequest('我这边已经有一幅土地覆盖分类图了，算算每一类各占多少公顷');
    expect(held.context.available).toContain('landcover_map');
    expect(held.taskTypes[0]?.id).toBe('statistics');
    expect(parseToolRequest('有了两张土地利用图，看看哪里变了').context.available).toContain('landcover_map');
  });

  it('still reads the same product as the target when it is asked for', () => {
    expect(parseToolRequest('Classify the delta into a land use map').target.products[0]?.id).toBe('landcover_map');
  });
});

describe('request channel: how much of the request the readings cover', () => {
  it('is high when the graph reads the informative words, low when it reads few of them', () => {
    const read = parseToolRequest('Calculate NDVI from Sentinel-2 imagery');
    const partly = parseToolRequest('Are the hedgerows on the terraces parched after the long heatwave?');
    expect(read.coverage).toBeGreaterThan(0.6);
    expect(partly.coverage).toBeLessThan(0.3);
  });

  it('measures Chinese requests by their dictionary words', () => {
    const read = parseToolRequest('计算哨兵二号影像的归一化植被指数');
    const partly = parseToolRequest('山坡上的果园最近是不是缺水，叶子都打卷了');
    expect(read.coverage).toBeGreaterThan(partly.coverage);
    expect(partly.coverage).toBeLessThan(0.6);
  });

  it('gives every clause of a multi-step request its own coverage', () => {
    const p = parseToolRequest('First mask the clouds, then work out how the vineyards fared over the dry spell');
    expect(p.subTasks.length).toBeGreaterThanOrEqual(2);
    expect(p.subTasks[0]!.coverage).toBeGreaterThan(p.subTasks[1]!.coverage);
  });
});

describe('request channel: words between the marker and the mention', () => {
  it('reads "already" and a negation a few words before the task, whatever spacing follows them', () => {
    const done = 'the pair has already been precisely co-registered';
    const not = 'no scene here was ever co-registered';
    expect(doneAt(done, done.indexOf('co-registered'))).toBe(true);
    expect(negatedAt(not, not.indexOf('co-registered'))).toBe(true);
    expect(doneAt('please co-register the pair', 7)).toBe(false);
  });
});

describe('request channel: a crop named is a setting, crop types asked for are a task', () => {
  it('reads a crop name as cropland, not as crop-type mapping', () => {
    expect(parseToolRequest('how is the soybean doing after the dry July').concepts.map((c) => c.id)).not.toContain('crop_type');
    expect(parseToolRequest('这块大豆地长得怎么样').concepts.map((c) => c.id)).not.toContain('crop_type');
    expect(parseToolRequest('map the crop types of the county').concepts.map((c) => c.id)).toContain('crop_type');
  });
});

describe('request channel: a thing asked about in its state', () => {
  const read = (text: string) => {
    const parsed = parseToolRequest(text);
    return { concepts: parsed.concepts.map((c) => c.id), taskTypes: parsed.taskTypes.map((t) => t.id) };
  };

  it.each(['how are the soybeans doing this month?', 'the wheat behind the barn looks thin', '我家大豆长得怎么样', '后山那片森林的状况'])(
    'reads how it is doing, not what kind it is: %s',
    (text) => {
      const { concepts, taskTypes } = read(text);
      expect(concepts).toContain('vegetation_monitoring');
      expect(taskTypes).not.toContain('classification');
    },
  );

  it.each(['which parcels grow soybeans and which grow maize?', 'what does the farmland look like from above?', '这片地种的是什么作物，长得怎么样'])(
    'still reads the kind when the kind is asked, or "look like" compares: %s',
    (text) => {
      const { concepts, taskTypes } = read(text);
      expect(concepts).not.toContain('vegetation_monitoring');
      expect(taskTypes[0]).toBe('classification');
    },
  );

  it.each(['how are the sugar beets doing?', 'the barley near the river looks thin', '这片马铃薯长得怎么样'])(
    'knows crops the graph does not list, from the OSM crop names: %s',
    (text) => {
      const { concepts } = read(text);
      expect(concepts).toContain('cropland');
      expect(concepts).toContain('vegetation_monitoring');
    },
  );

  it('makes the name of a thing asked about in its state no search word, and keeps it otherwise', () => {
    expect([...statedObjectTerms('the wheat behind the barn looks thin')]).toEqual(['wheat']);
    expect(statedObjectTerms('a chlorophyll index for wheat').size).toBe(0);
  });

  it('reads the condition of water as its quality', () => {
    expect(read('is the lake looking worse this summer?').concepts).toContain('water_quality');
  });

  it.each(['are the pine forests parched this August?', 'is the meadow soggy after the snowmelt?', '这片草原怎么样，是不是很干'])(
    'reads a state described by its wetness as the water content of the vegetation: %s',
    (text) => {
      const { concepts } = read(text);
      expect(concepts).toContain('vegetation_water');
      expect(concepts).not.toContain('vegetation_monitoring');
    },
  );

  it('reads "how <adjective> is the thing" as a question about its state, but not a question of quantity or distance', () => {
    expect(read('how wet are the rice paddies after the storm?').concepts).toContain('vegetation_water');
    expect(read('how healthy is the forest on the ridge?').concepts).toContain('vegetation_monitoring');
    expect(read('how far is the forest from the road?').concepts).not.toContain('vegetation_monitoring');
  });

  it('reads a town asked about its heat as its heat island, and a state with no property as the default', () => {
    expect(read('is the old town hot in the evenings?').concepts).toContain('urban_heat_island');
    expect(read('how is the cotton doing?').concepts).toContain('vegetation_monitoring');
    expect(read('how is the cotton doing?').concepts).not.toContain('vegetation_water');
  });
});

describe('request channel: a named statistic is the task, what it summarises its operand', () => {
  it('reads the statistic in English and Chinese, with its English name for the search', () => {
    const p = parseToolRequest('the interquartile range of the elevation values');
    expect(p.taskTypes[0]?.id).toBe('statistics');
    expect(p.concepts.map((c) => c.id)).toContain('percentile');
    const zh = parseToolRequest('算一下这景温度图的标准差');
    expect(zh.taskTypes[0]?.id).toBe('statistics');
    expect(zh.expansions).toContain('standard deviation');
  });

  it('reads correlation, regression and relative change as operations of their own', () => {
    const ids = (q: string) => parseToolRequest(q).concepts.map((c) => c.id);
    expect(ids('how well do the two rainfall series correlate')).toContain('correlation');
    expect(ids('用最小二乘求出两者的关系')).toContain('regression');
    expect(ids('the forest loss as a percentage change since the first survey')).toContain('percent_change');
    expect(parseToolRequest('两个站点的相关系数').taskTypes[0]?.id).toBe('statistics');
  });

  it('reads the common raster and terrain operations that are not EO products: hydrology, clustering, accuracy, texture, conversions', () => {
    const ids = (q: string) => parseToolRequest(q).concepts.map((c) => c.id);
    expect(ids('fill the pits in the terrain model, then route the flow with d8')).toEqual(expect.arrayContaining(['depression_filling', 'flow_routing']));
    expect(ids('先填洼再提取河网')).toEqual(expect.arrayContaining(['depression_filling', 'stream_network']));
    expect(parseToolRequest('group the pixels with k-means into six groups').taskTypes[0]?.id).toBe('classification');
    expect(ids('做一个混淆矩阵看看分类结果')).toContain('accuracy_assessment');
    expect(parseToolRequest('polygonise the burn mask').taskTypes[0]?.id).toBe('vector_processing');
  });

  it('makes an index named right before the statistic its operand', () => {
    const p = parseToolRequest('NDVI variance over the orchard');
    expect(p.taskTypes[0]?.id).toBe('statistics');
    expect(p.taskTypes.find((t) => t.id === 'vegetation_index')!.weight).toBeLessThan(0.5);
  });
});

describe('request channel: Chinese words no form covers are searched in English', () => {
  it('gives the first dictionary sense of each uncovered word, and none for covered ones', () => {
    expect(firstSenses('想给这些照片加上水印')).toContain('watermark');
    expect(firstSenses('归一化植被指数')).toEqual([]);
  });

  it('reads a one-character verb before a complement with all its senses; a noun before 上 says where', () => {
    const glossed = parseToolRequest('用相邻几天的影像把这些空白补齐').glossed;
    const verb = glossed.find((g) => g.text === '补');
    expect(verb?.senses.flat()).toEqual(expect.arrayContaining(['repair', 'fill']));
    expect(parseToolRequest('图上的道路换个颜色').glossed.map((g) => g.text)).not.toContain('图');
  });
});

describe('request channel: clouds in the scene are a setting, cloud masking asked for is a task', () => {
  it('reads clouds named as a condition as an object, and masking them as the task', () => {
    const condition = parseToolRequest('it was cloudy on most days; reconstruct the missing pixels');
    expect(condition.concepts.map((c) => c.id)).toEqual(['cloud_cover']);
    expect(condition.target.products.map((p) => p.id)).not.toContain('cloud_mask');
    expect(parseToolRequest('给影像做云掩膜').concepts.map((c) => c.id)).toContain('cloud');
    expect(parseToolRequest('run a cloud detection on the scene').target.products.map((p) => p.id)).toContain('cloud_mask');
  });
});

describe('request channel: Chinese words read through the dictionary', () => {
  const concepts = (q: string) => parseToolRequest(q).concepts.map((c) => c.id);
  it('reads a word whose dictionary sense is a form of the graph, single characters included', () => {
    expect(concepts('稻田被水淹了')).toContain('flood');
    // 云's first sense is "to say"; its second, "cloud", is the graph's object (listed in the plural).
    expect(concepts('去掉影像上的云')).toContain('cloud_cover');
  });
  it('does not read a calendar character as a temporal aggregate, nor a word only defined by a form', () => {
    expect(parseToolRequest('只要2021年6月的影像').taskTypes.map((t) => t.id)).not.toContain('temporal_aggregation');
    expect(concepts('我想看看这个地方')).toEqual([]);
  });
});

describe('request channel: constructions that name a task by their shape', () => {
  const concepts = (q: string) => parseToolRequest(q).concepts.map((c) => c.id);
  it('reads words of change with two acquisitions as change detection, and not without them', () => {
    expect(concepts('2019年和2023年的影像比一比，哪里不一样')).toContain('change_detection');
    expect(concepts('compare the two images and tell me what is different')).toContain('change_detection');
    expect(concepts('湖水变成绿色了')).not.toContain('change_detection');
  });
  it('reads a question about how much area as area statistics, and a distance around geometries as a buffer', () => {
    expect(concepts('这片稻田大概有几公顷')).toContain('area_statistics');
    expect(concepts('how big is the burn scar')).toContain('area_statistics');
    expect(parseToolRequest('draw a 300 m ring around each well').taskTypes[0]?.id).toBe('vector_processing');
    expect(parseToolRequest('水库周边300米以内有几户人家').taskTypes.map((t) => t.id)).toContain('vector_processing');
  });
  it('reads a summary per zone as zonal statistics, and not a summary per unit of time or of the data', () => {
    expect(concepts('the median canopy height for each orchard block')).toContain('zonal_statistics');
    expect(concepts('sum the rainfall by catchment')).toContain('zonal_statistics');
    expect(concepts('total rainfall by catchment')).toContain('zonal_statistics');
    expect(concepts('各个乡镇分别算一下平均温度')).toContain('zonal_statistics');
    expect(concepts('the average for each month of the daily cube')).not.toContain('zonal_statistics');
    expect(concepts('the long-term average for each calendar month')).not.toContain('zonal_statistics');
    expect(concepts('按季度求平均')).not.toContain('zonal_statistics');
    expect(concepts('the average per pixel through time')).not.toContain('zonal_statistics');
  });
  it('reads a summary per unit of time as a temporal aggregation, and a summary per zone as none', () => {
    expect(concepts('把逐日的数据按周求平均')).toContain('temporal_aggregation');
    expect(concepts('the total rainfall for each month')).toContain('temporal_aggregation');
    expect(concepts('sum the rainfall by catchment')).not.toContain('temporal_aggregation');
  });
  it('tells when a request keeps part of the data, names points to place or two resolutions', () => {
    expect(asksForSubset('only keep the blue and green bands')).toBe(true);
    expect(asksForSubset('drop everything outside the park')).toBe(true);
    // The rest named as "everything outside / else" is dropped, whatever the verb.
    expect(asksForSubset('null everything beyond the county line')).toBe(true);
    expect(asksForSubset('mask everything else')).toBe(true);
    expect(asksForSubset('everything looks fine in the park')).toBe(false);
    expect(asksForSubset('其他的日期都不要')).toBe(true);
    // "Only" before any verb, and the rest with a verb of discarding (V + 掉), in Chinese.
    expect(asksForSubset('只看六月份的影像')).toBe(true);
    expect(asksForSubset('把研究区外面的像元都裁掉')).toBe(true);
    expect(asksForSubset('剩下的波段都删掉')).toBe(true);
    expect(asksForSubset('只有一景影像，能算NDVI吗')).toBe(false);
    expect(asksForSubset('这些影像只能用来算植被指数')).toBe(false);
    expect(asksForSubset('compute NDVI for the park')).toBe(false);
    expect(pointCount('在每个地块里放30个点')).not.toBeNull();
    expect(pointCount('a point cloud of the quarry')).toBeNull();
    expect(twoResolutions('把20米的波段和10米的放到同一个格网')).toBe(true);
    expect(twoResolutions('a 10 m grid')).toBe(false);
  });
});

describe('request channel: a clause that opens with a verb and its object is a step', () => {
  it('splits before any verb followed by its object, not only before the verbs of EO processing', () => {
    expect(splitClauses('derive the snow index for each scene, average it inside the catchment and chart the values')).toEqual([
      'derive the snow index for each scene',
      'average it inside the catchment',
      'chart the values',
    ]);
    expect(opensWithVerb('chart the values')).toBe(true);
    // The last clause of a sentence keeps its full stop.
    expect(splitClauses('sum the snow index inside the catchment and chart it.')).toEqual(['sum the snow index inside the catchment', 'chart it.']);
  });

  it('does not take a preposition, a quantifier or a coordinated noun for a verb', () => {
    expect(opensWithVerb('in the basin')).toBe(false);
    expect(opensWithVerb('all the scenes')).toBe(false);
    expect(splitClauses('a map of rivers and lakes and the red and the green bands')).toHaveLength(1);
  });
});

describe('request channel: what the words around a mention say about it', () => {
  it('reads a negation written with a contraction', () => {
    const p = parseToolRequest("we don't need to classify the scene, only the difference between the dates");
    expect(p.concepts.find((c) => c.id === 'land_cover_classification')?.negated).toBe(true);
  });

  it('reads data after a demonstrative or "here is" as held, however many words stand between', () => {
    expect(parseToolRequest('resample this land cover map to 30 m').context.available).toContain('landcover_map');
    expect(parseToolRequest('here is a cloud mask for each of the tiles').context.available).toContain('cloud_mask');
    // A request verb between the holding and the mention asks for the product.
    expect(parseToolRequest('using our scenes, produce a land cover map').target.products.map((p) => p.id)).toContain('landcover_map');
  });

  it('reads an everyday colour word as a band only where the text speaks of bands', () => {
    expect(parseToolRequest('render the water mask with a blue colour ramp').bands).not.toContain('blue');
    expect(parseToolRequest('keep the blue band only').bands).toContain('blue');
    expect(parseToolRequest('compute a ratio of the red and near-infrared bands').bands).toEqual(expect.arrayContaining(['red', 'nir']));
  });

  it('reads a unit after a stand-alone number as a given quantity, not as a question about area', () => {
    const concepts = (q: string) => parseToolRequest(q).concepts.map((c) => c.id);
    expect(concepts('the lake went from 56 to 48 km2: by what share did it shrink?')).not.toContain('area_statistics');
    expect(concepts('how many km2 of forest burned')).toContain('area_statistics');
  });
});

describe('request channel: a clause that only says what the user holds is not a step', () => {
  it('keeps a holding clause out of the steps, in either language', () => {
    const en = parseToolRequest('We already have land cover maps of the valley for 2010 and 2020. Compute the area of each class, then export the table.');
    expect(en.subTasks.map((s) => s.text)).toEqual(['Compute the area of each class', 'export the table.']);
    const zh = parseToolRequest('手上有两年的地物分类结果。统计每一类的面积，再导出成表格');
    expect(zh.subTasks.some((s) => s.text.startsWith('手上有'))).toBe(false);
  });

  it('still reads a clause that asks for something after saying what is held', () => {
    expect(onlyHolds('We have the scenes and want an NDVI map')).toBe(false);
    expect(onlyHolds('I have to classify the scenes')).toBe(false);
    expect(onlyHolds("I've got twelve Landsat scenes")).toBe(true);
    expect(onlyHolds('我有一景哨兵2号影像')).toBe(true);
  });
});

describe('request channel: bands the data has and has not', () => {
  it('reads bands said to be missing as absent, not as wanted', () => {
    const parsed = parseToolRequest('our camera records red and green light but no near-infrared');
    expect(parsed.bands).toEqual(expect.arrayContaining(['red', 'green']));
    expect(parsed.bands).not.toContain('nir');
    expect(parsed.absentBands).toEqual(['nir']);
    expect(parseToolRequest('相机不带近红外波段，只能拍可见光').absentBands).toEqual(['nir']);
  });

  it('reads a word spelled in one-letter band codes as those bands, and no other capitals', () => {
    expect(parseToolRequest('a greenness index from NRG aerial photos').bands).toEqual(expect.arrayContaining(['nir', 'red', 'green']));
    expect(parseToolRequest('SAR and DEM of the valley').bands).toEqual([]);
    expect(parseToolRequest('greenness from the drone, not RGB').absentBands).toEqual(expect.arrayContaining(['red', 'green', 'blue']));
  });
});

describe('request channel: a reading that names the place of the work qualifies the task', () => {
  const weightOf = (text: string, id: string) => parseToolRequest(text).concepts.find((c) => c.id === id)?.weight ?? 0;

  it('weighs a concept in a phrase of place, or made an area by 区, below the same concept asked about', () => {
    expect(weightOf('how green are the pastures in the flooded valley', 'flood')).toBeLessThan(0.5);
    expect(weightOf('map the flooded fields', 'flood')).toBe(1);
    expect(weightOf('干旱区的草场今年长得怎么样', 'drought')).toBeLessThan(0.5);
    expect(weightOf('今年草场干旱严重吗', 'drought')).toBe(1);
  });

  it('does not read a topic ("a report on …") as a place', () => {
    expect(weightOf('for a report on flooding, where did the water go', 'flood')).toBe(1);
  });
});

describe('request channel: a Chinese proper name is the setting, not words to search', () => {
  it('leaves out of the glosses a word whose every dictionary sense is a name, and keeps common words', () => {
    const glossed = parseToolRequest('长江口那一片滩涂今年冲掉了多少').glossed.map((g) => g.text);
    expect(glossed).not.toContain('长江');
    expect(glossed).toContain('滩涂');
  });
});

describe('request channel: a point of comparison is not what is asked', () => {
  const concepts = (q: string) => parseToolRequest(q).concepts.map((c) => c.id);

  it('reads nothing from what the request wants to improve on', () => {
    expect(concepts('which index tells bare soil from thin grass, like the NDVI does?')).toContain('ndvi');
    expect(concepts('which index tells bare soil from thin grass better than the NDVI does?')).not.toContain('ndvi');
    expect(concepts('an index more robust than NDVI over the orchard')).not.toContain('ndvi');
    expect(concepts('use something else instead of NDVI for the orchard')).not.toContain('ndvi');
    expect(concepts('有没有能区分裸土和稀疏草地的NDVI')).toContain('ndvi');
    expect(concepts('有没有比NDVI更能区分裸土和稀疏草地的指数')).not.toContain('ndvi');
    expect(concepts('听说这个指数比NDVI好')).not.toContain('ndvi');
    expect(concepts('除了NDVI以外还有什么植被指数')).not.toContain('ndvi');
  });

  it('takes one word in English, so that the task after it is still asked', () => {
    expect(withoutAlternatives('use cubic instead of bilinear resampling')).toBe('use cubic instead of resampling');
    expect(withoutAlternatives('instead of ndvi compute the evi')).toBe('instead of compute the evi');
    expect(withoutAlternatives('works better than the NDVI, for sparse shrubs')).toBe('works better than the , for sparse shrubs');
  });

  it('keeps comparisons of values and the other uses of 比', () => {
    for (const text of ['set pixels greater than the threshold to one', 'more than ten scenes of the delta', 'a terrain model better than 30 m', '比对两期影像的差异需要什么', '波段比运算后还要做什么', '对比前后两期影像的NDVI']) {
      expect(withoutAlternatives(text)).toBe(text);
    }
  });
});
