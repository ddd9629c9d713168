/**
 * The built-in domain catalog (`domain-catalog.json`): EO processing tools written for this project with
 * full structured metadata. Loaded from JSON so that the catalog can grow without code changes.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { ToolRecordSchema, type ToolRecord } from '../schema.ts';

const CATALOG_URL = new URL('./domain-catalog.json', import.meta.url);

/** Catalog name of the built-in tools. */
export const DOMAIN_CATALOG = 'domain';

const FileSchema = z.strictObject({
  catalog: z.string().min(1),
  version: z.string().min(1),
  about: z.string(),
  tools: z.array(z.unknown()),
});

let cached: ToolRecord[] | undefined;

/**
 * Validates every tool with the registry schema; the catalog name and version of the file apply to
 * tools that do not set their own. Throws naming the tool id and field on invalid data.
 */
export function loadDomainCatalog(): ToolRecord[] {
  if (cached) return structuredClone(cached);
  const file = FileSchema.parse(JSON.parse(readFileSync(CATALOG_URL, 'utf8')));
  const seen = new Set<string>();
  const tools = file.tools.map((raw, i) => {
    const withDefaults = { catalog: file.catalog, version: file.version, ...(raw as object) };
    const parsed = ToolRecordSchema.safeParse(withDefaults);
    if (!parsed.success) {
      const id = (raw as { id?: unknown }).id ?? `#${i}`;
      throw new Error(`domain catalog: invalid tool ${String(id)}: ${z.prettifyError(parsed.error)}`);
    }
    if (seen.has(parsed.data.id)) throw new Error(`domain catalog: duplicate tool id ${parsed.data.id}`);
    seen.add(parsed.data.id);
    return parsed.data;
  });
  cached = tools;
  // Callers get their own copy: a cached array shared by reference could be mutated by one of them.
  return structuredClone(tools);
}

let functionById: Map<string, string> | undefined;

/**
 * The tool of a concept's list that does what the concept names: the first whose task type is one of the
 * concept's (cva_change_detector for deforestation, not the co-registration listed before it as a step of
 * the chain); none when the list holds only preparatory steps (atmospheric correction for water quality).
 */
export function mainToolOf(concept: { tools?: string[]; functions?: string[] }): string | undefined {
  functionById ??= new Map(loadDomainCatalog().map((t) => [t.id, t.function]));
  const functions = new Set(concept.functions ?? []);
  return concept.tools?.find((id) => functions.has(functionById!.get(id) ?? ''));
}
