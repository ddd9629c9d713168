/**
 * Chinese spatial grammar. Chinese has no spaces or capitals, so a place phrase is delimited by the words around
 * it: an opening preposition (离/距离/在/从/沿着...) or the start of the clause, and a closing spatial word
 * (附近/周边/最近/N米以内/之间/沿线/里...). Leading request words (请问, 我想找...) are then stripped.
 */
import { findCoordinates, type GazetteerHint } from './references.ts';
import type { RefMention, Relation, SpatialParse, Vague } from './parse-types.ts';
import { markNegations, nextGroup, scopeBorders, type UnscopedBorder } from './relation-logic.ts';
import { findPopulationOrderZh } from './population.ts';
import type { Bearing } from './plan.ts';
import { insideAny, overlapsAny, parseZhNumber, ZH_NUM_RE } from './text.ts';
import { anchorPrefix, ChinesePhrases, CLAUSE_START, kindFollows, N, namesSomething, PUNCT, type Cleaned } from './grammar-zh-phrases.ts';


const ADJACENT_WORDS = /^(?:旁边|边上|隔壁|对面|门口|跟前)$/;
/** A side of a place ("X以北", "X东北边", "X的南侧"): a compass sector of it. A bare 北 is part of names (北京). */
const ZH_BEARING = '东北|西北|东南|西南|[东西南北]';
const ZH_DIRECTION = `(?:以|往|向)(?:${ZH_BEARING})(?:边|面|侧|部|方向|方)?走?|的?(?:${ZH_BEARING})(?:边|面|侧|方向|方)`;
const ZH_BEARINGS: Record<string, Bearing> = {
  北: 'north', 东北: 'north_east', 东: 'east', 东南: 'south_east', 南: 'south', 西南: 'south_west', 西: 'west', 西北: 'north_west',
};

/** The bearing of a direction word ("以北" -> north, "东南侧" -> south_east). */
function zhBearing(word: string): Bearing {
  return ZH_BEARINGS[new RegExp(ZH_BEARING).exec(word)![0]]!;
}


export class ChineseGrammar extends ChinesePhrases {

  parse(): SpatialParse {
    this.routes();
    this.between();
    this.nearest();
    this.borders();
    this.distances();
    this.outside();
    this.near();
    this.along();
    this.superlative();
    this.inside();
    this.implicitSubject();
    this.looseCoordinates();
    this.alternatives();
    scopeBorders(this.out, this.unscopedBorders);
    markNegations(this.out, this.s, 'zh');
    return this.out;
  }


  /** 从A到B(的路上) / 从A走到B */
  private routes(): void {
    const re = new RegExp(
      `从\\s*(${N}{1,60}?)\\s*(?:出发)?\\s*(?:一路)?\\s*(?:步行|走路|开车|骑车|坐车|打车|走)?\\s*(?:到|至|去|往|前往)\\s*(${N}{1,60}?)(?=\\s*(?:的路上|路上|沿途|途中|的途中|一路上|沿路|的路线|路线|之间|的|有|要|想|会|时|[${PUNCT}]|$))`,
      'gu',
    );
    for (const m of this.scan(re)) {
      const aRaw = m[1]!;
      const aStart = m.index + m[0].indexOf(aRaw, 1);
      const a = this.named(aRaw, aStart, true);
      const bRaw = m[2]!;
      const bStart = m.index + m[0].length - bRaw.length;
      const b = this.named(bRaw, bStart, true);
      if (!a || !b) continue;
      let end = m.index + m[0].length;
      const tail = /^\s*(?:的路上|路上|沿途|途中|的途中|一路上|沿路|的路线|路线)/.exec(this.s.slice(end));
      if (tail) end += tail[0].length;
      const span = { start: m.index, end };
      this.out.route = { from: a, to: b, via: 'straight', spans: [span] };
      this.claim(span);
      this.out.relations.push({ fn: 'along_route', spans: [] });
      return;
    }
  }

  /** A和B之间 */
  private between(): void {
    const re = new RegExp(`${CLAUSE_START}(${N}{1,60}?)\\s*(?:和|与|跟|同|及|到)\\s*(${N}{1,60}?)\\s*(?:之间|中间)`, 'gu');
    for (const m of this.scan(re, (mm) => mm.index + mm[0].length - 1)) {
      const aRaw = m[1]!;
      const a = this.named(aRaw, m.index);
      const bRaw = m[2]!;
      const bStart = m.index + m[0].lastIndexOf(bRaw);
      const b = this.named(bRaw, bStart);
      if (!a || !b) continue;
      this.add({ fn: 'between', refs: [a, b], spans: [{ start: a.start, end: m.index + m[0].length }] });
    }
  }

