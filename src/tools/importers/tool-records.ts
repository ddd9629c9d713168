import { z } from 'zod';
import type { ToolRecord } from '../schema.ts';
import { deriveToolMetadata, type MinimalToolInput } from '../tool.ts';
import { ToolImportError } from './import-error.ts';

const RecordFileSchema = z.union([
  z.array(z.looseObject({ id: z.string() })),
  z.looseObject({ tools: z.array(z.looseObject({ id: z.string() })), catalog: z.string().optional(), version: z.string().optional() }),
]);

/** What every record of a file must have; the rest is derived (and validated) by deriveToolMetadata. */
const MinimalRecordSchema = z.looseObject({ id: z.string().min(1), name: z.string().min(1), description: z.string().min(1) });

/**
 * Tool records in this registry's own format (an array of records or `{catalog, version, tools}`), each
 * completed by deriveToolMetadata; `where` names the file or body in errors.
 */
export function parseToolRecords(data: unknown, where: string): ToolRecord[] {
  const parsed = RecordFileSchema.safeParse(data);
  if (!parsed.success) throw new ToolImportError(`${where}: ${z.prettifyError(parsed.error)}`, where);
  const file = parsed.data;
  const raw = Array.isArray(file) ? file : file.tools;
  const defaults = Array.isArray(file) ? {} : { ...(file.catalog ? { catalog: file.catalog } : {}), ...(file.version ? { version: file.version } : {}) };
  return raw.map((r, i) => {
    const input = { ...defaults, ...r } as MinimalToolInput;
    const check = MinimalRecordSchema.safeParse(input);
    if (!check.success) throw new ToolImportError(`${where}: tool #${i}: ${z.prettifyError(check.error)}`, where);
    try {
      return deriveToolMetadata(input);
    } catch (error) {
      const detail = error instanceof z.ZodError ? z.prettifyError(error) : (error as Error).message;
      throw new ToolImportError(`${where}: tool ${input.id}: ${detail}`, where);
    }
  });
}
