/** A concept of the domain with its surface forms, used by the planners, the request parser and the embedder. */
export interface Concept {
  /** Stable id, snake_case (`cafe`, `change_detection`). */
  id: string;
  /** English surface forms, lower case (`cafe`, `coffee shop`, `espresso`). */
  en: string[];
  /** Chinese surface forms (`咖啡店`, `咖啡馆`). */
  zh: string[];
}

/** An OSM tag filter: the feature qualifies if any pair matches; `*` = any value except `no`/`none`. */
export type TagFilter = [key: string, values: string[]];

/** A kind of place people ask for, and how to find it in OSM-tagged data. */
export interface PoiConcept extends Concept {
  /** The normalised category the importers assign (see src/ingest/category.ts), when one matches. */
  categories: string[];
  tags: TagFilter[];
  /** Default radius in metres for a vague "near" around this kind of reference object. */
  nearM?: number;
}