  private kAfter(pos: number): { k?: number; end: number } {
    const m = new RegExp(`^\\s*(${ZH_NUM_RE})\\s*(?:家|个|间|座|处|所|条|位|只|栋|站|台|个地方)`, 'u').exec(this.s.slice(pos));
    if (m) {
      const k = parseZhNumber(m[1]!);
      if (k !== undefined && k >= 1) return { k: Math.round(k), end: pos + m[0].length };
    }
    if (/^[^,.?!;。]*(?:哪几|哪些|几家|几个)/.test(this.s.slice(pos))) return { k: 3, end: pos };
    return { end: pos };
  }

  /** 离X最近的(两家)Y / X最近的Y / 最近的Y */
  private nearest(): void {
    const anchored = new RegExp(`(?:离|距离|距|靠|到)\\s*(${N}{1,60}?)\\s*(?:最近|最靠近|最接近)(?:的)?`, 'gu');
    for (const m of this.scan(anchored)) {
      const raw = m[1]!;
      const c = this.clean(raw, m.index + m[0].indexOf(raw), true);
      const end = m.index + m[0].length;
      const { k, end: kEnd } = this.kAfter(end);
      this.out.nearestWord = true;
      const ref = c ? this.ref(c) : undefined;
      this.add({ fn: 'nearest', ...(ref ? { ref } : {}), ...(k ? { k } : {}), spans: [{ start: m.index, end: kEnd }] });
    }
    const bare = new RegExp(`${CLAUSE_START}(${N}{0,60}?)\\s*(?:最近|最靠近)的`, 'gu');
    for (const m of this.scan(bare, (mm) => mm.index + mm[0].length - 1)) {
      const raw = m[1]!;
      const c = raw ? this.clean(raw, m.index) : undefined;
      const end = m.index + m[0].length;
      const { k, end: kEnd } = this.kAfter(end);
      this.out.nearestWord = true;
      const ref = c ? this.ref(c) : undefined;
      const start = ref ? ref.start : end - 3;
      this.add({ fn: 'nearest', ...(ref ? { ref } : {}), ...(k ? { k } : {}), spans: [{ start: Math.max(start, m.index), end: kEnd }] });
    }
  }

  /**
   * X边境附近 / 靠近X边界50公里内 / 距X国界30公里以内 / X境内距边境50公里以内: the outline of an area, read as such before
   * any construction could take the noun for part of a place's name. "X境内" before it is also a scope (inside X);
   * with no place before it, the border is that of the place another phrase names.
   */
  private borders(): void {
    const re = new RegExp(`${CLAUSE_START}(${N}{0,60}?)\\s*的?\\s*(?:边境线|边境|边界线|边界|国界线|国界|国境线)`, 'gu');
    for (const m of this.scan(re, (mm) => mm.index + mm[0].length - 1)) {
      const raw = m[1]!;
      const nounEnd = m.index + m[0].length;
      const d = this.dists.find((x) => !x.lowerBound && x.start >= nounEnd && /^\s*(?:的)?(?:附近|周边|周围)?\s*$/u.test(this.s.slice(nounEnd, x.start)));
      const near = /^\s*(?:附近|周边|周围|一带|沿线|地区|沿岸)/u.exec(this.s.slice(nounEnd));
      const end = d?.end ?? nounEnd + (near?.[0].length ?? 0);
      const said = d ? { distanceM: d.valueM } : {};
      const note = d?.note ? { distanceNote: d.note } : {};
      // "X境内距边境", "在X距离Y边界": X is a scope (inside it), said before the border's own place, if any.
      const scope = /^(.+?)(?:境内|国内|之内|内)\s*(?:距离|距|离|靠近)?\s*$/u.exec(raw) ?? /^(?:在|位于)(.+?)(?=距离|距|离|靠近)/u.exec(raw);
      const inScope = scope ? this.named(scope[1]!, m.index + scope[0].indexOf(scope[1]!), true) : undefined;
      const own = scope ? raw.slice(scope[0].length) : raw;
      const ownRef = own.trim() ? this.named(own, m.index + raw.length - own.length, true) : undefined;
      const ref = ownRef && !ownRef.user ? ownRef : inScope;
      const start = ownRef ? anchorPrefix(this.s, ownRef.start) : m.index + raw.length;
      // The border first: answers then say how far from it each place is.
      if (ref) this.add({ fn: 'border', ref: { ...ref }, said, ...note, spans: [{ start, end }] });
      if (inScope) this.add({ fn: 'inside', ref: inScope, spans: [{ start: anchorPrefix(this.s, inScope.start), end: m.index + scope![0].length }] });
      else {
        this.unscopedBorders.push({ said, ...note, spans: [{ start, end }] });
        this.claim({ start: m.index, end });
      }
    }
  }

