/**
 * Workflow composition: an ordered chain of tools whose every step can run on what the user's data
 * already is plus what earlier steps made. Missing prerequisites are inserted (transitively) before the
 * step that needs them, inputs nobody provides are filled by a producer found in the relation graph,
 * and the chain is then simulated step by step to say whether it is valid and, if not, why.
 */
import { producesOf, specificOutputs } from './capability.ts';
import type { CatalogSnapshot } from './catalog-cache.ts';
import {
  capabilityClosure,
  capabilityInfo,
  functionInfo,
  isGenericProduct,
  productInfo,
  productSatisfies,
} from './knowledge/index.ts';
import { contextState, prerequisiteStatus, type ContextState, type RequestContext } from './prerequisites.ts';
import type { ToolPort, ToolRecord } from './schema.ts';

export interface WorkflowStep {
  toolId: string;
  why: string;
}

export interface Workflow {
  steps: WorkflowStep[];
  valid: boolean;
  problems?: string[];
  /** Prerequisites the context says nothing about (assumed done; listed so the user can check). */
  assumptions?: string[];
}

/**
 * Pipeline stage of a tool, used only to order steps that no dependency orders: radiometry before
 * geometry, per-image corrections before pair operations, analysis before statistics and export.
 * Keyed by output product first (SAR calibration -> speckle filtering -> terrain correction share a task
 * type), then by task type.
 */
const PRODUCT_STAGE: Record<string, number> = {
  dn_image: 1, radiance: 1.5, toa_reflectance: 1.5, brightness_temperature: 1.5, sar_slc: 1,
  sigma0: 2, sigma0_filtered: 2.5, backscatter_geocoded: 3,
  surface_reflectance: 2, orthoimage: 3, cloud_mask: 3.5, gap_filled_image: 4,
  coregistered_pair: 4.5, pansharpened_image: 5, mosaic: 5.5, super_resolved_image: 5,
  change_magnitude: 10, change_map: 11, change_type_map: 12,
  zonal_table: 20, area_table: 20, transition_matrix: 20,
};
const FUNCTION_STAGE: Record<string, number> = {
  data_access: 0, subsetting: 0.5, resampling: 0.8, preprocessing_radiometric: 1.5, sar_preprocessing: 2,
  preprocessing_atmospheric: 2, preprocessing_geometric: 3, preprocessing_cloud: 3.5, gap_filling: 4,
  image_fusion: 5, mosaicking: 5.5, enhancement: 5, masking: 3.5, cube_manipulation: 6,
  temporal_aggregation: 8.5, reduction: 9, statistics: 20, export: 30,
};

export function stageOf(tool: ToolRecord): number {
  const byProduct = specificOutputs(tool).map((p) => PRODUCT_STAGE[p]).filter((x): x is number => x !== undefined);
  if (byProduct.length) return Math.min(...byProduct);
  return FUNCTION_STAGE[tool.function] ?? 8;
}

/** Input names too generic to point at a producer ("data", "x"). */
const GENERIC_PORT_NAMES = new Set(['data', 'x', 'y', 'value', 'values', 'cube', 'image', 'images', 'input', 'array', 'result', 'bands', 'mask', 'geometries', 'target', 'base', 'cube1', 'cube2', 'scenes', 'series', 'pair']);

function stemWord(w: string): string {
  return w.toLowerCase().replace(/(?:ies)$/, 'y').replace(/(?:es|s)$/, '');
}

/**
 * A required input whose port name names a product another candidate makes: openEO's
 * `anomaly(data, normals)` is fed by the tool whose id/name says "normal".
 */
function namedProducer(port: ToolPort, candidates: readonly ToolRecord[], self: string): ToolRecord | undefined {
  if (port.optional || port.product || GENERIC_PORT_NAMES.has(port.name)) return undefined;
  const want = stemWord(port.name);
  if (want.length < 4) return undefined;
  return candidates.find((c) => c.id !== self && c.id.split(/[_:]/).map(stemWord).includes(want));
}

interface Planned {
  tool: ToolRecord;
  why: string;
  explicit: boolean;
  /** ids this step must come after */
  after: Set<string>;
}

