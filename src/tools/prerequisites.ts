/**
 * Which prerequisites of a tool a request context already satisfies. A context says what the user has:
 * a data source, a processing level (which implies corrections already applied) and products in hand.
 * A prerequisite is `satisfied` when that evidence covers it, `missing` when the context speaks to it and
 * does not cover it, and `unknown` when the context says nothing relevant (flagging it would be a guess).
 */
import { loadDomainCatalog } from './catalog/domain.ts';
import {
  capabilityClosure,
  capabilityInfo,
  findLevel,
  isGenericProduct,
  levelProvides,
  normalizeAvailable,
  productInfo,
  productSatisfies,
  resolveDataSources,
  type LevelInfo,
} from './knowledge/index.ts';
import type { ToolRecord } from './schema.ts';

export interface RequestContext {
  dataSource?: string;
  processingLevel?: string;
  /** Products/capabilities in hand, free-form (`coregistered_pair`, `landcover_map_t1`, `image_t2`). */
  available?: readonly string[];
  /**
   * Capabilities, products or tool ids the user says the data does NOT have ("not co-registered yet",
   * "there is no land-cover map yet"): a prerequisite they evidence is then known missing, not unknown.
   */
  lacking?: readonly string[];
}

export interface ContextState {
  dataSources: string[];
  level?: LevelInfo;
  /** Capability and product names the context establishes (closed under evidence and implication). */
  provided: Set<string>;
  /** The processing level was recognised, so level corrections can be judged. */
  knowsLevel: boolean;
  /** The user listed what they have, so product prerequisites can be judged. */
  knowsProducts: boolean;
  /** A listed item is an image product whose processing state is explicit (`toa_reflectance`, `sar_grd`). */
  knowsImageState: boolean;
  /** Names stated as absent (see RequestContext.lacking). */
  lacking: Set<string>;
}

export type ToolLookup = (id: string) => ToolRecord | undefined;

export function contextState(ctx: RequestContext = {}): ContextState {
  const available = normalizeAvailable(ctx.available);
  const level = findLevel(ctx.dataSource, ctx.processingLevel);
  const fromLevel = levelProvides(ctx.dataSource, ctx.processingLevel);
  return {
    dataSources: resolveDataSources(ctx.dataSource),
    level,
    provided: capabilityClosure([...fromLevel, ...available]),
    knowsLevel: level !== undefined,
    knowsProducts: available.length > 0,
    knowsImageState: available.some(
      (p) => productInfo(p) !== undefined && !isGenericProduct(p) && productSatisfies(p, 'image'),
    ),
    lacking: new Set(ctx.lacking ?? []),
  };
}

function lookupFrom(catalog?: ToolLookup | readonly ToolRecord[] | ReadonlyMap<string, ToolRecord>): ToolLookup {
  if (typeof catalog === 'function') return catalog;
  if (catalog && 'get' in catalog) return (id) => (catalog as ReadonlyMap<string, ToolRecord>).get(id);
  const map = new Map((catalog ?? loadDomainCatalog()).map((t) => [t.id, t] as const));
  return (id) => map.get(id);
}

/** Products whose presence proves a prerequisite done: its capability evidence plus the tool's outputs. */
function evidenceFor(prereq: string, lookup: ToolLookup): string[] {
  const fromCapability = capabilityInfo(prereq)?.evidencedBy ?? [];
  // Generic outputs (a masked `optical_image`) prove nothing: any image would match them.
  const fromTool = (lookup(prereq)?.outputs ?? []).map((o) => o.product).filter((p): p is string => !!p && !isGenericProduct(p));
  const asProduct = productInfo(prereq) ? [prereq] : [];
  return [...new Set([...fromCapability, ...fromTool, ...asProduct])];
}

export type PrerequisiteStatus = 'satisfied' | 'missing' | 'unknown';

export function prerequisiteStatus(prereq: string, state: ContextState, lookup: ToolLookup): PrerequisiteStatus {
  if (state.provided.has(prereq)) return 'satisfied';
  const evidence = evidenceFor(prereq, lookup);
  if ([...state.provided].some((have) => evidence.some((e) => productSatisfies(have, e)))) return 'satisfied';
  // "There is no land-cover map yet": a lacking generic product covers every product that would stand in for it.
  if (state.lacking.has(prereq) || evidence.some((e) => [...state.lacking].some((l) => productSatisfies(e, l)))) return 'missing';
  const cap = capabilityInfo(prereq);
  if (cap?.kind === 'level') {
    // Corrections are judged from the processing level, or from an image product whose state is explicit.
    return state.knowsLevel || state.knowsImageState ? 'missing' : 'unknown';
  }
  if (evidence.length === 0 && !lookup(prereq)) return 'unknown';
  return state.knowsProducts ? 'missing' : 'unknown';
}

export interface PrerequisiteAssessment {
  satisfied: string[];
  missing: string[];
  unknown: string[];
}

/** Splits a tool's prerequisites by what the context establishes (see the module comment). */
export function assessPrerequisites(
  tool: Pick<ToolRecord, 'prerequisites'>,
  ctx: RequestContext = {},
  catalog?: ToolLookup | readonly ToolRecord[] | ReadonlyMap<string, ToolRecord>,
): PrerequisiteAssessment {
  const state = contextState(ctx);
  const lookup = lookupFrom(catalog);
  const out: PrerequisiteAssessment = { satisfied: [], missing: [], unknown: [] };
  for (const p of tool.prerequisites) out[statusKey(prerequisiteStatus(p, state, lookup))].push(p);
  return out;
}

function statusKey(s: PrerequisiteStatus): keyof PrerequisiteAssessment {
  return s;
}

/**
 * The missing prerequisites of a tool, transitively and in execution order (a missing atmospheric
 * correction on L1A data brings its own missing radiometric calibration first). With `assumeMissing`,
 * prerequisites the context says nothing about are treated as missing, for building a full workflow.
 */
export function missingPrerequisiteChain(
  tool: Pick<ToolRecord, 'id' | 'prerequisites'>,
  ctx: RequestContext = {},
  catalog?: ToolLookup | readonly ToolRecord[] | ReadonlyMap<string, ToolRecord>,
  options: { assumeMissing?: boolean } = {},
): string[] {
  return missingChainForState(tool, contextState(ctx), lookupFrom(catalog), options);
}

/** missingPrerequisiteChain with the context state computed once by the caller (ranking many tools). */
export function missingChainForState(
  tool: Pick<ToolRecord, 'id' | 'prerequisites'>,
  state: ContextState,
  lookup: ToolLookup,
  options: { assumeMissing?: boolean } = {},
): string[] {
  const order: string[] = [];
  const visiting = new Set<string>([tool.id]);
  const visit = (prereqs: readonly string[]) => {
    for (const p of prereqs) {
      if (order.includes(p) || visiting.has(p)) continue;
      const status = prerequisiteStatus(p, state, lookup);
      if (status === 'satisfied' || (status === 'unknown' && !options.assumeMissing)) continue;
      visiting.add(p);
      visit(lookup(p)?.prerequisites ?? []);
      visiting.delete(p);
      order.push(p);
    }
  };
  visit(tool.prerequisites);
  return order;
}
