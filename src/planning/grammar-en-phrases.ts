/**
 * The reference phrases of the English grammar (grammar-en.ts): the question's tokens, whether its capitals
 * carry information, and the phrase that names a place after a spatial word ("near Lincoln Center that is open
 * late" -> "Lincoln Center"), delimited by capitalisation when the question uses it, otherwise by stop words.
 * A span once used by a construction is claimed and not reused.
 */
import { coordinatesAt, classifyKindEn, safeHint, PLACE_TAIL, AREA_GENERIC_TAIL, LANDMARK_LAST, type GazetteerHint } from './references.ts';
import { isSingleWordTarget, isTargetPhrase } from './lexicon-match.ts';
import { emptyParse, type RefMention, type Relation, type SpatialParse } from './parse-types.ts';
import { findEnDistances, foldAligned, insideAny, type DistanceMention, type Span } from './text.ts';

export interface Tok extends Span {
  text: string;
  low: string;
  word: boolean;
}

export type Strength = 'strong' | 'weak';
export interface RefOpts {
  strength: Strength;
  /** "and" ends the phrase ("between A and B"). */
  stopAnd?: boolean;
  /** Only a street is acceptable ("on X", "down X"). */
  streetOnly?: boolean;
}

/** Words that end a lower-case reference phrase. */
const STOP = new Set([
  'and', 'or', 'but', 'nor', 'so', 'yet', 'that', 'which', 'who', 'whom', 'whose', 'where', 'when', 'while', 'why', 'how',
  'what', 'with', 'without', 'for', 'to', 'from', 'within', 'near', 'nearby', 'around', 'along', 'alongside', 'inside',
  'in', 'into', 'on', 'at', 'by', 'between', 'not', 'because', 'if', 'than', 'then', 'after', 'before', 'during',
  'until', 'till', 'via', 'through', 'across', 'past', 'like', 'such', 'as', 'also', 'too', 'only', 'just', 'either',
  'open', 'opened', 'opens', 'serving', 'serves', 'selling', 'sells', 'offering', 'offers', 'having', 'has', 'have',
  'had', 'is', 'are', 'was', 'were', 'be', 'been', 'do', 'does', 'did', 'can', 'could', 'should', 'would', 'will',
  'may', 'might', 'must', 'shall', 'please', 'today', 'tonight', 'tomorrow', 'now', 'right', 'this', 'these', 'those',
  'i', 'we', 'you', 'they', 'it', 'he', 'she', 'me', 'us', 'them', 'let', 'lets', 'thanks', 'thank', 'any', 'some',
  'closest', 'nearest', 'close', 'walking', 'walk', 'driving', 'drive', 'under', 'over', 'about', 'up', 'down', 'off',
  'towards', 'toward', 'there', 'here', 'again', 'more', 'less', 'most', 'least', 'very', 'really', 'quite', 'ok', 'okay',
  'asap', 'soon', 'later', 'tho', 'though', 'pls', 'plz', 'either', 'neither', 'both', 'all', 'each', 'every',
]);
/** Lower-case words allowed inside a capitalised name ("Statue of Liberty", "Rue de la Paix"). */
const NAME_CONNECTORS = new Set(['of', 'the', 'de', 'del', 'della', 'di', 'da', 'do', 'dos', 'das', 'du', 'des', 'la', 'le', 'les', 'van', 'von', 'der', 'den', 'y', 'e', 'et', 'upon', 'am', 'im', 'sur', 'sous', 'al', 'el']);
/** Capitalised words that are not names ("I", a sentence-initial question word). */
const CAP_STOP = new Set(["i", "i'm", "i'd", "i'll", "i've", 'which', 'what', 'where', 'who', 'how', 'why', 'when', 'is', 'are', 'can', 'could', 'please', 'any', 'anything', 'also', 'and', 'or', 'thanks', 'ok']);
/** Abbreviations that keep their period inside a name ("St. Patrick's Cathedral", "W. 34th St."). */
const ABBREV = new Set(['st', 'ave', 'av', 'mt', 'ft', 'dr', 'blvd', 'rd', 'pl', 'ln', 'pk', 'w', 'e', 'n', 's', 'jr', 'sr', 'no', 'hwy', 'pkwy', 'sq', 'bldg', 'univ', 'mus', 'ctr', 'u.s', 'st.']);
/** Capitalised single words that are not places ("in Chinese", "on Sunday"). */
const NOT_PLACES = new Set([
  'english', 'chinese', 'french', 'spanish', 'italian', 'japanese', 'korean', 'german', 'russian', 'arabic', 'portuguese',
  'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday', 'january', 'february', 'march', 'april',
  'june', 'july', 'august', 'september', 'october', 'november', 'december', 'christmas', 'easter', 'thanksgiving',
  'spring', 'summer', 'autumn', 'fall', 'winter', 'morning', 'evening', 'afternoon', 'night', 'noon', 'midnight',
  'usd', 'cash', 'person', 'general', 'particular', 'total', 'advance', 'time', 'case', 'order', 'fact', 'front',
  'stock', 'town', 'city', 'public', 'private', 'mind', 'style', 'line', 'season', 'person', 'vain', 'love', 'addition',
]);
/** Lower-case starts that never begin a place ("in a hurry", "at least"). */
const NOT_PLACE_START = new Set([
  ...NOT_PLACES, 'a', 'an', 'my', 'your', 'our', 'his', 'her', 'their', 'its', 'this', 'that', 'these', 'those', 'which',
  'what', 'least', 'most', 'all', 'once', 'home', 'work', 'school', 'bed', 'walking', 'minutes', 'hours', 'hurry',
  'rush', 'budget', 'group', 'way', 'route', 'mood', 'need', 'search', 'terms', 'between', 'about', 'around', 'some',
  'any', 'the', 'one', 'two', 'three', 'first', 'last', 'next', 'each', 'every', 'both', 'same', 'other', 'another',
  'car', 'bus', 'foot', 'bike', 'bicycle', 'taxi', 'cab', 'train', 'subway', 'myself', 'far', 'then', 'chance', 'night',
  'day', 'noon', 'lunchtime', 'dinnertime', 'weekend', 'weekends', 'weekdays', 'tonight', 'today', 'tomorrow',
]);

