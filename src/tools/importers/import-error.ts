import { readFileSync } from 'node:fs';

/** A catalog that cannot be imported: the message names the file (or input label) and what is wrong. */
export class ToolImportError extends Error {
  constructor(
    message: string,
    /** The file (or input label) the problem was found in. */
    readonly source?: string,
  ) {
    super(message);
    this.name = 'ToolImportError';
  }
}

/** Parses a JSON file; an unreadable file or invalid JSON is a ToolImportError prefixed with `label`. */
export function readJsonFile(file: string, label: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new ToolImportError(`${label}: cannot read ${file}: ${(err as Error).message}`, file);
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new ToolImportError(`${label}: invalid JSON in ${file}: ${(err as Error).message}`, file);
  }
}
