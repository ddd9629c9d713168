/**
 * English spatial grammar: finds spatial phrases (distance + reference, near, in, along, from-to, between,
 * nearest, crossing, at a corner) and the reference phrases they govern.
 *
 * Reference phrases are delimited by capitalisation when the question uses it ("near Lincoln Center
 * that is open late" -> "Lincoln Center"), otherwise by stop words. Phrases are found left to right per
 * construction, most specific construction first; a span once used is not reused by a weaker one.
 */
import { coordinatesAt, classifyKindEn, findCoordinates, safeHint, PLACE_TAIL, AREA_GENERIC_TAIL, LANDMARK_LAST, type GazetteerHint } from './references.js';
import { isSingleWordTarget, isTargetPhrase } from './lexicon-match.js';
import { emptyParse, type RefMention, type Relation, type SpatialParse, type Vague } from './parse-types.js';
import type { Bearing } from './plan.js';
import { EN_NUMBER_WORDS, findEnDistances, foldAligned, insideAny, overlapsAny, parseEnNumber, type DistanceMention, type Span } from './text.js';

interface Tok extends Span {
  text: string;
  low: string;
  word: boolean;
}

type Strength = 'strong' | 'weak';
interface RefOpts {
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
const ROUTE_WORD_RE = /^(?:the|my|our|your|a)\s+(?:way|route|walk|journey|commute|trip|drive|ride|path)(?![\p{L}\p{N}])/u;
const K_WORD = `(?:\\d{1,2}|${EN_NUMBER_WORDS.filter((w) => !/hundred|thousand|zero/.test(w)).join('|')}|a\\s+few|few|a\\s+couple(?:\\s+of)?|couple(?:\\s+of)?|several)`;

const TOKEN_RE = /[\p{L}\p{N}]+(?:['-][\p{L}\p{N}]+)*'?|[^\s]/gu;

/** Compass bearings as said (folded: "north-east" is "north east"). */
const EN_BEARING = '(?:north|south)\\s?(?:east|west)|north|south|east|west';

function enBearing(word: string): Bearing {
  const [a, b] = word.split(/\s+|(?<=north|south)(?=east|west)/);
  return (b ? `${a}_${b}` : a) as Bearing;
}

export class EnglishGrammar {
  private readonly f: string;
  private readonly toks: Tok[];
  private readonly dists: DistanceMention[];
  private readonly claimed: Span[] = [];
  private readonly caseInformative: boolean;
  private readonly out: SpatialParse = emptyParse();

  constructor(
    private readonly s: string,
    private readonly hint?: GazetteerHint,
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
  private detectCase(): boolean {
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

  parse(): SpatialParse {
    this.routes();
    this.waysTo();
    this.between();
    this.corners();
    this.directions();
    this.distances();
    this.userPhrases();
    this.nearest();
    this.proximity();
    this.alongRoute();
    this.along();
    this.intersects();
    this.inside();
    this.onStreet();
    this.at();
    this.looseCoordinates();
    this.trailingContext();
    this.bareName();
    return this.out;
  }

  // -------------------------------------------------------------------------------------------------------
  // helpers

  private claim(...spans: Span[]): void {
    this.claimed.push(...spans);
  }

  private isClaimed(pos: number): boolean {
    return insideAny(pos, this.claimed);
  }

  private tokAt(pos: number): number {
    for (let i = 0; i < this.toks.length; i++) if (this.toks[i]!.end > pos) return i;
    return this.toks.length;
  }

  private isUpperTok(t: Tok | undefined): boolean {
    return !!t && t.word && (/^\p{Lu}/u.test(t.text) || /^\p{Lo}/u.test(t.text)) && !CAP_STOP.has(t.low);
  }

  private isDigitTok(t: Tok | undefined): boolean {
    return !!t && t.word && /^\d/.test(t.text);
  }

  private startsDistance(pos: number): boolean {
    return this.dists.some((d) => d.start <= pos && pos < d.end);
  }

  /** Matches of `re` in the folded text whose start is not claimed, re-checked lazily as claims are made. */
  private *matchAllAt(re: RegExp): Generator<RegExpExecArray> {
    for (const m of this.f.matchAll(re)) if (!this.isClaimed(m.index)) yield m;
  }

  /**
   * The reference phrase starting at `pos` (after optional spaces): coordinates, the asker ("me", "here"),
   * a quoted name, a capitalised name, or a short lower-case phrase.
   */
  private extractRef(pos: number, opts: RefOpts): RefMention | undefined {
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
    if (!first || !first.word) return undefined;
    if (first.low === 'the') i++;
    else if (/^(a|an|any|some|every)$/.test(first.low)) {
      // "within 500 m of a subway station": a kind of place as anchor, which the plan cannot express.
      this.out.notes.push(`"${this.s.slice(first.start, Math.min(this.s.length, first.end + 30)).trim()}": a kind of place as the anchor is not supported`);
      return undefined;
    }
    const t = this.toks[i];
    if (!t || !t.word) return undefined;
    const range =
      this.caseInformative && (this.isUpperTok(t) || this.isDigitTok(t)) ? this.scanCapitalised(i, opts) : this.scanLower(i);
    if (!range) return undefined;
    const [from, to] = range;
    const weakPhrase = !(this.caseInformative && (this.isUpperTok(this.toks[from]) || this.isDigitTok(this.toks[from])));
    return this.finishRef(this.toks[from]!.start, this.toks[to]!.end, opts, weakPhrase, from, to);
  }

  private scanCapitalised(start: number, opts: RefOpts): [number, number] | undefined {
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
  private nameContinuesAfter(k: number): boolean {
    for (let j = k + 1; j < this.toks.length && j <= k + 2; j++) {
      const t = this.toks[j]!;
      if (this.isUpperTok(t) || this.isDigitTok(t)) return true;
      if (!t.word || !NAME_CONNECTORS.has(t.low) || t.low === 'and') return false;
    }
    return false;
  }

  private scanLower(start: number): [number, number] | undefined {
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
  private finishRef(startChar: number, endChar: number, opts: RefOpts, weakPhrase: boolean, from?: number, to?: number): RefMention | undefined {
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

  private addRelation(r: Relation): void {
    this.out.relations.push(r);
    this.claim(...r.spans);
  }

  // -------------------------------------------------------------------------------------------------------
  // constructions

  /** "from A to B", "on my walk from A to B", "walking from A to B". */
  private routes(): void {
    for (const m of this.matchAllAt(/(?<![\p{L}\p{N}])from\s+/gu)) {
      if (this.out.route) return;
      const a = this.extractRef(m.index + m[0].length, { strength: 'strong' });
      if (!a || a.user) continue;
      const link = /^[\s,]*(?:to|towards?|till|until|through\s+to|on\s+to|and\s+on\s+to|->|→|-)\s+/u.exec(this.f.slice(a.end));
      if (!link) continue;
      const b = this.extractRef(a.end + link[0].length, { strength: 'strong' });
      if (!b) continue;
      let start = m.index;
      const lead = /(?:(?:on|along|during)\s+(?:the|my|our|your|a)\s+(?:way|route|walk|journey|commute|trip|drive|ride|path)|(?:the\s+)?(?:route|way|path|walk|walking|walk|driving|drive|going|heading|getting|travell?ing|biking|cycling|commuting|running|strolling)|(?:en\s+route))\s+$/.exec(
        this.f.slice(Math.max(0, start - 40), start),
      );
      if (lead) start -= lead[0].length;
      const via = /\b(?:street\s+route|by\s+road|following\s+the\s+streets|walking\s+route|driving\s+route|via\s+the\s+streets|on\s+the\s+streets)\b/.test(this.f) ? 'streets' : 'straight';
      this.out.route = { from: a, to: b, via, spans: [{ start, end: b.end }] };
      this.claim({ start, end: b.end });
      this.out.relations.push({ fn: 'along_route', spans: [] });
    }
  }

  /** "on my way to B": a route from the asker's position. */
  private waysTo(): void {
    if (this.out.route) return;
    for (const m of this.matchAllAt(/(?<![\p{L}\p{N}])(?:on|along)\s+(?:my|our|the)\s+way\s+(?:to|towards?)\s+/gu)) {
      const b = this.extractRef(m.index + m[0].length, { strength: 'strong' });
      if (!b || b.user) continue;
      // "on the way to B from A" names the start too; otherwise the asker starts from where they are.
      const back = /^\s*,?\s*from\s+/.exec(this.f.slice(b.end));
      const a = back ? this.extractRef(b.end + back[0].length, { strength: 'strong' }) : undefined;
      const from: RefMention = a ?? { text: 'my location', start: m.index, end: m.index, kind: 'coordinates', user: 'explicit' };
      const end = a?.end ?? b.end;
      this.out.route = { from, to: b, via: 'straight', spans: [{ start: m.index, end }] };
      this.claim({ start: m.index, end });
      this.out.relations.push({ fn: 'along_route', spans: [] });
      return;
    }
  }

  /** "between A and B": the corridor between two places. */
  private between(): void {
    for (const m of this.matchAllAt(/(?<![\p{L}\p{N}])between\s+/gu)) {
      const a = this.extractRef(m.index + m[0].length, { strength: 'strong', stopAnd: true });
      if (!a) continue;
      const link = /^\s*(?:and|&)\s+/.exec(this.f.slice(a.end));
      if (!link) continue;
      const b = this.extractRef(a.end + link[0].length, { strength: 'strong', stopAnd: true });
      if (!b) continue;
      this.addRelation({ fn: 'between', refs: [a, b], spans: [{ start: m.index, end: b.end }] });
    }
  }

  /** "at the corner of A and B": near both streets. */
  private corners(): void {
    for (const m of this.matchAllAt(/(?<![\p{L}\p{N}])(?:(?:at|on)\s+)?(?:the\s+)?(?:corner|intersection|junction|crossroads?)\s+of\s+/gu)) {
      const a = this.extractRef(m.index + m[0].length, { strength: 'strong', stopAnd: true });
      if (!a) continue;
      const link = /^\s*(?:and|&|\/)\s+/.exec(this.f.slice(a.end));
      if (!link) continue;
      const b = this.extractRef(a.end + link[0].length, { strength: 'strong', stopAnd: true });
      if (!b) continue;
      a.kind ??= 'street';
      b.kind ??= 'street';
      const span = { start: m.index, end: b.end };
      this.addRelation({ fn: 'along', ref: a, spans: [span] });
      this.addRelation({ fn: 'along', ref: b, spans: [span] });
      this.out.notes.push(`corner of ${a.text} and ${b.text} -> along both streets`);
    }
  }

  /**
   * "north of X", "to the north-east of X", "on the west side of X", "300 m south of X": a compass sector of X.
   * Not "in the north of X" (a part of X) nor a district's name ("the Upper East Side of Manhattan").
   */
  private directions(): void {
    const re = new RegExp(
      `(?<![\\p{L}\\p{N}])(?<!(?<![\\p{L}\\p{N}])in\\s+(?:the\\s+)?)(?<!(?:upper|lower|far)\\s+)(?:(?:just|directly|due|immediately|right)\\s+)?(?:(?:on|to|at)\\s+)?(?:the\\s+)?(?<b>${EN_BEARING})(?:\\s+side)?\\s+of\\s+`,
      'gu',
    );
    for (const m of this.matchAllAt(re)) {
      const ref = this.extractRef(m.index + m[0].length, { strength: 'strong' });
      if (!ref || ref.user) continue;
      const bearing = enBearing(m.groups?.['b'] ?? '');
      // A distance said right before the direction: "300 m north of X", "within 2 blocks east of X".
      const d = this.dists.find((x) => !x.lowerBound && !this.isClaimed(x.start) && x.end <= m.index && /^\s*(?:away\s+)?$/.test(this.f.slice(x.end, m.index)));
      const said = d ? { bearing, distanceM: d.valueM } : { bearing };
      this.addRelation({ fn: 'direction', ref, said, ...(d?.note ? { distanceNote: d.note } : {}), spans: [{ start: d?.start ?? m.index, end: ref.end }] });
    }
  }

  /** "within 300 m of X", "a 6-minute walk from X", "3 blocks from X"; other distances are kept loose. */
  private distances(): void {
    for (const d of this.dists) {
      if (this.isClaimed(d.start)) continue;
      const link = /^\s*(?:radius\s+)?(?:away\s+)?(?:from|of|around|to|near|off)\s+/.exec(this.f.slice(d.end));
      if (d.lowerBound) {
        this.out.notes.push(`"${this.s.slice(d.start, d.end)}": a minimum distance is not supported, ignored`);
        const end = link ? d.end + link[0].length : d.end;
        const ref = link ? this.extractRef(end, { strength: 'strong' }) : undefined;
        this.claim({ start: d.start, end: ref?.end ?? end });
        continue;
      }
      if (link) {
        const after = d.end + link[0].length;
        if (ROUTE_WORD_RE.test(this.f.slice(after))) {
          const r = ROUTE_WORD_RE.exec(this.f.slice(after))!;
          this.addRelation({ fn: 'along_route', bufferM: d.valueM, spans: [{ start: d.start, end: after + r[0].length }] });
          continue;
        }
        const ref = this.extractRef(after, { strength: 'strong' });
        if (ref) {
          this.addRelation({ fn: 'within_distance', ref, distanceM: d.valueM, ...(d.note ? { distanceNote: d.note } : {}), spans: [{ start: d.start, end: ref.end }] });
          continue;
        }
      }
      this.out.looseDistances.push(d);
      this.claim(d);
    }
  }

  /** "near me", "around here", "in my area", "nearby" (no object): the asker's position. */
  private userPhrases(): void {
    const re = /(?<![\p{L}\p{N}])(?:(?:near|around|close\s+to|by|next\s+to|nearby)\s+(?<who>me|us|here|my\s+(?:current\s+)?(?:location|position))|around\s+(?<who2>here)|close\s+by\s+(?<who3>me)|in\s+(?:my|this|the)\s+(?:area|neighbou?rhood|vicinity)(?!\s+of\b)|locally|where\s+(?:i|we)\s+(?:am|are))(?![\p{L}\p{N}])/gu;
    for (const m of this.matchAllAt(re)) {
      const span = { start: m.index, end: m.index + m[0].length };
      const who = m.groups?.['who'] ?? m.groups?.['who2'] ?? m.groups?.['who3'];
      const text = who ? this.s.slice(span.end - who.length, span.end) : this.s.slice(span.start, span.end);
      const ref: RefMention = { text, start: span.start, end: span.end, kind: 'coordinates', user: 'explicit' };
      this.addRelation({ fn: 'within_distance', ref, vague: 'near', spans: [span] });
    }
  }

  /** "the nearest X to Y", "the three closest X", "which X is nearest Y". */
  private nearest(): void {
    const re = new RegExp(
      `(?<![\\p{L}\\p{N}])(?:(?:the\\s+)?(?:top\\s+)?(?<k1>${K_WORD})\\s+)?(?<m>nearest|closest|most\\s+nearby|nearest\\s+by)(?![\\p{L}\\p{N}])(?:\\s+(?<k2>${K_WORD})(?![\\p{L}\\p{N}]))?`,
      'gu',
    );
    for (const m of this.matchAllAt(re)) {
      this.out.nearestWord = true;
      const g = m.groups ?? {};
      const kText = g['k2'] ?? g['k1'];
      const k = kText ? parseEnNumber(kText) : undefined;
      const markerSpan = { start: m.index, end: m.index + m[0].length };
      // The anchor follows in the same clause: "nearest bakery to the Woolworth Building".
      const clause = this.f.slice(markerSpan.end).split(/[.?!;]/)[0] ?? '';
      const to = /(?<![\p{L}\p{N}])(?:to|from)\s+/u.exec(clause);
      let ref: RefMention | undefined;
      const spans: Span[] = [markerSpan];
      if (to && to.index < 80) {
        const at = markerSpan.end + to.index;
        ref = this.extractRef(at + to[0].length, { strength: 'weak' });
        if (ref) spans.push({ start: at, end: ref.end });
      }
      this.addRelation({ fn: 'nearest', ...(ref ? { ref } : {}), ...(k !== undefined && k >= 1 ? { k: Math.round(k) } : {}), spans });
    }
  }

  /** "near X", "close to X", "next to X", "within walking distance of X", "around X". */
  private proximity(): void {
    const table: Array<[RegExp, Vague, Strength]> = [
      [/(?:right\s+|just\s+|directly\s+)?(?:next\s+to|beside|besides|adjacent\s+to|opposite(?:\s+to)?|across\s+(?:the\s+street\s+)?from|steps\s+(?:away\s+)?from|a\s+stone'?s\s+throw\s+(?:away\s+)?from|right\s+by|just\s+by|just\s+off|in\s+front\s+of|attached\s+to|right\s+outside|just\s+outside)\s+/gu, 'adjacent', 'strong'],
      [/(?:(?:with)?in\s+)?(?:(?:easy|short)\s+)?walking\s+distance\s+(?:of|from|to)\s+|walkable\s+from\s+|a\s+short\s+walk\s+(?:from|to)\s+/gu, 'walking', 'strong'],
      [/(?:by)\s+/gu, 'near', 'weak'],
      [/(?:very\s+|really\s+|pretty\s+|quite\s+)?(?:near(?:\s+to)?|nearby|near\s+by|close\s+to|closeby|close\s+by|in\s+the\s+(?:vicinity|neighbou?rhood|area|surroundings)\s+of|not\s+(?:too\s+)?far\s+from|in\s+proximity\s+to|proximate\s+to|within\s+reach\s+of|surrounding|around)\s+/gu, 'near', 'strong'],
    ];
    for (const [re, vague, strength] of table) {
      const full = new RegExp(`(?<![\\p{L}\\p{N}])${re.source}`, 'gu');
      for (const m of this.matchAllAt(full)) {
        const word = m[0].trim();
        const isAround = /^(?:around|surrounding)$/.test(word);
        const ref = this.extractRef(m.index + m[0].length, { strength: isAround ? 'weak' : strength });
        if (ref && vague === 'near' && strength === 'weak' && this.attachContext(m.index, ref)) continue;
        if (!ref) {
          if (/^(?:nearby|near\s+by|close\s+by|closeby)$/.test(word)) this.softUser(m.index, m.index + m[0].length);
          continue;
        }
        this.addRelation({ fn: 'within_distance', ref, vague, spans: [{ start: m.index, end: ref.end }] });
      }
    }
    // A bare "nearby" / "close by" at the end of a clause: around the asker.
    for (const m of this.matchAllAt(/(?<![\p{L}\p{N}])(?:nearby|near\s+by|close\s+by|closeby|around)(?=\s*(?:[.?!,;]|$))/gu)) {
      this.softUser(m.index, m.index + m[0].length);
    }
  }

  private softUser(start: number, end: number): void {
    const span = { start, end };
    const ref: RefMention = { text: this.s.slice(start, end), start, end, kind: 'coordinates', user: 'soft' };
    this.addRelation({ fn: 'within_distance', ref, vague: 'near', spans: [span] });
  }

  /** "on the way", "along my route", "en route" (the route itself comes from "from A to B"). */
  private alongRoute(): void {
    const re = /(?<![\p{L}\p{N}])(?:(?:on|along|during)\s+(?:the|my|our|your)\s+(?:way|route|walk|journey|commute|trip|drive|ride|path)(?:\s+there)?|en\s+route|along\s+the\s+way)(?![\p{L}\p{N}])/gu;
    for (const m of this.f.matchAll(re)) {
      // Not skipped when claimed: the route phrase may have absorbed it ("on the way from A to B").
      const span = { start: m.index, end: m.index + m[0].length };
      this.out.relations.push({ fn: 'along_route', spans: [span] });
      this.claim(span);
    }
  }

  /** "along X", "lining X", "up/down X street". */
  private along(): void {
    for (const m of this.matchAllAt(/(?<![\p{L}\p{N}])(?<w>all\s+along|along(?:side)?(?:\s+of)?|lining|down|up)\s+/gu)) {
      const w = m.groups?.['w'] ?? '';
      const after = m.index + m[0].length;
      if (ROUTE_WORD_RE.test(this.f.slice(after))) continue;
      const streetOnly = w === 'down' || w === 'up';
      const ref = this.extractRef(after, { strength: streetOnly ? 'weak' : 'strong', streetOnly });
      if (!ref || ref.user) continue;
      this.addRelation({ fn: 'along', ref, spans: [{ start: m.index, end: ref.end }] });
    }
  }

  /** "that cross X", "intersecting X", "passing through X". */
  private intersects(): void {
    const re = /(?<![\p{L}\p{N}])(?:that\s+|which\s+)?(?:cross(?:es|ing)?|intersect(?:s|ing)?(?:\s+with)?|pass(?:es|ing)?\s+through|run(?:s|ning)?\s+through|go(?:es|ing)?\s+through|travers(?:e|es|ing)|touch(?:es|ing)?)\s+/gu;
    for (const m of this.matchAllAt(re)) {
      const ref = this.extractRef(m.index + m[0].length, { strength: 'weak' });
      if (!ref || ref.user) continue;
      this.addRelation({ fn: 'intersects', ref, spans: [{ start: m.index, end: ref.end }] });
    }
  }

  /** "in X", "inside X", "within X" (no number), "located in X", "in the heart of X". */
  private inside(): void {
    const re = /(?<![\p{L}\p{N}])(?:(?:located|situated|based|found)\s+(?:in|within|inside)|in\s+the\s+(?:heart|middle|cent(?:er|re))\s+of|in\s+the\s+(?:district|borough|neighbou?rhood|town|city|village)\s+of|inside(?:\s+of)?|within|throughout|all\s+over|in)\s+/gu;
    for (const m of this.matchAllAt(re)) {
      const ref = this.extractRef(m.index + m[0].length, { strength: 'weak' });
      if (!ref || ref.user) continue;
      const span = { start: m.index, end: ref.end };
      // "the Louvre in Paris": a containing place that disambiguates the anchor, not a second constraint.
      if (/^in\s/.test(m[0]) && this.attachContext(m.index, ref)) continue;
      this.addRelation({ fn: 'inside', ref, spans: [span] });
    }
  }

  /** Makes `ref` the context of a reference ending right before `markerStart` ("X in Paris", "X at Hudson Yards"). */
  private attachContext(markerStart: number, ref: RefMention): boolean {
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
  private refEndingAt(pos: number): RefMention | undefined {
    for (const r of this.out.relations) {
      const refs = r.fn === 'between' ? r.refs : r.fn === 'along_route' ? [] : r.ref ? [r.ref] : [];
      for (const ref of refs) if (!ref.user && !ref.point && ref.end <= pos && /^[\s,]*$/.test(this.s.slice(ref.end, pos))) return ref;
    }
    const route = this.out.route;
    for (const ref of route ? [route.from, route.to] : []) if (!ref.user && ref.end <= pos && /^[\s,]*$/.test(this.s.slice(ref.end, pos))) return ref;
    return undefined;
  }

  /** "Trastevere, Rome": a capitalised place after a comma at the end of a clause qualifies the anchor. */
  private trailingContext(): void {
    if (!this.caseInformative) return;
    const refs = this.out.relations.flatMap((r) => (r.fn === 'between' ? r.refs : r.fn === 'along_route' ? [] : r.ref ? [r.ref] : []));
    if (this.out.route) refs.push(this.out.route.from, this.out.route.to);
    for (const ref of refs) {
      if (ref.user || ref.point) continue;
      const after = ref.context ? (ref.contextEnd ?? ref.end) : ref.end;
      const comma = /^\s*,\s*/.exec(this.s.slice(after));
      if (!comma) continue;
      const i = this.tokAt(after + comma[0].length);
      if (!this.isUpperTok(this.toks[i])) continue;
      const range = this.scanCapitalised(i, { strength: 'weak', stopAnd: true });
      if (!range || range[1] - range[0] > 2) continue;
      const end = this.toks[range[1]]!.end;
      if (!/^\s*(?:[.?!;]|$)/.test(this.s.slice(end))) continue;
      const start = this.toks[range[0]]!.start;
      ref.context = ref.context ? `${ref.context}, ${this.s.slice(start, end)}` : this.s.slice(start, end);
      ref.contextEnd = end;
      this.out.unused.push({ start: after, end });
      this.claim({ start: after, end });
    }
  }

  /** "on Amsterdam Avenue": along, but only for streets ("on the way", "on Sunday" are not places). */
  private onStreet(): void {
    for (const m of this.matchAllAt(/(?<![\p{L}\p{N}])on\s+/gu)) {
      const ref = this.extractRef(m.index + m[0].length, { strength: 'weak', streetOnly: true });
      if (!ref) continue;
      this.addRelation({ fn: 'along', ref, spans: [{ start: m.index, end: ref.end }] });
    }
  }

  /** "at X": a few steps from it; "at A and B" (two streets): the corner. */
  private at(): void {
    for (const m of this.matchAllAt(/(?<![\p{L}\p{N}])at\s+/gu)) {
      const a = this.extractRef(m.index + m[0].length, { strength: 'weak', stopAnd: true });
      if (!a || a.user) continue;
      if (this.attachContext(m.index, a)) continue;
      const link = /^\s*(?:and|&|\/)\s+/.exec(this.f.slice(a.end));
      if (link && classifyKindEn(a.text) === 'street') {
        const b = this.extractRef(a.end + link[0].length, { strength: 'weak', stopAnd: true, streetOnly: true });
        if (b) {
          const span = { start: m.index, end: b.end };
          this.addRelation({ fn: 'along', ref: a, spans: [span] });
          this.addRelation({ fn: 'along', ref: b, spans: [span] });
          this.out.notes.push(`${a.text} and ${b.text} -> along both streets (their corner)`);
          continue;
        }
      }
      // "I'm at X" says where the asker stands (search around it); "cafés at X" means in or right at X.
      const asker = /(?:i'?m|i\s+am|we'?re|we\s+are|i'?ll\s+be|we'?ll\s+be|staying|standing|waiting)\s+(?:currently\s+|right\s+now\s+|now\s+)?$/.test(this.f.slice(Math.max(0, m.index - 30), m.index));
      this.addRelation({ fn: 'within_distance', ref: a, vague: asker ? 'near' : 'at', spans: [{ start: m.index, end: a.end }] });
    }
  }

  /**
   * No spatial word at all, but a capitalised place name ("Lincoln Center cafés", "Chinatown karaoke"):
   * inside it when it reads as an area, else near it. Weak evidence, so the plan says so.
   */
  private bareName(): void {
    if (this.out.relations.length > 0 || this.out.route || !this.caseInformative) return;
    for (let i = 0; i < this.toks.length; i++) {
      const t = this.toks[i]!;
      if (!this.isUpperTok(t) || this.isClaimed(t.start)) continue;
      const range = this.scanCapitalised(i, { strength: 'weak' });
      if (!range) continue;
      const text = this.s.slice(t.start, this.toks[range[1]]!.end);
      const kind = safeHint(this.hint, text) ?? classifyKindEn(text);
      i = range[1];
      if (!kind || isTargetPhrase(text)) continue;
      const ref: RefMention = { text, start: t.start, end: this.toks[range[1]]!.end, kind };
      this.out.implicit = true;
      this.out.notes.push(`no spatial word: "${text}" read as ${kind === 'area' || kind === 'city' ? 'inside' : 'near'}`);
      if (kind === 'area' || kind === 'city') this.addRelation({ fn: 'inside', ref, spans: [ref] });
      else this.addRelation({ fn: 'within_distance', ref, vague: 'near', spans: [ref] });
      return;
    }
  }

  /** Coordinates no construction used ("cafés, 40.7527, -73.9772"): around them. */
  private looseCoordinates(): void {
    for (const c of findCoordinates(this.s)) {
      if (overlapsAny(c, this.claimed)) continue;
      const ref: RefMention = { text: this.s.slice(c.start, c.end).trim(), start: c.start, end: c.end, kind: 'coordinates', point: c.point };
      this.addRelation({ fn: 'within_distance', ref, vague: 'near', spans: [c] });
    }
  }
}

export function parseEnglish(s: string, hint?: GazetteerHint): SpatialParse {
  return new EnglishGrammar(s, hint).parse();
}