const USER_RE = /^(?:me|us|here|my\s+(?:current\s+)?(?:location|position)|where\s+(?:i|we)\s+(?:am|are|stand)|my\s+current\s+spot|current\s+location|this\s+(?:spot|location))(?![\p{L}\p{N}])/u;
export const ROUTE_WORD_RE = /^(?:the|my|our|your|a)\s+(?:way|route|walk|journey|commute|trip|drive|ride|path)(?![\p{L}\p{N}])/u;
const TOKEN_RE = /[\p{L}\p{N}]+(?:['-][\p{L}\p{N}]+)*'?|[^\s]/gu;

export abstract class EnglishPhrases {
  protected readonly f: string;
  protected readonly toks: Tok[];
  protected readonly dists: DistanceMention[];
  protected readonly claimed: Span[] = [];
  protected readonly caseInformative: boolean;
  protected readonly out: SpatialParse = emptyParse();

  constructor(
    protected readonly s: string,
    protected readonly hint?: GazetteerHint,
  ) {
    this.f = foldAligned(s);
    this.toks = [...s.matchAll(TOKEN_RE)].map((m) => {
      const text = m[0];
      return { start: m.index, end: m.index + text.length, text, low: this.f.slice(m.index, m.index + text.length), word: /^[\p{L}\p{N}]/u.test(text) };
    });
    this.dists = findEnDistances(this.f);
    this.caseInformative = this.detectCase();
  }

  /** Capitals carry information unless the question is all lower (or all upper) case. */
  protected detectCase(): boolean {
    let sentenceStart = true;
    let upper = 0;
    let lower = 0;
    for (const t of this.toks) {
      if (!t.word) {
        if (/[.?!]/.test(t.text)) sentenceStart = true;
        continue;
      }
      if (/^\p{Lu}/u.test(t.text)) {
        if (!sentenceStart && !CAP_STOP.has(t.low)) upper++;
      } else if (/^\p{Ll}/u.test(t.text)) lower++;
      sentenceStart = false;
    }
    return upper > 0 && lower > 0;
  }

  // -------------------------------------------------------------------------------------------------------
  // helpers

  protected claim(...spans: Span[]): void {
    this.claimed.push(...spans);
  }

  protected isClaimed(pos: number): boolean {
    return insideAny(pos, this.claimed);
  }

  protected tokAt(pos: number): number {
    for (let i = 0; i < this.toks.length; i++) if (this.toks[i]!.end > pos) return i;
    return this.toks.length;
  }

  protected isUpperTok(t: Tok | undefined): boolean {
    return !!t && t.word && (/^\p{Lu}/u.test(t.text) || /^\p{Lo}/u.test(t.text)) && !CAP_STOP.has(t.low);
  }

  protected isDigitTok(t: Tok | undefined): boolean {
    return !!t && t.word && /^\d/.test(t.text);
  }

  protected startsDistance(pos: number): boolean {
    return this.dists.some((d) => d.start <= pos && pos < d.end);
  }

  /** Matches of `re` in the folded text whose start is not claimed, re-checked lazily as claims are made. */
  protected *matchAllAt(re: RegExp): Generator<RegExpExecArray> {
    for (const m of this.f.matchAll(re)) if (!this.isClaimed(m.index)) yield m;
  }

  /**
   * The reference phrase starting at `pos` (after optional spaces): coordinates, the asker ("me", "here"),
   * a quoted name, a capitalised name, or a short lower-case phrase.
   */
  protected extractRef(pos: number, opts: RefOpts): RefMention | undefined {
    let p = pos;
    while (this.s[p] === ' ') p++;
    if (p >= this.s.length || this.isClaimed(p)) return undefined;
    const coord = coordinatesAt(this.s, p);
    if (coord) return { text: this.s.slice(coord.start, coord.end).trim(), start: coord.start, end: coord.end, kind: 'coordinates', point: coord.point };
    const user = USER_RE.exec(this.f.slice(p));
    if (user) {
      if (opts.streetOnly) return undefined;
      return { text: this.s.slice(p, p + user[0].length), start: p, end: p + user[0].length, kind: 'coordinates', user: 'explicit' };
    }
    if (this.s[p] === '"') {
      const close = this.s.indexOf('"', p + 1);
      if (close > p + 1 && close - p <= 120) return this.finishRef(p + 1, close, opts, false);
    }
    let i = this.tokAt(p);
    const first = this.toks[i];
    if (!first?.word) return undefined;
    if (first.low === 'the') i++;
    else if (/^(a|an|any|some|every)$/.test(first.low)) {
      // "within 500 m of a subway station": a kind of place as anchor, which the plan cannot express.
      this.out.notes.push(`"${this.s.slice(first.start, Math.min(this.s.length, first.end + 30)).trim()}": a kind of place as the anchor is not supported`);
      return undefined;
    }
    const t = this.toks[i];
    if (!t?.word) return undefined;
    const range =
      this.caseInformative && (this.isUpperTok(t) || this.isDigitTok(t)) ? this.scanCapitalised(i, opts) : this.scanLower(i);
    if (!range) return undefined;
    const [from, to] = range;
    const weakPhrase = !(this.caseInformative && (this.isUpperTok(this.toks[from]) || this.isDigitTok(this.toks[from])));
    return this.finishRef(this.toks[from]!.start, this.toks[to]!.end, opts, weakPhrase, from, to);
  }

  protected scanCapitalised(start: number, opts: RefOpts): [number, number] | undefined {
    let last = -1;
    let tail = 0;
    for (let k = start; k < this.toks.length && k < start + 14; k++) {
      const t = this.toks[k]!;
      const next = this.toks[k + 1];
      if (this.isClaimed(t.start)) break;
      if (t.word) {
        if (this.startsDistance(t.start)) break;
        if (this.isUpperTok(t)) {
          last = k;
          continue;
        }
        if (this.isDigitTok(t)) {
          // "8th Avenue", "Pier 17", "42 Wall Street"; a bare number that starts a name needs a name after it.
          if (last < 0 && !/^\d+(st|nd|rd|th)$/i.test(t.text) && !this.isUpperTok(next)) break;
          last = k;
          continue;
        }
        if (last >= 0 && t.low === 'and') {
          if (opts.stopAnd || !this.isUpperTok(next)) break;
          continue;
        }
        if (last >= 0 && NAME_CONNECTORS.has(t.low) && this.nameContinuesAfter(k)) continue;
        if (last >= 0 && k === last + 1 && tail < 2 && PLACE_TAIL.has(t.low)) {
          // A lower-case place word right after a name belongs to it ("Penn station", "Flatiron district").
          last = k;
          tail++;
          continue;
        }
        break;
      }
      if (t.text === '&' && last >= 0 && (this.isUpperTok(next) || this.isDigitTok(next))) continue;
      if (t.text === '.' && last === k - 1 && ABBREV.has(this.toks[last]!.low) && next && next.start === t.end + 1 && (this.isUpperTok(next) || this.isDigitTok(next))) continue;
      break;
    }
    return last >= 0 ? [start, last] : undefined;
  }

  /** After connector k ("of", "de la"), does the name go on with a capitalised word? */
  protected nameContinuesAfter(k: number): boolean {
    for (let j = k + 1; j < this.toks.length && j <= k + 2; j++) {
      const t = this.toks[j]!;
      if (this.isUpperTok(t) || this.isDigitTok(t)) return true;
      if (!t.word || !NAME_CONNECTORS.has(t.low) || t.low === 'and') return false;
    }
    return false;
  }

  protected scanLower(start: number): [number, number] | undefined {
    let last = -1;
    for (let k = start; k < this.toks.length && k < start + 7; k++) {
      const t = this.toks[k]!;
      if (this.isClaimed(t.start)) break;
      if (!t.word) {
        if ((t.text === '&' || t.text === "'") && last >= 0) continue;
        break;
      }
      if (this.startsDistance(t.start)) break;
      if (STOP.has(t.low)) break;
      if (t.low === 'of' || t.low === 'the') {
        if (last >= 0) continue;
        break;
      }
      // "near union square pizza places": a kind of place after the name ends it.
      if (last >= 0 && isSingleWordTarget(t.low) && !PLACE_TAIL.has(t.low)) break;
      last = k;
    }
    return last >= 0 ? [start, last] : undefined;
  }

  /** Cleans a reference phrase (possessive qualifier, generic tail) and decides whether to accept it. */
  protected finishRef(startChar: number, endChar: number, opts: RefOpts, weakPhrase: boolean, from?: number, to?: number): RefMention | undefined {
    let start = startChar;
    let end = endChar;
    let context: string | undefined;
    let kind: RefMention['kind'];
    if (from !== undefined && to !== undefined && to > from) {
      const head = this.toks[from]!;
      const after = this.toks[from + 1]!;
      const prev = this.toks[from - 1];
      // "Manhattan's Koreatown": the possessor is a containing place; "St. Patrick's Cathedral" is a name.
      if (/'s$/i.test(head.text) && !(prev && /^(st|saint)$/i.test(prev.text.replace('.', ''))) && !LANDMARK_LAST.has(after.low) && !/^(deli|bar|pub|diner|pizza|bakery|kitchen|tavern|grill|cafe)$/.test(after.low)) {
        context = head.text.replace(/'s$/i, '');
        let k = from + 1;
        if (this.toks[k]?.low === 'the' && k < to) k++;
        start = this.toks[k]!.start;
      }
      const lastTok = this.toks[to]!;
      if (AREA_GENERIC_TAIL.has(lastTok.low)) {
        // "the Chelsea area": a generic word describing the place, not part of its name.
        const before = this.toks[to - 1]!;
        if (before.start >= start) {
          end = before.end;
          kind = 'area';
        }
      }
    }
    let text = this.s.slice(start, end).trim();
    if (/'s$/i.test(text) && text.length > 3) {
      text = text.slice(0, -2);
      end -= 2;
    }
    text = text.replace(/^[\s"'([]+|[\s"',.;:!?)\]]+$/g, '');
    if (!text || text.length > 200) return undefined;
    const lowText = foldAligned(text);
    if (/^\d+([.,]\d+)?$/.test(lowText)) return undefined;
    if (NOT_PLACES.has(lowText)) return undefined;
    const hinted = safeHint(this.hint, text);
    const cue = classifyKindEn(text);
    if (opts.streetOnly && (hinted ?? cue) !== 'street') return undefined;
    let weak = false;
    if (weakPhrase) {
      // "near the hotel", "nearby cafes": a kind of place, not a named anchor.
      if (!hinted && isTargetPhrase(text)) {
        // Only "near THE hotel" is an anchor that cannot be expressed; "nearby cafés" is just the target.
        if (opts.strength === 'strong' && /(?:^|\s)the\s+$/i.test(this.s.slice(Math.max(0, startChar - 5), startChar))) {
          this.out.unused.push({ start, end });
          this.out.notes.push(`"the ${text}": a kind of place as the anchor is not supported`);
        }
        return undefined;
      }
      const firstWord = lowText.split(/\s+/)[0] ?? '';
      if (NOT_PLACE_START.has(firstWord)) {
        if (!(opts.strength === 'strong' && /^(my|our|your)$/.test(firstWord))) return undefined;
      }
      if (opts.strength === 'weak') {
        // Without capitals, a weak marker ("in", "at", "on") needs evidence that a place follows.
        if (!hinted && !cue && this.caseInformative) return undefined;
        if (!hinted && !cue && isTargetPhrase(text)) return undefined;
      }
      weak = !hinted && !cue;
    }
    return {
      text,
      start,
      end,
      ...(kind ? { kind } : {}),
      ...(context ? { context } : {}),
      ...(weak ? { weak: true } : {}),
    };
  }

  protected addRelation(r: Relation): void {
    this.out.relations.push(r);
    this.claim(...r.spans);
  }

  /** Makes `ref` the context of a reference ending right before `markerStart` ("X in Paris", "X at Hudson Yards"). */
  protected attachContext(markerStart: number, ref: RefMention): boolean {
    const owner = this.refEndingAt(markerStart);
    if (!owner || owner.context || ref.user || ref.point) return false;
    if ((safeHint(this.hint, ref.text) ?? classifyKindEn(ref.text)) === 'street') return false;
    owner.context = ref.text;
    owner.contextEnd = ref.end;
    const span = { start: markerStart, end: ref.end };
    this.out.unused.push(span);
    this.claim(span);
    return true;
  }

  /** A named reference of an earlier relation that ends right before `pos` (spaces or a comma between). */
  protected refEndingAt(pos: number): RefMention | undefined {
    for (const r of this.out.relations) {
      const refs = r.fn === 'between' ? r.refs : r.fn === 'along_route' ? [] : r.ref ? [r.ref] : [];
      for (const ref of refs) if (!ref.user && !ref.point && ref.end <= pos && /^[\s,]*$/.test(this.s.slice(ref.end, pos))) return ref;
    }
    const route = this.out.route;
    for (const ref of route ? [route.from, route.to] : []) if (!ref.user && ref.end <= pos && /^[\s,]*$/.test(this.s.slice(ref.end, pos))) return ref;
    return undefined;
  }
}
