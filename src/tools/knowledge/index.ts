/**
 * The Earth-observation knowledge graph (`../catalog/knowledge-graph.json`) and the lookups built on it:
 * task concepts with English/Chinese surface forms (forms.ts), products and which product satisfies which,
 * processing capabilities (graph.ts), band roles, sensors and what each processing level already provides
 * (sensors.ts). The tables' shape is schema.ts.
 */
export type { BandRole, CapabilityInfo, EoConcept, FamilyInfo, FunctionInfo, KnowledgeGraph, LevelInfo, ProductInfo, SensorInfo } from './schema.ts';
export {
  capabilityClosure,
  capabilityInfo,
  conceptInfo,
  eoConceptEntries,
  eoConcepts,
  functionConcepts,
  functionInfo,
  isGenericProduct,
  isKindForm,
  isKnownCapabilityName,
  knowledgeGraph,
  productAncestors,
  productInfo,
  productSatisfies,
  sensorConcepts,
} from './graph.ts';
export { bandRoleFor, bandRoleIds, bandRoleInfo, canonicalDataSource, findLevel, findSensor, levelProvides, resolveDataSources, sensorBandFor, sensorByDataSource, sensorsWithBands } from './sensors.ts';
export { normalizeForMatch } from './normalize.ts';
export { matchForms, matchFormsByStem, normalizeAvailable, type FormKind, type FormMatch } from './forms.ts';
