/**
 * The spatial plan: typed slots a planner (offline grammar or language model) fills from a question, and that
 * the server compiles to spatial SQL from an allow-list. It is an HTTP contract: every number is bounded, every
 * reference used by a constraint is declared, so a plan that validates can be compiled without further checks.
 *
 * Semantics (Spatial-RAG, Yu et al. 2025, arXiv:2502.18470): candidates are the features matching `targets`
 * (tags OR-ed) that satisfy ALL `constraints` (AND); they are then ranked with `semantic` and `preference`.
 */
import { z } from 'zod';

export const DISTANCE_MIN_M = 1;
/** World-scale questions ("cities within 200 km of Munich") stay below this. */
export const DISTANCE_MAX_M = 1_000_000;
export const K_MAX = 50;
/** Reserved reference id: the line of `route` (from -> to). Only valid when `route` is set. */
export const ROUTE_REF = 'route';

const MAX_TEXT = 2000;

export const LonLatSchema = z
  .object({
    lon: z.number().min(-180).max(180),
    lat: z.number().min(-90).max(90),
  })
  .describe('WGS84 position (EPSG:4326), longitude first as in GeoJSON.');
export type LonLat = z.infer<typeof LonLatSchema>;

export const ReferenceKindSchema = z
  .enum(['landmark', 'street', 'area', 'city', 'coordinates'])
  .describe(
    'What the reference is, when the planner has evidence: a named feature (landmark), a street (matched as the union ' +
      'of OSM lines of that exact name), an area polygon (neighbourhood, park), a city, or a position.',
  );
export type ReferenceKind = z.infer<typeof ReferenceKindSchema>;

const RefIdSchema = z.string().regex(/^r[1-9][0-9]{0,2}$/).describe('Reference id: r1, r2, ...');
const ConstraintRefSchema = z
  .union([RefIdSchema, z.literal(ROUTE_REF)])
  .describe(`A reference id, or "${ROUTE_REF}" for the route line.`);

export const ReferenceSchema = z
  .object({
    id: RefIdSchema,
    text: z.string().max(200).describe("The place as written in the question ('Lincoln Center', '中央公园'), articles stripped."),
    kind: ReferenceKindSchema.optional(),
    point: LonLatSchema.optional().describe(
      'Given for coordinates. A `coordinates` reference without a point is the asker\'s own position, which the client must supply.',
    ),
    context: z
      .string()
      .max(200)
      .optional()
      .describe("A containing place named with it, for disambiguation only ('Manhattan' in \"Manhattan's Koreatown\"); not a constraint."),
  })
  .describe('A place the question is anchored on.');
export type Reference = z.infer<typeof ReferenceSchema>;

const DistanceSchema = z.number().min(DISTANCE_MIN_M).max(DISTANCE_MAX_M);

/** Compass bearings of the direction relation, in degrees clockwise from north. */
export const BEARING_DEGREES = {
  north: 0,
  north_east: 45,
  east: 90,
  south_east: 135,
  south: 180,
  south_west: 225,
  west: 270,
  north_west: 315,
} as const;
export type Bearing = keyof typeof BEARING_DEGREES;
export const BearingSchema = z.enum(Object.keys(BEARING_DEGREES) as [Bearing, ...Bearing[]]);

const GroupIdSchema = z.string().regex(/^g[1-9][0-9]?$/);

/**
 * What any constraint may add to its function: negation ("not in X", "outside X") and membership in a group of
 * alternatives ("near X or Y"). The functions' specs know nothing of them: the compiler wraps their SQL.
 */
const LOGIC = {
  negated: z
    .boolean()
    .optional()
    .describe('True: the place must NOT satisfy the function ("not in Chelsea", "away from X"). Never on nearest, never in a group.'),
  anyOf: GroupIdSchema.optional().describe(
    'Group id (g1, g2, ...): the constraints of one group are alternatives, OR-ed ("near X or Y"); groups and ungrouped constraints are AND-ed.',
  ),
};

