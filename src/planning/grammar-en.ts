/**
 * English spatial grammar: finds spatial phrases (distance + reference, near, in, along, from-to, between,
 * nearest, crossing, at a corner, directions) and the reference phrases they govern (grammar-en-phrases.ts).
 * Phrases are found left to right per construction, most specific construction first; a span once used is not
 * reused by a weaker one.
 */
import { classifyKindEn, findCoordinates, safeHint, type GazetteerHint } from './references.ts';
import { isTargetPhrase } from './lexicon-match.ts';
import type { RefMention, Relation, SpatialParse, Vague } from './parse-types.ts';
import { markNegations, nextGroup, scopeBorders } from './relation-logic.ts';
import { EnglishBorders } from './grammar-en-borders.ts';
import type { Bearing } from './plan.ts';
import { EN_NUMBER_WORDS, overlapsAny, parseEnNumber, type Span } from './text.ts';
import { findPopulationOrderEn } from './population.ts';
import { ROUTE_WORD_RE, type Strength } from './grammar-en-phrases.ts';

const K_WORD = `(?:\\d{1,2}|${EN_NUMBER_WORDS.filter((w) => !/hundred|thousand|zero/.test(w)).join('|')}|a\\s+few|few|a\\s+couple(?:\\s+of)?|couple(?:\\s+of)?|several)`;

/** Compass bearings as said (folded: "north-east" is "north east"). */
const EN_BEARING = '(?:north|south)\\s?(?:east|west)|north|south|east|west';

function enBearing(word: string): Bearing {
  const [a, b] = word.split(/\s+|(?<=north|south)(?=east|west)/);
  return (b ? `${a}_${b}` : a) as Bearing;
}

export class EnglishGrammar extends EnglishBorders {
  parse(): SpatialParse {
    this.superlative();
    this.routes();
    this.waysTo();
    this.between();
    this.corners();
    this.directions();
    this.borders();
    this.distances();
    this.userPhrases();
    this.nearest();
    this.proximity();
    this.outside();
    this.awayFrom();
    this.alongRoute();
    this.along();
    this.intersects();
    this.inside();
    this.onStreet();
    this.at();
    this.looseCoordinates();
    this.alternatives();
    this.trailingContext();
    this.bareName();
    scopeBorders(this.out, this.unscopedBorders);
    markNegations(this.out, this.f, 'en');
    return this.out;
  }

  /** "the 5 largest", "the most populous": a population order, its words never a place's name. */
  protected superlative(): void {
    const order = findPopulationOrderEn(this.f);
    if (!order) return;
    this.out.order = order;
    this.claim(order);
  }