export interface ComposeOptions {
  /** Tools found relevant to the request (used to fill named inputs, and preferred as producers). */
  candidates?: readonly ToolRecord[];
  /** Relevance of candidates (higher first) for choosing among producers. */
  relevance?: ReadonlyMap<string, number>;
}

/** The tool that best produces a product or capability name, preferring relevant and curated ones. */
export function producerOf(name: string, snapshot: CatalogSnapshot, relevance?: ReadonlyMap<string, number>): ToolRecord | undefined {
  const direct = snapshot.lookup(name);
  if (direct) return direct;
  const evidence = [...(capabilityInfo(name)?.evidencedBy ?? []), ...(productInfo(name) ? [name] : [])];
  const ids = [...new Set(evidence.flatMap((p) => snapshot.producers.get(p) ?? []))];
  const ranked = ids
    .map((id) => snapshot.lookup(id)!)
    .filter(Boolean)
    .sort((a, b) => (relevance?.get(b.id) ?? 0) - (relevance?.get(a.id) ?? 0) || a.prerequisites.length - b.prerequisites.length || (a.id < b.id ? -1 : 1));
  return ranked[0];
}

function stateAfter(state: ContextState, tool: ToolRecord): void {
  state.provided.add(tool.id);
  for (const p of producesOf(tool)) state.provided.add(p);
  for (const c of capabilityClosure(state.provided)) state.provided.add(c);
  state.knowsProducts = true;
}

function portSatisfied(port: ToolPort, state: ContextState): boolean {
  if (port.optional || !port.product || isGenericProduct(port.product)) return true;
  return [...state.provided].some((have) => productSatisfies(have, port.product!));
}

/**
 * Inserts what each step lacks before it: missing prerequisites (transitively) and producers of
 * required inputs. `assumeUnknown` decides prerequisites the context is silent about.
 */
function expand(steps: Planned[], ctx: RequestContext, snapshot: CatalogSnapshot, options: ComposeOptions, assumptions: Set<string>): Planned[] {
  const out: Planned[] = [];
  const state = contextState(ctx);
  const placed = new Set<string>();
  const candidates = options.candidates ?? [];

  const ensure = (name: string, forTool: ToolRecord, depth: number): string | undefined => {
    if (depth > 6) return undefined;
    const status = prerequisiteStatus(name, state, snapshot.lookup);
    if (status === 'satisfied') return undefined;
    if (status === 'unknown') {
      assumptions.add(name);
      return undefined;
    }
    const producer = producerOf(name, snapshot, options.relevance);
    if (!producer || producer.id === forTool.id) return undefined;
    if (placed.has(producer.id)) return producer.id;
    add(producer, `needed before ${forTool.id}: ${label(name)} is missing`, false, depth + 1);
    return producer.id;
  };

  const add = (tool: ToolRecord, why: string, explicit: boolean, depth: number) => {
    const after = new Set<string>();
    // Its own missing prerequisites first, cheapest pipeline stage first.
    const prereqs = [...tool.prerequisites].sort((a, b) => stageOfName(a, snapshot) - stageOfName(b, snapshot));
    for (const p of prereqs) {
      const id = ensure(p, tool, depth);
      if (id) after.add(id);
    }
    for (const port of tool.inputs) {
      const named = namedProducer(port, candidates, tool.id);
      if (named) {
        if (!placed.has(named.id)) add(named, `provides the '${port.name}' input of ${tool.id}`, false, depth + 1);
        after.add(named.id);
        continue;
      }
      if (portSatisfied(port, state)) continue;
      const id = ensure(port.product!, tool, depth);
      if (id) after.add(id);
    }
    if (placed.has(tool.id)) return;
    out.push({ tool, why, explicit, after });
    placed.add(tool.id);
    stateAfter(state, tool);
  };

  for (const step of steps) add(step.tool, step.why, step.explicit, 0);
  return out;
}

function stageOfName(name: string, snapshot: CatalogSnapshot): number {
  const tool = producerOf(name, snapshot);
  return tool ? stageOf(tool) : 8;
}