export const ConstraintSchema = z
  .discriminatedUnion('fn', [
    z
      .object({ fn: z.literal('within_distance'), ref: ConstraintRefSchema, distanceM: DistanceSchema, ...LOGIC })
      .describe('Distance from the reference geometry <= distanceM.'),
    z.object({ fn: z.literal('inside'), ref: ConstraintRefSchema, ...LOGIC }).describe('Inside the reference polygon.'),
    z
      .object({ fn: z.literal('along'), ref: ConstraintRefSchema, bufferM: DistanceSchema, ...LOGIC })
      .describe('Within bufferM of a line: a street, or the route.'),
    z
      .object({ fn: z.literal('nearest'), ref: ConstraintRefSchema, k: z.number().int().min(1).max(K_MAX), ...LOGIC })
      .describe('The k features closest to the reference.'),
    z
      .object({
        fn: z.literal('between'),
        refs: z.tuple([RefIdSchema, RefIdSchema]),
        bufferM: DistanceSchema,
        ...LOGIC,
      })
      .describe('Within bufferM of the straight segment between two references (the corridor between them).'),
    z
      .object({ fn: z.literal('border'), ref: ConstraintRefSchema, distanceM: DistanceSchema, ...LOGIC })
      .describe(
        "Within distanceM of the reference area's outline (its border), on either side of it; with `inside` on the same " +
          'reference for "in X within 50 km of the border".',
      ),
    z.object({ fn: z.literal('intersects'), ref: ConstraintRefSchema, ...LOGIC }).describe('The feature geometry intersects the reference geometry.'),
    z
      .object({ fn: z.literal('direction'), ref: RefIdSchema, bearing: BearingSchema, distanceM: DistanceSchema, ...LOGIC })
      .describe(
        "In the compass sector of `bearing` seen from the reference's centre (45 degrees either side of it) and within " +
          'distanceM of the reference, not on it ("north of X").',
      ),
  ])
  .describe('One spatial function; the constraints of a plan are combined with AND, except alternatives of one group (anyOf), OR-ed.');
export type Constraint = z.infer<typeof ConstraintSchema>;

export const RouteSchema = z
  .object({
    from: RefIdSchema,
    to: RefIdSchema,
    via: z
      .enum(['straight', 'streets'])
      .optional()
      .describe('How to draw the line: the straight segment between the two references (default) or a street route.'),
  })
  .describe('A journey "from A to B"; constraints refer to its line as "route".');
export type Route = z.infer<typeof RouteSchema>;

export const TagFilterSchema = z
  .tuple([z.string().min(1).max(100), z.array(z.string().min(1).max(100)).max(50)])
  .describe('[key, values]: matches if the OSM tag key has one of the values; "*" = any value except no/none.');

export const TargetsSchema = z
  .object({
    text: z.string().max(MAX_TEXT).describe("The kind of place asked for, as said ('bakeries or patisseries', 'sushi lunch'); empty if none."),
    concepts: z.array(z.string().max(100)).max(50).describe('PoiConcept ids (src/lexicon/poi-concepts.ts).'),
    tags: z.array(TagFilterSchema).max(200).describe('Union of the concepts\' tag filters: a feature qualifies if ANY pair matches.'),
    categories: z.array(z.string().max(100)).max(200).describe('Normalised categories (OSM values of primary tags) of the concepts.'),
  })
  .describe('What kind of place is wanted.');
export type Targets = z.infer<typeof TargetsSchema>;

export const SemanticSchema = z
  .object({
    text: z.string().max(MAX_TEXT).describe('The question without its spatial phrase: the need to rank by (cuisine, quality, price, atmosphere, opening time).'),
    cues: z.array(z.string().max(100)).max(50).describe("Normalised qualitative cues found ('cheap', 'open_late', 'vegan')."),
  })
  .describe('The non-spatial part of the need.');
export type Semantic = z.infer<typeof SemanticSchema>;

export const PopulationOrderSchema = z
  .object({
    by: z.literal('population'),
    direction: z.enum(['desc', 'asc']).describe('desc: the largest first ("the biggest cities"); asc: the smallest first.'),
    k: z
      .number()
      .int()
      .min(1)
      .max(K_MAX)
      .optional()
      .describe('How many the question asks for ("the 5 largest": 5, "the largest city": 1); unset: as many as the answer shows.'),
    assumed: z
      .boolean()
      .optional()
      .describe('True when the question did not ask for this order ("cities in Japan"): places without a population stay, listed last.'),
  })
  .describe(
    'The places satisfying the constraints ordered by their population (the world seed\'s cities carry one): ' +
      '"the largest / most populous cities in X", "人口最多的城市". Only places with a population qualify.',
  );
export type PopulationOrder = z.infer<typeof PopulationOrderSchema>;

