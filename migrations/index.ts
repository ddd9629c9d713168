import type { Migration } from 'kysely';
import * as places from './0001_places.ts';

/** Every migration, by name in order. A static list: no file-system scan, the same in every runner. */
export const migrations: Record<string, Migration> = {
  '0001_places': places,
};
