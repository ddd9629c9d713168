/** Where the shared real data lives: `../shared/data/eo` beside the repository (never copied into it). */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const EO_DATA_DIR = fileURLToPath(new URL('../../../../shared/data/eo/', import.meta.url));
export const OPENEO_DIR = `${EO_DATA_DIR}openeo-processes`;
export const SPECTRAL_DIR = `${EO_DATA_DIR}spectral-indices`;
export const hasOpenEO = existsSync(OPENEO_DIR);
export const hasSpectral = existsSync(`${SPECTRAL_DIR}/spectral-indices-dict.json`);
export const skipMessage = (what: string) => `${what} not found under ${EO_DATA_DIR}: tests reading shared data are skipped`;
