/**
 * Brand names as kinds of place ("a Starbucks", "any CVS", "星巴克"), from the data's own `brand` tags: the
 * caller builds the index from the places it holds (see src/spatial/brand-index.ts), so any chain the data
 * knows is understood, in any city, without a list kept by hand.
 */
import type { TagFilter } from '../lexicon/types.ts';
import { foldKey, overlapsAny, type Span } from './text.ts';

export interface BrandEntry {
  /** The `brand` tag value ("CVS Pharmacy"). */
  brand: string;
  /** Names the branded places carry ("CVS Pharmacy", "CVS"). */
  names: string[];
}

export interface BrandIndex {
  /** Folded form -> entry; a form that is an everyday word ("chase", "subway") must be capitalised. */
  forms: Map<string, { entry: BrandEntry; needsCapital: boolean }>;
  /** Chinese forms (`brand:zh`, `name:zh`), matched as substrings, longest first. */
  zh: Array<{ form: string; entry: BrandEntry }>;
  maxTokens: number;
}

/** Generic heads a brand may be said without ("CVS Pharmacy" -> "CVS", "Shake Shack Burgers" stays). */
const GENERIC_TAIL = /\s+(?:pharmacy|bank|coffee|cafe|bakery|restaurant|hotel|market|supermarket|store|shop|express|burgers?|pizza|office)$/i;

export function buildBrandIndex(entries: ReadonlyArray<BrandEntry & { zh?: string[] }>, isEverydayWord: (w: string) => boolean = () => false): BrandIndex {
  const index: BrandIndex = { forms: new Map(), zh: [], maxTokens: 1 };
  for (const e of entries) {
    const entry = { brand: e.brand, names: e.names };
    const forms = new Set([e.brand, ...e.names]);
    for (const f of [...forms]) {
      const short = f.replace(GENERIC_TAIL, '');
      if (short !== f && short.replace(/[^A-Za-z0-9]/g, '').length >= 3) forms.add(short);
    }
    for (const f of forms) {
      const key = foldKey(f).replace(/[^\p{L}\p{N}&' ]+/gu, ' ').replace(/\s+/g, ' ').trim();
      if (key.length < 3 || index.forms.has(key)) continue;
      const words = key.split(' ');
      index.maxTokens = Math.max(index.maxTokens, words.length);
      index.forms.set(key, { entry, needsCapital: words.length === 1 && isEverydayWord(key) });
    }
    for (const z of e.zh ?? []) if ([...z].length >= 2) index.zh.push({ form: z, entry });
  }
  index.zh.sort((a, b) => b.form.length - a.form.length);
  return index;
}

export interface BrandMatch extends Span {
  entry: BrandEntry;
}

const WORD_RE = /[\p{L}\p{N}]+(?:['&][\p{L}\p{N}]+)*/gu;

/** Brand names in the question, outside the masked spans, longest first then leftmost. */
export function matchBrands(
  original: string,
  folded: string,
  masked: readonly Span[],
  index: BrandIndex,
  glosses: ReadonlyArray<Span & { senses: string[] }> = [],
): BrandMatch[] {
  const tokens = [...folded.matchAll(WORD_RE)].map((m) => ({ start: m.index, end: m.index + m[0].length, low: m[0] })).filter((t) => !overlapsAny(t, masked));
  const found: BrandMatch[] = [];
  for (let i = 0; i < tokens.length; i++) {
    let key = '';
    for (let n = 0; n < index.maxTokens && i + n < tokens.length; n++) {
      const t = tokens[i + n]!;
      if (n > 0 && !/^[\s&'-]{1,3}$/.test(folded.slice(tokens[i + n - 1]!.end, t.start))) break;
      key += (n > 0 ? ' ' : '') + t.low;
      const hit = index.forms.get(key.replace(/&/g, ' ').replace(/\s+/g, ' '));
      if (!hit) continue;
      const start = tokens[i]!.start;
      if (hit.needsCapital && !/^\p{Lu}/u.test(original.slice(start))) continue;
      found.push({ start, end: t.end, entry: hit.entry });
    }
  }
  if (/[^\x00-\x7F]/.test(original)) {
    for (const { form, entry } of index.zh) {
      const at = original.indexOf(form);
      if (at >= 0 && !overlapsAny({ start: at, end: at + form.length }, masked)) found.push({ start: at, end: at + form.length, entry });
    }
    // A brand written in Chinese without a Chinese tag: the dictionary's English sense names it (星巴克 = Starbucks).
    for (const g of glosses) {
      for (const sense of g.senses.flatMap(leadingWords)) {
        const hit = index.forms.get(sense);
        // Everyday words (想 = "think") never name a brand; a brand's Chinese name has two characters or more.
        if (hit && !hit.needsCapital && g.end - g.start >= 2 && !overlapsAny(g, masked)) {
          found.push({ start: g.start, end: g.end, entry: hit.entry });
          break;
        }
      }
    }
  }
  found.sort((a, b) => b.end - b.start - (a.end - a.start) || a.start - b.start);
  const chosen: BrandMatch[] = [];
  for (const m of found) if (!overlapsAny(m, chosen)) chosen.push(m);
  return chosen.sort((a, b) => a.start - b.start);
}

/** A sense and its leading words ("dunkin' donuts" -> "dunkin'"): a brand is often named by its first word. */
function leadingWords(sense: string): string[] {
  const words = foldKey(sense).replace(/[^\p{L}\p{N}&' ]+/gu, ' ').replace(/\s+/g, ' ').trim().split(' ');
  const out: string[] = [];
  for (let n = words.length; n >= 1; n--) {
    const key = words.slice(0, n).join(' ');
    if (key.replace(/[^a-z0-9]/g, '').length >= 4) out.push(key);
  }
  return out;
}

/** The tag filter of a brand: its `brand` tag, or a place named like it (chains often lack the brand tag). */
export function brandTags(entries: readonly BrandEntry[]): TagFilter[] {
  const brands = [...new Set(entries.map((e) => e.brand))];
  const names = [...new Set(entries.flatMap((e) => [e.brand, ...e.names]))];
  return [['brand', brands], ['name', names]];
}