function label(name: string): string {
  return capabilityInfo(name)?.en[0] ?? productInfo(name)?.en[0] ?? name.replace(/_/g, ' ');
}

/**
 * Stable topological order: explicit steps keep the user's order unless a dependency says otherwise;
 * among steps free to go, the earlier pipeline stage goes first only for inserted (implicit) steps.
 */
function order(steps: Planned[]): Planned[] {
  const remaining = [...steps];
  const done = new Set<string>();
  const out: Planned[] = [];
  while (remaining.length) {
    const ready = remaining.filter((s) => [...s.after].every((a) => done.has(a) || !remaining.some((r) => r.tool.id === a)));
    const pool = ready.length ? ready : remaining;
    const firstIndex = remaining.indexOf(pool[0]!);
    // Implicit steps that are ready may move ahead of the next step if their stage is earlier.
    let pick = pool[0]!;
    for (const s of pool) {
      if (!s.explicit && stageOf(s.tool) < stageOf(pick.tool) && remaining.indexOf(s) >= firstIndex) pick = s;
    }
    out.push(pick);
    done.add(pick.tool.id);
    remaining.splice(remaining.indexOf(pick), 1);
  }
  return out;
}

/** Simulates the chain on the user's data: every prerequisite and required input must be available. */
export function validateChain(tools: readonly ToolRecord[], ctx: RequestContext, snapshot: CatalogSnapshot): string[] {
  const state = contextState(ctx);
  const problems: string[] = [];
  tools.forEach((tool, i) => {
    for (const p of tool.prerequisites) {
      if (prerequisiteStatus(p, state, snapshot.lookup) === 'missing') {
        problems.push(`step ${i + 1} (${tool.id}) needs ${label(p)}, which neither the data nor an earlier step provides`);
      }
    }
    for (const port of tool.inputs) {
      if (!portSatisfied(port, state) && state.knowsProducts) {
        const stated = [...state.lacking].some((l) => productSatisfies(port.product!, l));
        const producedLater = tools.slice(i + 1).some((t) => producesOf(t).includes(port.product!));
        if (stated || producedLater) {
          problems.push(`step ${i + 1} (${tool.id}) needs ${label(port.product!)} as '${port.name}', which is not available at that point`);
        }
      }
    }
    stateAfter(state, tool);
  });
  return problems;
}

export interface ChainRequest {
  /** Steps asked for, in the user's order (tool + why). */
  steps: { tool: ToolRecord; why: string }[];
  context: RequestContext;
}

/** Composes a valid chain from the asked-for steps (see the module comment). */
export function composeWorkflow(request: ChainRequest, snapshot: CatalogSnapshot, options: ComposeOptions = {}): Workflow {
  const assumptions = new Set<string>();
  const planned = expand(
    request.steps.map((s) => ({ tool: s.tool, why: s.why, explicit: true, after: new Set<string>() })),
    request.context,
    snapshot,
    options,
    assumptions,
  );
  const ordered = order(planned);
  const problems = validateChain(ordered.map((p) => p.tool), request.context, snapshot);
  return {
    steps: ordered.map((p) => ({ toolId: p.tool.id, why: p.why })),
    valid: problems.length === 0,
    ...(problems.length ? { problems } : {}),
    ...(assumptions.size ? { assumptions: [...assumptions].map((a) => `${label(a)}: the context does not say whether it is done`) } : {}),
  };
}

/** Checks a chain given by the client (ids in order) without changing it. */
export function checkWorkflow(ids: readonly string[], ctx: RequestContext, snapshot: CatalogSnapshot): Workflow {
  const unknown = ids.filter((id) => !snapshot.lookup(id));
  const tools = ids.map((id) => snapshot.lookup(id)).filter((t): t is ToolRecord => !!t);
  const problems = [...unknown.map((id) => `unknown tool '${id}'`), ...validateChain(tools, ctx, snapshot)];
  return {
    steps: ids.map((id) => ({ toolId: id, why: functionInfo(snapshot.lookup(id)?.function ?? '')?.en[0] ?? 'as given' })),
    valid: problems.length === 0,
    ...(problems.length ? { problems } : {}),
  };
}