  /** "from A to B", "on my walk from A to B", "walking from A to B". */
  protected routes(): void {
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
  protected waysTo(): void {
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
  protected between(): void {
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
  protected corners(): void {
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
  protected directions(): void {
    const re = new RegExp(
      `(?<![\\p{L}\\p{N}])(?<!(?<![\\p{L}\\p{N}])in\\s+(?:the\\s+)?)(?<!(?:upper|lower|far)\\s+)(?:(?:just|directly|due|immediately|right)\\s+)?(?:(?:on|to|at)\\s+)?(?:the\\s+)?(?<b>${EN_BEARING})(?:\\s+side)?\\s+of\\s+`,
      'gu',
    );
    for (const m of this.matchAllAt(re)) {
      const ref = this.extractRef(m.index + m[0].length, { strength: 'strong' });
      if (!ref || ref.user) continue;
      const bearing = enBearing(m.groups?.b ?? '');
      // A distance said right before the direction: "300 m north of X", "within 2 blocks east of X".
      const d = this.dists.find((x) => !x.lowerBound && !this.isClaimed(x.start) && x.end <= m.index && /^\s*(?:away\s+)?$/.test(this.f.slice(x.end, m.index)));
      const said = d ? { bearing, distanceM: d.valueM } : { bearing };
      this.addRelation({ fn: 'direction', ref, said, ...(d?.note ? { distanceNote: d.note } : {}), spans: [{ start: d?.start ?? m.index, end: ref.end }] });
    }
  }

  /** "within 300 m of X", "a 6-minute walk from X", "3 blocks from X"; other distances are kept loose. */
  protected distances(): void {
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
  protected userPhrases(): void {
    const re = /(?<![\p{L}\p{N}])(?:(?:near|around|close\s+to|by|next\s+to|nearby)\s+(?<who>me|us|here|my\s+(?:current\s+)?(?:location|position))|around\s+(?<who2>here)|close\s+by\s+(?<who3>me)|in\s+(?:my|this|the)\s+(?:area|neighbou?rhood|vicinity)(?!\s+of\b)|locally|where\s+(?:i|we)\s+(?:am|are))(?![\p{L}\p{N}])/gu;
    for (const m of this.matchAllAt(re)) {
      const span = { start: m.index, end: m.index + m[0].length };
      const who = m.groups?.who ?? m.groups?.who2 ?? m.groups?.who3;
      const text = who ? this.s.slice(span.end - who.length, span.end) : this.s.slice(span.start, span.end);
      const ref: RefMention = { text, start: span.start, end: span.end, kind: 'coordinates', user: 'explicit' };
      this.addRelation({ fn: 'within_distance', ref, vague: 'near', spans: [span] });
    }
  }

  /** "the nearest X to Y", "the three closest X", "which X is nearest Y". */
  protected nearest(): void {
    const re = new RegExp(
      `(?<![\\p{L}\\p{N}])(?:(?:the\\s+)?(?:top\\s+)?(?<k1>${K_WORD})\\s+)?(?<m>nearest|closest|most\\s+nearby|nearest\\s+by)(?![\\p{L}\\p{N}])(?:\\s+(?<k2>${K_WORD})(?![\\p{L}\\p{N}]))?`,
      'gu',
    );
    for (const m of this.matchAllAt(re)) {
      this.out.nearestWord = true;
      const g = m.groups ?? {};
      const kText = g.k2 ?? g.k1;
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
  protected proximity(): void {
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

  /** "outside X", "outside of X": not inside it ("just outside X" is next to it, see proximity). */
  protected outside(): void {
    for (const m of this.matchAllAt(/(?<![\p{L}\p{N}])outside(?:\s+of)?\s+/gu)) {
      const ref = this.extractRef(m.index + m[0].length, { strength: 'strong' });
      if (!ref || ref.user) continue;
      this.addRelation({ fn: 'inside', ref, negated: true, spans: [{ start: m.index, end: ref.end }] });
    }
  }

  /** "away from X", "far from X": not near it. */
  protected awayFrom(): void {
    for (const m of this.matchAllAt(/(?<![\p{L}\p{N}])(?:(?:well|far)\s+)?(?:away|far)\s+from\s+/gu)) {
      const ref = this.extractRef(m.index + m[0].length, { strength: 'strong' });
      if (!ref || ref.user) continue;
      // "not far away from X" is near it: the "not" is part of the phrase.
      const not = /(?<![\p{L}\p{N}])not\s+(?:too\s+|so\s+|that\s+|very\s+)?$/u.exec(this.f.slice(Math.max(0, m.index - 20), m.index));
      if (not) this.addRelation({ fn: 'within_distance', ref, vague: 'near', spans: [{ start: m.index - not[0].length, end: ref.end }] });
      else this.addRelation({ fn: 'within_distance', ref, vague: 'near', negated: true, spans: [{ start: m.index, end: ref.end }] });
    }
  }

  /**
   * "near X or Y", "in X or in Y", "within 300 m of X, or Y": the same relation to either place. A phrase
   * already found after the "or" joins the group; otherwise the place after it is read with the relation.
   */
  protected alternatives(): void {
    const link = /^\s*,?\s*(?:or|or\s+else|and\/or)\s+/u;
    const relations = [...this.out.relations];
    for (const r of relations) {
      if (!('ref' in r) || !r.ref || r.ref.user || r.fn === 'nearest') continue;
      const or = link.exec(this.f.slice(r.ref.end));
      if (!or) continue;
      const after = r.ref.end + or[0].length;
      const group = r.group ?? nextGroup(this.out);
      const next = this.out.relations.find((x) => x !== r && x.fn === r.fn && x.spans.some((s) => s.start === after));
      if (next) {
        r.group = group;
        next.group = group;
        continue;
      }
      const ref = this.extractRef(after, { strength: 'strong', ...(r.fn === 'along' ? { streetOnly: true } : {}) });
      if (!ref || ref.user) continue;
      r.group = group;
      this.addRelation({ ...r, ref, group, spans: [{ start: r.ref.end, end: ref.end }] } as Relation);
    }
  }

  protected softUser(start: number, end: number): void {
    const span = { start, end };
    const ref: RefMention = { text: this.s.slice(start, end), start, end, kind: 'coordinates', user: 'soft' };
    this.addRelation({ fn: 'within_distance', ref, vague: 'near', spans: [span] });
  }

  /** "on the way", "along my route", "en route" (the route itself comes from "from A to B"). */
  protected alongRoute(): void {
    const re = /(?<![\p{L}\p{N}])(?:(?:on|along|during)\s+(?:the|my|our|your)\s+(?:way|route|walk|journey|commute|trip|drive|ride|path)(?:\s+there)?|en\s+route|along\s+the\s+way)(?![\p{L}\p{N}])/gu;
    for (const m of this.f.matchAll(re)) {
      // Not skipped when claimed: the route phrase may have absorbed it ("on the way from A to B").
      const span = { start: m.index, end: m.index + m[0].length };
      this.out.relations.push({ fn: 'along_route', spans: [span] });
      this.claim(span);
    }
  }

  /** "along X", "lining X", "up/down X street". */
  protected along(): void {
    for (const m of this.matchAllAt(/(?<![\p{L}\p{N}])(?<w>all\s+along|along(?:side)?(?:\s+of)?|lining|down|up)\s+/gu)) {
      const w = m.groups?.w ?? '';
      const after = m.index + m[0].length;
      if (ROUTE_WORD_RE.test(this.f.slice(after))) continue;
      const streetOnly = w === 'down' || w === 'up';
      const ref = this.extractRef(after, { strength: streetOnly ? 'weak' : 'strong', streetOnly });
      if (!ref || ref.user) continue;
      this.addRelation({ fn: 'along', ref, spans: [{ start: m.index, end: ref.end }] });
    }
  }

  /** "that cross X", "intersecting X", "passing through X". */
  protected intersects(): void {
    const re = /(?<![\p{L}\p{N}])(?:that\s+|which\s+)?(?:cross(?:es|ing)?|intersect(?:s|ing)?(?:\s+with)?|pass(?:es|ing)?\s+through|run(?:s|ning)?\s+through|go(?:es|ing)?\s+through|travers(?:e|es|ing)|touch(?:es|ing)?)\s+/gu;
    for (const m of this.matchAllAt(re)) {
      const ref = this.extractRef(m.index + m[0].length, { strength: 'weak' });
      if (!ref || ref.user) continue;
      this.addRelation({ fn: 'intersects', ref, spans: [{ start: m.index, end: ref.end }] });
    }
  }

  /** "in X", "inside X", "within X" (no number), "located in X", "in the heart of X". */
  protected inside(): void {
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

  /** "Trastevere, Rome": a capitalised place after a comma at the end of a clause qualifies the anchor. */
  protected trailingContext(): void {
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
  protected onStreet(): void {
    for (const m of this.matchAllAt(/(?<![\p{L}\p{N}])on\s+/gu)) {
      const ref = this.extractRef(m.index + m[0].length, { strength: 'weak', streetOnly: true });
      if (!ref) continue;
      this.addRelation({ fn: 'along', ref, spans: [{ start: m.index, end: ref.end }] });
    }
  }

  /** "at X": a few steps from it; "at A and B" (two streets): the corner. */
  protected at(): void {
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
  protected bareName(): void {
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
  protected looseCoordinates(): void {
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
