import { z } from '@hono/zod-openapi';
import { DegradationSchema, GeometrySchema, invalidRequest, jsonBody, jsonContent } from '../http/openapi-helpers.ts';
import { defineRoute } from '../http/route-policy.ts';
import { SpatialPlanSchema } from '../planning/plan.ts';
import { ToolHitSchema, WorkflowSchema } from '../tools/tools.routes.ts';

export const MAX_QUESTION_CHARS = 1000;

export const askBody = z
  .strictObject({
    question: z
      .string()
      .max(MAX_QUESTION_CHARS)
      .refine((q) => q.trim().length > 0, 'must not be empty')
      .openapi({ example: 'Any bakeries within 300 m of Union Square?' }),
    k: z.number().int().min(1).max(50).default(5),
    near: z.strictObject({ lon: z.number().min(-180).max(180), lat: z.number().min(-90).max(90) }).optional(),
    planner: z.enum(['auto', 'offline', 'llm']).default('auto'),
    rerank: z.enum(['auto', 'rules', 'llm']).default('auto').openapi({
      description: 'who orders the Pareto front: the language model when configured (auto) or asked for (llm), else the rule trade-off',
    }),
  })
  .openapi('AskRequest');

export const AskCandidateSchema = z
  .object({
    id: z.number(),
    sourceId: z.string(),
    name: z.string(),
    category: z.string().nullable(),
    geometry: GeometrySchema.nullable(),
    distanceM: z.number(),
    scores: z.object({ sparse: z.number(), denseSpatial: z.number(), semantic: z.number(), hybrid: z.number() }),
    pareto: z.boolean(),
    why: z.string(),
    rankReason: z.string().optional().openapi({ description: "the language model's one-line reason, when it ordered the answer" }),
  })
  .openapi('AskCandidate');

/** The references of the plan as resolved on the map: one feature each (its geometry, the text it came from, the place it matched). */
export const ReferenceCollectionSchema = z
  .object({
    type: z.literal('FeatureCollection'),
    features: z.array(
      z.object({
        type: z.literal('Feature'),
        geometry: GeometrySchema,
        properties: z.object({
          ref: z.string(),
          text: z.string(),
          name: z.string().nullable(),
          placeId: z.number().nullable(),
          shape: z.enum(['point', 'polygon', 'line']),
        }),
      }),
    ),
  })
  .openapi('ResolvedReferences');

const placeClarification = z
  .object({
    question: z.string(),
    reference: z.string().openapi({ description: 'the id of the plan reference that is ambiguous' }),
    options: z.array(
      z.object({
        name: z.string(),
        category: z.string().nullable(),
        placeId: z.number().optional(),
        lon: z.number(),
        lat: z.number(),
        hint: z.string(),
      }),
    ),
  })
  .openapi('PlaceClarification', { description: 'asked instead of answering when a named place has several fitting matches' });

const sqlParameter = z
  .unknown()
  .openapi('SqlParameter', { description: 'a value bound to the SQL ($1, $2, …): text, a number, a boolean or an array of them' });

export const askResponse = z
  .object({
    answer: z.string(),
    candidates: z.array(AskCandidateSchema),
    plan: SpatialPlanSchema,
    planner: z.enum(['offline', 'llm', 'given']).openapi({ description: '`given` only in the evaluation, which passes its own plans' }),
    plannerFallback: z.string().optional(),
    sql: z.string(),
    sqlParameters: z.array(sqlParameter),
    reference: ReferenceCollectionSchema,
    clarification: placeClarification.optional(),
    tools: z.array(ToolHitSchema).openapi({
      description: 'EO processing tools that fit the question, best first; empty when it asks for no EO processing',
    }),
    workflow: WorkflowSchema.optional().openapi({ description: 'the tool chain for a multi-step EO request' }),
    tradeOff: z.object({ spatialWeight: z.number(), semanticWeight: z.number(), reason: z.string() }).openapi('TradeOff'),
    rerank: z
      .object({ by: z.enum(['llm', 'rules']), model: z.string().optional(), fallbackReason: z.string().optional() })
      .openapi({ description: 'who ordered the answer; fallbackReason says why the model\'s ranking was wanted but not used' }),
    llmCalls: z.number().openapi({ description: 'language model calls made for this question (plan and rerank; at most 2)' }),
    degraded: z
      .array(DegradationSchema)
      .optional()
      .openapi({ description: 'present when the answer was computed without a failing dependency: which, why, and what was used instead' }),
    timingsMs: z.record(z.string(), z.number()),
  })
  .openapi('AskResponse');

export const askRoute = defineRoute({
  policy: 'expensive-read',
  method: 'post',
  path: '/v1/ask',
  tags: ['ask'],
  summary: 'Answer a geographic question (Spatial-RAG): plan, spatial SQL, sparse + dense scores, Pareto front, answer',
  request: { body: jsonBody(askBody) },
  responses: {
    200: jsonContent(askResponse, 'the answer, its candidates and how they were found'),
    400: invalidRequest,
  },
});
