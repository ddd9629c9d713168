import { buffered } from './along.ts';
import type { SpatialFunctionSpec } from './spec.ts';

/** Within `bufferM` of the straight segment between two references (the corridor between them). */
export const between: SpatialFunctionSpec<'between'> = {
  fn: 'between',
  referenceShape: 'any',
  ...buffered,
  labels: {
    en: { area: 'corridor {m} m wide each side', place: '{distance} from {ref}' },
    zh: { area: '两地之间（两侧各 {m} 米）', place: '距{ref}{distance}' },
  },
  searchArea: { kind: 'corridor', metres: 'bufferM' },
};