export const SpatialPlanSchema = z
  .object({
    references: z.array(ReferenceSchema).max(20),
    route: RouteSchema.optional(),
    targets: TargetsSchema,
    constraints: z.array(ConstraintSchema).min(1).max(20),
    semantic: SemanticSchema,
    spatialText: z.string().max(MAX_TEXT).describe('The spatial-descriptive part of the question.'),
    preference: z
      .enum(['nearest', 'best', 'balanced'])
      .describe('Ranking: by distance, by semantic fit/quality, or a mix.'),
    lang: z.enum(['en', 'zh']),
    minPopulation: z
      .number()
      .int()
      .min(0)
      .max(10_000_000_000)
      .optional()
      .describe('Only places with at least this population (the world seed\'s cities carry one): "more than a million people".'),
    order: PopulationOrderSchema.optional(),
    confidence: z.number().min(0).max(1).describe('How sure the planner is of the parse; 0 = nothing usable.'),
    notes: z.array(z.string().max(500)).max(50).describe("How vague values were resolved ('near -> 500 m')."),
  })
  .superRefine((plan, ctx) => {
    // Cross-field checks, so that a valid plan never points at something undeclared.
    const ids = new Set<string>();
    plan.references.forEach((r, i) => {
      if (ids.has(r.id)) ctx.addIssue({ code: 'custom', message: `duplicate reference id ${r.id}`, path: ['references', i, 'id'] });
      ids.add(r.id);
    });
    const known = (ref: string): boolean => (ref === ROUTE_REF ? plan.route !== undefined : ids.has(ref));
    plan.constraints.forEach((c, i) => {
      const refs = c.fn === 'between' ? c.refs : [c.ref];
      refs.forEach((ref, j) => {
        if (!known(ref)) {
          ctx.addIssue({
            code: 'custom',
            message: `unknown reference ${ref}`,
            path: ['constraints', i, c.fn === 'between' ? 'refs' : 'ref', ...(c.fn === 'between' ? [j] : [])],
          });
        }
      });
      if (c.fn === 'between' && c.refs[0] === c.refs[1]) {
        ctx.addIssue({ code: 'custom', message: 'between needs two different references', path: ['constraints', i, 'refs'] });
      }
    });
    checkLogic(plan.constraints, ctx);
    if (plan.route) {
      for (const end of ['from', 'to'] as const) {
        if (!ids.has(plan.route[end])) ctx.addIssue({ code: 'custom', message: `unknown reference ${plan.route[end]}`, path: ['route', end] });
      }
      if (plan.route.from === plan.route.to) ctx.addIssue({ code: 'custom', message: 'route needs two different references', path: ['route'] });
    }
  })
  .describe('A parsed spatial question.');
export type SpatialPlan = z.infer<typeof SpatialPlanSchema>;

/**
 * Negation and alternatives stay decidable: at least one constraint holds positively (it bounds the search), the
 * closest-k cannot be negated nor an alternative (its cut-off is one ranking), a negated constraint is not an
 * alternative, and a group has at least two members.
 */
function checkLogic(constraints: readonly Constraint[], ctx: z.RefinementCtx): void {
  if (!constraints.some((c) => !c.negated)) {
    ctx.addIssue({ code: 'custom', message: 'at least one constraint must not be negated', path: ['constraints'] });
  }
  const groups = new Map<string, number>();
  constraints.forEach((c, i) => {
    if (c.fn === 'nearest' && (c.negated || c.anyOf)) {
      ctx.addIssue({ code: 'custom', message: 'nearest can be neither negated nor an alternative', path: ['constraints', i] });
    }
    if (c.negated && c.anyOf) ctx.addIssue({ code: 'custom', message: 'a negated constraint cannot be an alternative', path: ['constraints', i, 'anyOf'] });
    if (c.anyOf) groups.set(c.anyOf, (groups.get(c.anyOf) ?? 0) + 1);
  });
  for (const [id, n] of groups) {
    if (n < 2) ctx.addIssue({ code: 'custom', message: `group ${id} needs at least two alternatives`, path: ['constraints'] });
  }
}

/** Whether the plan names a kind of place (tags or categories to match): the ranking then keeps the places of it. */
export function hasTargets(plan: SpatialPlan): boolean {
  return plan.targets.tags.length > 0 || plan.targets.categories.length > 0;
}
