/** One need (the whole request or one of its sub-tasks): the text to match and the slots that steer the ranking. */
import { conceptInfo, functionInfo, matchForms, sensorByDataSource } from '../knowledge/index.ts';
import { asksForSubset, withoutAlternatives, bufferDistance, pointCount, twoResolutions, withoutRelativeTime, type ConceptHit, type ParsedRequest, type SubTask, type Weighted } from '../request/index.ts';
import { type LexicalIndex, queryTerms } from '../lexical.ts';
import { chooseGlosses } from './gloss.ts';
import type { Need } from './types.ts';

export function sensorModalities(dataSources: readonly string[]): string[] {
  return [...new Set(dataSources.flatMap((d) => sensorByDataSource(d)?.modalities ?? []))];
}

export function needOf(parsed: ParsedRequest, lexical: LexicalIndex, sub?: SubTask): Need {
  const concepts = sub ? sub.concepts : parsed.concepts;
  const expansions = new Set<string>();
  for (const c of concepts) {
    const info = conceptInfo(c.id);
    if (!c.negated && info && info.kind !== 'modifier' && info.kind !== 'modality') expansions.add(info.en[0] ?? c.id);
  }
  const text = sub ? sub.query : parsed.query;
  // When the work is to be done is setting, not task, and a point of comparison is not asked for: neither is matched against tools.
  const matched = withoutAlternatives(withoutRelativeTime(text));
  const { taskTypes, facets } = constructionsOf(text, sub ? sub.taskTypes : parsed.taskTypes, facetsOf(parsed, sub), concepts, parsed);
  for (const t of taskTypes.slice(0, 2)) expansions.add(functionInfo(t.id)?.en[0] ?? t.id);
  return {
    text: matched,
    expansions: [...expansions],
    facets,
    taskTypes,
    products: sub ? sub.products : parsed.target.products,
    bands: parsed.bands,
    absentBands: parsed.absentBands,
    onlyBands: parsed.onlyBands,
    askedProducts: sub ? [] : parsed.askedProducts,
    modalities: [...new Set([...sensorModalities(parsed.dataSources), ...parsed.modalities])],
    dataSources: parsed.dataSources,
    temporal: parsed.temporal?.shape,
    coverage: sub ? sub.coverage : parsed.coverage,
    glosses: chooseGlosses(lexical, sub ? sub.glossed : parsed.glossed, queryTerms([matched, ...expansions, ...facets].join(' , '))),
  };
}

/** Words for the inside or the outside of an area. */
const SPATIAL_SIDE = /\b(?:outside|inside|within|beyond)\b|外面|外边|外头|以外|之外|里面|里边|里头|以内|之内|范围内|范围外/u;

/** Weight of a task type read from the shape of a clause rather than from a word of the graph. */
const CONSTRUCTION_WEIGHT = 0.6;
const SUBSET_WEIGHT = 0.7;

/**
 * Task types and facets that the shape of a clause says when its words name no task: a number of points
 * to place ("100 points in each field", "布设30个验证点") is sampling; two ground resolutions ("the 10 m and
 * 30 m layers") or a target grid are regridding; keeping part of the data and dropping the rest ("keep
 * only the red and NIR bands", "只要七月到九月的", "其他的都不要") is subsetting even beside a weak function
 * word ("date"), and says which dimension when bands are named; a distance around geometries is a buffer.
 */
function constructionsOf(text: string, read: Weighted[], stated: string[], concepts: readonly ConceptHit[], parsed: ParsedRequest): { taskTypes: Weighted[]; facets: string[] } {
  const lower = text.toLowerCase();
  let taskTypes = read;
  const facets = [...stated];
  const namesTask = () => taskTypes.some((t) => t.weight >= 0.5);
  if (bufferDistance(lower)) facets.push('buffer geometries by a distance');
  if (pointCount(lower)) {
    facets.push('random points within geometries');
    if (!namesTask()) taskTypes = [{ id: 'vector_processing', weight: CONSTRUCTION_WEIGHT }, ...taskTypes];
  }
  if (twoResolutions(lower) && !namesTask()) {
    taskTypes = [{ id: 'resampling', weight: CONSTRUCTION_WEIGHT }, ...taskTypes];
    facets.push('resample onto a spatial grid resolution');
  }
  if (taskTypes.length === 0 && parsed.spatial?.kind === 'grid' && facets.length) taskTypes = [{ id: 'resampling', weight: CONSTRUCTION_WEIGHT }];
  if (asksForSubset(text) && !concepts.some((c) => c.kind === 'task' && !c.negated)) {
    const top = Math.max(SUBSET_WEIGHT, ...taskTypes.map((t) => t.weight));
    taskTypes = [{ id: 'subsetting', weight: top }, ...taskTypes.filter((t) => t.id !== 'subsetting')];
    if (matchForms(text, ['band']).length) facets.push('filter bands by name');
    // What lies inside or outside something is kept or dropped: the subset is of space.
    else if (SPATIAL_SIDE.test(text)) facets.push('spatial extent geometries polygons');
  }
  return { taskTypes, facets };
}

/**
 * A constraint stated in the request is something a tool may have to handle: an interval of dates
 * (temporal filters), a bounding box or polygons (spatial filters, zonal statistics), a target grid
 * (resampling). Only constraints stated in the clause being searched count.
 */
function facetsOf(parsed: ParsedRequest, sub?: SubTask): string[] {
  const inClause = (texts: readonly string[]) => !sub || texts.some((t) => sub.text.toLowerCase().includes(t.toLowerCase()));
  const out: string[] = [];
  const t = parsed.temporal;
  if (t && (t.start || t.dates.length || t.undated) && inClause(t.text)) out.push('temporal interval of dates and times');
  const sp = parsed.spatial;
  if (sp && inClause([sp.text])) {
    if (sp.kind === 'bbox') out.push('spatial extent bounding box');
    if (sp.kind === 'zones') out.push('polygons geometries zones');
    if (sp.kind === 'grid') out.push('resample onto a spatial grid resolution');
  }
  return out;
}