  private readonly unscopedBorders: UnscopedBorder[] = [];


  /** X 800米以内 / 离X步行5分钟 / X周边1公里 */
  private distances(): void {
    for (const d of this.dists) {
      if (insideAny(d.start, this.claimed)) continue;
      if (d.lowerBound) {
        this.out.notes.push(`"${this.s.slice(d.start, d.end)}": a minimum distance is not supported, ignored`);
        this.claim(d);
        continue;
      }
      let clauseStart = 0;
      for (let i = d.start - 1; i >= 0; i--) {
        if (PUNCT.includes(this.s[i]!) || insideAny(i, this.claimed)) {
          clauseStart = i + 1;
          break;
        }
      }
      let raw = this.s.slice(clauseStart, d.start).replace(/(?:的)?(?:周边|周围|附近|方圆|范围)?\s*$/u, '');
      // "X以北300米内": the distance of a direction from X.
      const side = new RegExp(`(?:${ZH_DIRECTION})\\s*$`, 'u').exec(raw);
      if (side) raw = raw.slice(0, side.index);
      const c = raw ? this.clean(raw, clauseStart) : undefined;
      const note = d.note ? { distanceNote: d.note } : {};
      if (c && side) {
        const ref = this.ref(c);
        this.add({ fn: 'direction', ref, said: { bearing: zhBearing(side[0]), distanceM: d.valueM }, ...note, spans: [{ start: anchorPrefix(this.s, c.start), end: d.end }] });
        continue;
      }
      if (c) {
        const ref = this.ref(c);
        this.add({ fn: 'within_distance', ref, distanceM: d.valueM, ...note, spans: [{ start: anchorPrefix(this.s, c.start), end: d.end }] });
        continue;
      }
      this.out.looseDistances.push(d);
      this.claim(d);
    }
  }

  /** X附近 / X周边 / X旁边 / 附近(= the asker) */
  private near(): void {
    const re = new RegExp(`${CLAUSE_START}(${N}{0,60}?)\\s*(附近|周边|周围|一带|周遭|旁边|边上|隔壁|对面|不远处|不远|左近|跟前|门口|旁(?!边)|${ZH_DIRECTION})`, 'gu');
    for (const m of this.scan(re, (mm) => mm.index + mm[0].length - 1)) {
      const raw = m[1]!;
      const word = m[2]!;
      const wordStart = m.index + m[0].length - word.length;
      const vague: Vague = ADJACENT_WORDS.test(word) || word === '旁' ? 'adjacent' : 'near';
      const side = new RegExp(`^(?:${ZH_DIRECTION})$`, 'u').test(word);
      const c = this.clean(raw, m.index) ?? (raw.trim() ? undefined : ({ kind: 'user', start: wordStart, end: wordStart } as Cleaned));
      if (!c) continue;
      // A bare 附近 (no place before it in the clause) is the asker only if the question names no place:
      // "我在X，附近有什么" means near X.
      const bare = c.kind === 'user' && !raw.trim();
      const ref = c.kind === 'user' ? { ...this.ref(c), text: this.s.slice(c.start, wordStart + word.length).trim() || word, ...(bare ? { user: 'soft' as const } : {}) } : this.ref(c);
      const spans = [{ start: Math.min(anchorPrefix(this.s, c.start), wordStart), end: wordStart + word.length }];
      if (side) this.add({ fn: 'direction', ref, said: { bearing: zhBearing(word) }, spans });
      // "X一带" of an area is the area itself ("the X area"), as "in the X area" is; of a building, around it.
      else if (word === '一带' && ref.kind === 'area') this.add({ fn: 'inside', ref, spans });
      else this.add({ fn: 'within_distance', ref, vague, spans });
    }
    for (const m of this.scan(new RegExp(`(?:靠近|临近|挨着|紧邻|紧挨)\\s*(${N}{1,60}?)(?=\\s*(?:的|有|[${PUNCT}]|$))`, 'gu'))) {
      const raw = m[1]!;
      const ref = this.named(raw, m.index + m[0].length - raw.length, true);
      if (!ref) continue;
      const vague: Vague = /挨|紧邻/.test(m[0]) ? 'adjacent' : 'near';
      this.add({ fn: 'within_distance', ref, vague, spans: [{ start: m.index, end: m.index + m[0].length }] });
    }
  }

