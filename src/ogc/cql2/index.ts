import type { RawBuilder } from 'kysely';
import { badRequest } from '../../http/problem.ts';
import { FilterError, type Filter } from './ast.ts';
import { compileFilter } from './compile.ts';
import { parseCql2Json } from './json.ts';
import { parseCql2Text } from './text.ts';

/**
 * `cql-text` is the name the Part 3 drafts gave the text encoding, and the one GDAL up to 3.6 sends; the
 * Basic CQL2 expressions it writes read the same in CQL2 text.
 */
export const FILTER_LANGS = ['cql2-text', 'cql2-json', 'cql-text'] as const;
export type FilterLang = (typeof FILTER_LANGS)[number];

export function parseFilter(text: string, lang: FilterLang): Filter {
  return lang === 'cql2-json' ? parseCql2Json(text) : parseCql2Text(text);
}

/** The `filter` query parameter as a SQL predicate, or a 400 naming where it goes wrong. */
export function filterPredicate(text: string, lang: FilterLang): RawBuilder<boolean> {
  try {
    return compileFilter(parseFilter(text, lang));
  } catch (error) {
    if (error instanceof FilterError) {
      throw badRequest(`invalid filter (${lang}): ${error.message}`, [{ in: 'query', field: 'filter', message: error.message }]);
    }
    throw error;
  }
}

export { FilterError, type Filter } from './ast.ts';
export { QUERYABLE_NAMES, GEOMETRY_PROPERTY } from './compile.ts';
