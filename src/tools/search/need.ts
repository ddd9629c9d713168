/** One need (the whole request or one of its sub-tasks): the text to match and the slots that steer the ranking. */
import { conceptInfo, functionInfo, sensorByDataSource } from '../knowledge/index.ts';
import { withoutRelativeTime, type ParsedRequest, type SubTask } from '../request/index.ts';
import type { Need } from './types.ts';

export function sensorModalities(dataSources: readonly string[]): string[] {
  return [...new Set(dataSources.flatMap((d) => sensorByDataSource(d)?.modalities ?? []))];
}

export function needOf(parsed: ParsedRequest, sub?: SubTask): Need {
  const concepts = sub ? sub.concepts : parsed.concepts;
  const expansions = new Set<string>();
  for (const c of concepts) {
    const info = conceptInfo(c.id);
    if (!c.negated && info && info.kind !== 'modifier' && info.kind !== 'modality') expansions.add(info.en[0] ?? c.id);
  }
  let taskTypes = sub ? sub.taskTypes : parsed.taskTypes;
  const facets = facetsOf(parsed, sub);
  // A clause that names no task but a target grid ("align the cube to the 10 m grid") asks for regridding.
  if (taskTypes.length === 0 && parsed.spatial?.kind === 'grid' && facets.length) taskTypes = [{ id: 'resampling', weight: 0.6 }];
  for (const t of taskTypes.slice(0, 2)) expansions.add(functionInfo(t.id)?.en[0] ?? t.id);
  return {
    // When the work is to be done is setting, not task: its words are not matched against tools.
    text: withoutRelativeTime(sub ? sub.query : parsed.query),
    expansions: [...expansions],
    facets,
    taskTypes,
    products: sub ? sub.products : parsed.target.products,
    bands: parsed.bands,
    modalities: [...new Set([...sensorModalities(parsed.dataSources), ...parsed.modalities])],
    dataSources: parsed.dataSources,
    temporal: parsed.temporal?.shape,
    coverage: sub ? sub.coverage : parsed.coverage,
    glossWords: sub ? sub.glossWords : parsed.glossWords,
  };
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
  if (t && (t.start || t.dates.length) && inClause(t.text)) out.push('temporal interval of dates and times');
  const sp = parsed.spatial;
  if (sp && inClause([sp.text])) {
    if (sp.kind === 'bbox') out.push('spatial extent bounding box');
    if (sp.kind === 'zones') out.push('polygons geometries zones');
    if (sp.kind === 'grid') out.push('resample onto a spatial grid resolution');
  }
  return out;
}