  /** 沿着X / X沿线 / X两旁 / X路上的 */
  private along(): void {
    const patterns: Array<[RegExp, boolean]> = [
      [new RegExp(`沿(?![线街路途岸])着?\\s*(${N}{1,60}?)(?=\\s*(?:的|有|两旁|两侧|一路|一带|走|[${PUNCT}]|$))`, 'gu'), true],
      [new RegExp(`${CLAUSE_START}(${N}{1,60}?)\\s*(?:沿线|沿街|沿路|沿岸|两旁|两侧|一侧|沿途)`, 'gu'), false],
      [new RegExp(`${CLAUSE_START}(${N}{1,60}?(?:路|街|大道|大街|巷|胡同|弄))\\s*上(?=\\s*(?:的|有|[${PUNCT}]|$))`, 'gu'), false],
    ];
    for (const [re, anchored] of patterns) {
      for (const m of this.scan(re, (mm) => (anchored ? mm.index : mm.index + mm[0].length - 1))) {
        const raw = m[1]!;
        const rawStart = m.index + m[0].indexOf(raw);
        const ref = this.named(raw, rawStart, anchored);
        if (!ref) continue;
        this.add({ fn: 'along', ref, spans: [{ start: m.index, end: m.index + m[0].length }] });
      }
    }
  }

  /**
   * 人口最多的N个城市 / X最大的城市 / 在X人口最少的: a population order; a place right before it in the clause is
   * its scope (inside it).
   */
  private superlative(): void {
    const order = findPopulationOrderZh(this.s);
    if (!order || insideAny(order.start, this.claimed)) return;
    this.out.order = order;
    let clauseStart = 0;
    for (let i = order.start - 1; i >= 0; i--) {
      if (PUNCT.includes(this.s[i]!) || insideAny(i, this.claimed)) {
        clauseStart = i + 1;
        break;
      }
    }
    this.claim(order);
    const raw = this.s.slice(clauseStart, order.start).replace(/(?:境内|国内|之内|以内|里面|里|内|的)\s*$/u, '');
    const ref = raw.trim() ? this.named(raw, clauseStart, /^(?:在|位于)/.test(raw)) : undefined;
    if (ref && !ref.user) this.add({ fn: 'inside', ref, spans: [{ start: anchorPrefix(this.s, ref.start), end: order.start }] });
  }

  /** 在X(里/内) / 位于X / X里的 */
  private inside(): void {
    const withPrep = new RegExp(
      `(?:在|位于|处于)\\s*(${N}{1,60}?)\\s*(?:里面|里头|里边|内部|之内|以内|境内|区内|范围内|里|内|中|之中)?(?=\\s*(?:的|有|吗|找|哪|[${PUNCT}]|$))`,
      'gu',
    );
    for (const m of this.scan(withPrep)) {
      const raw = m[1]!;
      const ref = this.named(raw, m.index + m[0].indexOf(raw, 1), true);
      if (!ref) continue;
      // "我在X" says where the asker is: around X, not inside it (unless X is an area).
      const asker = /(?:我|我们|咱们|人)\s*$/.test(this.s.slice(Math.max(0, m.index - 3), m.index)) && ref.kind !== 'area' && ref.kind !== 'city';
      if (asker) this.add({ fn: 'within_distance', ref, vague: 'near', spans: [{ start: m.index, end: m.index + m[0].length }] });
      else this.add({ fn: 'inside', ref, spans: [{ start: m.index, end: m.index + m[0].length }] });
    }
    const suffix = new RegExp(`${CLAUSE_START}(${N}{1,60}?)\\s*(?:里面|里头|里边|内部|境内|区内|之内|里|内)(?=\\s*(?:的|有))`, 'gu');
    for (const m of this.scan(suffix, (mm) => mm.index + mm[0].length - 1)) {
      const ref = this.named(m[1]!, m.index);
      if (!ref) continue;
      this.add({ fn: 'inside', ref, spans: [{ start: ref.start, end: m.index + m[0].length }] });
    }
  }

