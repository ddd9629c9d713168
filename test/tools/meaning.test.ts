import { describe, expect, it } from 'vitest';
import { buildMeaningIndex, meaningScores, requestVector, toolWords } from '../../src/tools/meaning.ts';
import type { ToolRecord } from '../../src/tools/schema.ts';
import { deriveToolMetadata } from '../../src/tools/tool.ts';

/** A tool as a third party would describe it: an id, a name and a sentence. */
const tool = (id: string, name: string, description: string): ToolRecord => deriveToolMetadata({ id, name, description }) as ToolRecord;

const catalog = [
  tool('canopy_thirst', 'Canopy thirst gauge', 'Estimates how much moisture the leaves of plants hold, from their reflectance, for every satellite image pixel.'),
  tool('vehicle_counter', 'Vehicle counter', 'Counts cars and trucks on motorways in every satellite image.'),
  tool('harbour_vessels', 'Harbour vessel finder', 'Finds ships moored in ports in every satellite image.'),
];
const index = buildMeaningIndex(catalog.map((t) => [t.id, toolWords(t)]));

describe('IDF-weighted word-vector means of tool texts', () => {
  it('ranks a tool described in other words above unrelated ones', () => {
    // No word of the request is in the matching tool's text: only their meanings meet.
    const scores = meaningScores(index, requestVector(index, ['which crops are withering in the drought']));
    expect(scores.get('canopy_thirst')!).toBeGreaterThan(scores.get('vehicle_counter')!);
    expect(scores.get('canopy_thirst')!).toBeGreaterThan(scores.get('harbour_vessels')!);
    const boats = meaningScores(index, requestVector(index, ['how many boats are docked at the quay']));
    expect(boats.get('harbour_vessels')!).toBeGreaterThan(boats.get('canopy_thirst')!);
  });

  it('weights a word every tool uses below the words that tell the tools apart', () => {
    expect(index.idf.get('satellit')!).toBeLessThan(index.idf.get('ship')!);
    expect(index.idf.get('satellit')!).toBeLessThan(index.maxIdf);
  });

  it('gives no vector for a request without a word the vectors know', () => {
    expect(requestVector(index, ['42 2024'])).toBeUndefined();
    expect(meaningScores(index, undefined).size).toBe(0);
  });
});