  /** X以外 / X之外 / 在X以外 / 除了X以外: not inside X. */
  private outside(): void {
    const re = new RegExp(`${CLAUSE_START}(${N}{1,60}?)\\s*(?:以外|之外)(?=\\s*(?:的|有|还有|[${PUNCT}]|$))`, 'gu');
    for (const m of this.scan(re, (mm) => mm.index + mm[0].length - 1)) {
      const ref = this.named(m[1]!, m.index, true);
      if (!ref) continue;
      this.add({ fn: 'inside', ref, negated: true, spans: [{ start: anchorPrefix(this.s, ref.start), end: m.index + m[0].length }] });
    }
  }

  /** X或Y附近 / 在X或者Y: the same relation to either place, one group of alternatives. */
  private alternatives(): void {
    for (const r of [...this.out.relations]) {
      if (!('ref' in r) || !r.ref || r.ref.user || r.fn === 'nearest') continue;
      const or = /^(.+?)\s*(?:或者|或是|或|还是)\s*(.+)$/u.exec(r.ref.text);
      if (!or) continue;
      const [a, b] = [or[1]!, or[2]!];
      const bStart = r.ref.start + r.ref.text.length - b.length;
      const first = this.ref({ kind: 'name', text: a, start: r.ref.start, end: r.ref.start + a.length });
      const second = this.ref({ kind: 'name', text: b, start: bStart, end: bStart + b.length });
      const group = nextGroup(this.out);
      Object.assign(r, { ref: first, group });
      this.out.relations.push({ ...r, ref: second, group } as Relation);
    }
  }

  /** "中关村有哪些咖啡馆" / "三里屯的酒吧": a place as the subject, no spatial word. Only when nothing else was found. */
  private implicitSubject(): void {
    if (this.out.relations.length > 0 || this.out.route) return;
    const re = new RegExp(`${CLAUSE_START}(${N}{1,60}?)\\s*(?:有哪些|有什么|有没有|有啥|有几家|有多少|哪里有|哪儿有|哪有|的)`, 'gu');
    for (const m of this.scan(re)) {
      const raw = m[1]!;
      const c = this.clean(raw, m.index);
      if (c?.kind !== 'name') continue;
      const ref = this.ref(c);
      const viaDe = m[0].endsWith('的') && !/有的$/.test(m[0]);
      // "X的Y" is a place only when X looks like one ("便宜的咖啡店" is not): a place word ends it, or it is a
      // proper name followed by a kind of place ("巴黎的书店": the bookshops of that area).
      if (viaDe && !ref.kind && !(namesSomething(c.text) && kindFollows(this.s, m.index + m[0].length))) continue;
      this.out.implicit = true;
      const spans = [{ start: ref.start, end: ref.end }];
      // "切尔西有哪些博物馆": a place as the subject is most often a district; a building or street is "near".
      const inside = ref.kind !== 'landmark' && ref.kind !== 'street';
      if (inside) this.add({ fn: 'inside', ref: { ...ref, kind: ref.kind ?? 'area' }, spans });
      else this.add({ fn: 'within_distance', ref, vague: 'near', spans });
      this.out.notes.push(`no spatial word: "${ref.text}" read as ${inside ? 'inside' : 'near'}`);
      return;
    }
  }

  private looseCoordinates(): void {
    for (const c of findCoordinates(this.s)) {
      if (overlapsAny(c, this.claimed)) continue;
      const ref: RefMention = { text: this.s.slice(c.start, c.end).trim(), start: c.start, end: c.end, kind: 'coordinates', point: c.point };
      this.add({ fn: 'within_distance', ref, vague: 'near', spans: [c] });
    }
  }
}


export function parseChinese(s: string, hint?: GazetteerHint): SpatialParse {
  return new ChineseGrammar(s, hint).parse();
}
