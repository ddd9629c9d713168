/**
 * Turns a grammar's SpatialParse into a SpatialPlan: one place where vague words get their defaults (so both
 * languages agree), references get ids and kinds, loose distances are attached, and the semantic residue,
 * cues, preference and confidence are derived.
 */
import { poiConceptById } from '../lexicon/poi-concepts.ts';
import type { BrandIndex } from './brands.ts';
import { matchCues, matchTargets, referenceHeadConcept, type TargetResult } from './lexicon-match.ts';
import { QUALITY_CUES } from '../lexicon/cues.ts';
import type { RefMention, Relation, SpatialParse, SpecRelation } from './parse-types.ts';
import { minPopulation } from './population.ts';
import { SPATIAL_FUNCTIONS } from '../spatial/functions/index.ts';
import type { SpatialFunctionSpec } from '../spatial/functions/spec.ts';
import { K_MAX, DISTANCE_MAX_M, type Constraint, type LonLat, type PopulationOrder, type Reference, type ReferenceKind, type SpatialPlan } from './plan.ts';
import { classifyKindEn, classifyKindZh, safeHint, type GazetteerHint } from './references.ts';
import { mergeSpans, semanticResidue } from './residue.ts';
import { clamp, foldKey, type Span } from './text.ts';
import { DEFAULTS, groupIds, round, surroundNegations, toConstraint, type Draft, type Slot } from './drafts.ts';

export interface AssembleInput {
  text: string;
  folded: string;
  lang: 'en' | 'zh';
  parse: SpatialParse;
  near?: LonLat;
  hint?: GazetteerHint;
  /** Brand names the data knows (see brands.ts). */
  brands?: BrandIndex;
  notes: string[];
}


function refKey(r: RefMention): string {
  if (r.user) return 'user';
  if (r.point) return `pt:${r.point.lon.toFixed(5)},${r.point.lat.toFixed(5)}`;
  return foldKey(r.text).replace(/^(?:the|le|la|les|el|los|las|die|der|das)\s+/, '');
}

export function assemble(input: AssembleInput): SpatialPlan {
  const { text, folded, lang, parse, near, hint } = input;
  const notes = [...input.notes, ...parse.notes];
  const slots = new Map<string, Slot>();
  let order = 0;

  const named = parse.relations.some((r) => relationRefs(r).some((m) => !m.user)) || !!parse.route;
  // A bare "nearby" refers to the named place when there is one ("Bryant Park, anything nearby?").
  const relations = parse.relations.filter((r) => !(named && relationRefs(r).some((m) => m.user === 'soft')));

  const slotFor = (m: RefMention, fallbackKind?: ReferenceKind): Slot => {
    const key = refKey(m);
    let slot = slots.get(key);
    if (!slot) {
      slot = { key, mention: m, order: m.user && m.start === m.end ? Number.MAX_SAFE_INTEGER : m.start + order++ / 1000 };
      slots.set(key, slot);
    }
    if (!slot.kind) slot.kind = resolveKind(m, lang, hint) ?? fallbackKind;
    return slot;
  };

  // Kinds of place first: plural and nearM depend on them.
  const refSpans = relations.flatMap(relationRefs).filter((m) => !m.user);
  if (parse.route) refSpans.push(parse.route.from, parse.route.to);
  const masked: Span[] = [...refSpans, ...parse.looseDistances, ...parse.unused];
  const targets = matchTargets(text, folded, masked, input.brands);
  notes.push(...targets.notes);

  const nearM = (slot: Slot): { m: number; why: string } => {
    // A kind of place asked for at a city's scale or more ("towns near Lyon": the neighbouring towns) sets it.
    const wanted = targetNearM(targets);
    if (wanted >= DEFAULTS.nearCityM) return { m: wanted, why: targets.concepts.join(', ') };
    if (slot.kind === 'city') return { m: DEFAULTS.nearCityM, why: 'city' };
    if (slot.mention.user || slot.kind === 'coordinates') return { m: targetNearM(targets), why: 'position' };
    const head = referenceHeadConcept(slot.mention.text);
    const c = head ? poiConceptById.get(head) : undefined;
    if (c?.nearM && c.nearM !== DEFAULTS.nearPoiM) return { m: c.nearM, why: c.id };
    return { m: DEFAULTS.nearPoiM, why: 'place' };
  };

  const drafts: Draft[] = [];
  const vagueDraft = new Map<Draft, string>(); // within_distance drafts whose distance is a default
  const defaultBuffer = new Set<Draft>();
  let routeBuffer: number | undefined;
  let wantsRoute = false;

  const addDrafts = (r: Relation): void => {
    if ('said' in r) {
      const slot = slotFor(r.ref);
      if (r.distanceNote) notes.push(r.distanceNote);
      const nearRadius = slot.kind === 'street' ? DEFAULTS.nearStreetM : nearM(slot).m;
      const spec = SPATIAL_FUNCTIONS[r.fn] as SpatialFunctionSpec<SpecRelation['fn']>;
      const planned = spec.plan?.(r.said, { ref: slot.mention.text, nearM: round(nearRadius), metres: round });
      if (!planned) {
        notes.push(`${r.fn} of "${slot.mention.text}": not enough said, ignored`);
        return;
      }
      const d: Draft = { fn: 'spec', of: r.fn, slot, fields: { ...planned.fields } };
      drafts.push(d);
      if (planned.defaulted) vagueDraft.set(d, planned.defaulted);
      return;
    }
    switch (r.fn) {
      case 'within_distance': {
        const slot = slotFor(r.ref);
        if (r.distanceNote) notes.push(r.distanceNote);
        if (slot.kind === 'street') {
          const explicit = r.distanceM !== undefined;
          const buf = r.distanceM ?? (r.vague === 'walking' ? DEFAULTS.walkingDistanceM : r.vague === 'near' ? DEFAULTS.nearStreetM : DEFAULTS.adjacentM);
          const d: Draft = { fn: 'along', slot, bufferM: round(buf) };
          drafts.push(d);
          if (!explicit) {
            defaultBuffer.add(d);
            notes.push(`near street "${slot.mention.text}" -> along, ${round(buf)} m`);
          }
          break;
        }
        if (r.distanceM !== undefined) {
          drafts.push({ fn: 'within_distance', slot, distanceM: round(r.distanceM) });
          if (r.distanceM > DISTANCE_MAX_M) notes.push(`distance capped at ${DISTANCE_MAX_M} m`);
          break;
        }
        const v = r.vague ?? 'near';
        const { m, why } =
          v === 'adjacent' ? { m: DEFAULTS.adjacentM, why: 'next to' } : v === 'at' ? { m: DEFAULTS.atM, why: 'at' } : v === 'walking' ? { m: DEFAULTS.walkingDistanceM, why: 'walking distance' } : nearM(slot);
        const d: Draft = { fn: 'within_distance', slot, distanceM: round(m) };
        drafts.push(d);
        vagueDraft.set(d, `${v === 'near' ? 'near' : why} "${slot.mention.text}" -> ${round(m)} m${v === 'near' && why !== 'place' ? ` (${why})` : ''}`);
        break;
      }
      case 'inside': {
        const slot = slotFor(r.ref, 'area');
        if (slot.kind === 'street') {
          drafts.push({ fn: 'along', slot, bufferM: DEFAULTS.alongStreetM });
          notes.push(`in street "${slot.mention.text}" -> along, ${DEFAULTS.alongStreetM} m`);
        } else drafts.push({ fn: 'inside', slot });
        break;
      }
      case 'along': {
        const slot = slotFor(r.ref);
        const d: Draft = { fn: 'along', slot, bufferM: round(r.bufferM ?? DEFAULTS.alongStreetM) };
        drafts.push(d);
        if (r.bufferM === undefined) {
          defaultBuffer.add(d);
          notes.push(`along "${slot.mention.text}" -> ${DEFAULTS.alongStreetM} m`);
        }
        break;
      }
      case 'along_route':
        wantsRoute = true;
        if (r.bufferM !== undefined) routeBuffer = r.bufferM;
        break;
      case 'between': {
        const a = slotFor(r.refs[0]);
        const b = slotFor(r.refs[1]);
        if (a === b) {
          drafts.push({ fn: 'within_distance', slot: a, distanceM: DEFAULTS.nearPoiM });
          break;
        }
        const d: Draft = { fn: 'between', slots: [a, b], bufferM: round(r.bufferM ?? DEFAULTS.betweenBufferM) };
        drafts.push(d);
        if (r.bufferM === undefined) {
          defaultBuffer.add(d);
          notes.push(`between "${a.mention.text}" and "${b.mention.text}" -> ${DEFAULTS.betweenBufferM} m either side of the straight segment`);
        }
        break;
      }
      case 'intersects':
        drafts.push({ fn: 'intersects', slot: slotFor(r.ref) });
        break;
      case 'nearest':
        break; // resolved once every other anchor is known
    }
  };
  for (const r of relations) {
    const from = drafts.length;
    addDrafts(r);
    // Negation and alternatives pass from the relation to what it became.
    for (const d of drafts.slice(from)) {
      if (r.negated) d.negated = true;
      if (r.group !== undefined) d.group = r.group;
    }
  }

  let route: SpatialPlan['route'];
  let routeSlots: [Slot, Slot] | undefined;
  if (parse.route) {
    const a = slotFor(parse.route.from);
    const b = slotFor(parse.route.to);
    if (a !== b) {
      routeSlots = [a, b];
      wantsRoute = true;
    } else notes.push('route from a place to itself ignored');
  }
  let routeDraft: Draft | undefined;
  if (wantsRoute && routeSlots) {
    routeDraft = { fn: 'along', slot: 'route', bufferM: round(routeBuffer ?? DEFAULTS.routeBufferM) };
    drafts.push(routeDraft);
    if (routeBuffer === undefined) {
      defaultBuffer.add(routeDraft);
      notes.push(`from "${routeSlots[0].mention.text}" to "${routeSlots[1].mention.text}" -> within ${DEFAULTS.routeBufferM} m of the straight segment`);
    }
  } else if (wantsRoute) notes.push('"on the way" without a start and an end: ignored');

  // Nearest: its own anchor, else the place another phrase names, else the route, else the asker.
  for (const r of relations) {
    if (r.fn !== 'nearest') continue;
    let anchor: Slot | 'route' | undefined = r.ref ? slotFor(r.ref) : undefined;
    if (!anchor) {
      const other = drafts.find((d) => d.fn !== 'between' && d.slot !== 'route' && !d.negated);
      anchor = other && other.fn !== 'between' ? other.slot : routeDraft ? 'route' : undefined;
    }
    anchor ??= slotFor({ text: 'my location', start: 0, end: 0, kind: 'coordinates', user: 'explicit' });
    const k = clamp(Math.round(r.k ?? (targets.plural ? DEFAULTS.pluralNearestK : 1)), 1, K_MAX);
    if (r.k === undefined) notes.push(`nearest without a number -> k=${k}${targets.plural ? ' (plural)' : ''}`);
    else if (r.k > K_MAX) notes.push(`k capped at ${K_MAX}`);
    drafts.push({ fn: 'nearest', slot: anchor, k });
  }

  // Loose distances: "cafés near X, within 200 m" sizes the vague constraint; else a buffer; else around the asker.
  for (const d of parse.looseDistances) {
    if (d.lowerBound) continue;
    if (d.note) notes.push(d.note);
    const m = round(d.valueM);
    const vague = [...vagueDraft.keys()].find((x) => drafts.includes(x));
    if (vague && (vague.fn === 'within_distance' || (vague.fn === 'spec' && 'distanceM' in vague.fields))) {
      if (vague.fn === 'within_distance') vague.distanceM = m;
      else vague.fields['distanceM'] = m;
      vagueDraft.delete(vague);
      continue;
    }
    const buffered = drafts.find((x) => defaultBuffer.has(x));
    if (buffered && (buffered.fn === 'along' || buffered.fn === 'between')) {
      buffered.bufferM = m;
      defaultBuffer.delete(buffered);
      notes.push(`buffer set to ${m} m`);
      continue;
    }
    const nearestDraft = drafts.find((x) => x.fn === 'nearest');
    if (nearestDraft && nearestDraft.fn === 'nearest') {
      if (nearestDraft.slot === 'route') drafts.push({ fn: 'along', slot: 'route', bufferM: m });
      else drafts.push({ fn: 'within_distance', slot: nearestDraft.slot, distanceM: m });
      continue;
    }
    if (drafts.length === 0) {
      drafts.push({ fn: 'within_distance', slot: slotFor({ text: 'my location', start: 0, end: 0, kind: 'coordinates', user: 'explicit' }), distanceM: m });
      continue;
    }
    notes.push(`distance ${m} m not attached to any place: ignored`);
  }

  // "the closest café near X": the nearest constraint already answers; a default radius would only cut results.
  const nearestSlots = new Set(drafts.filter((d) => d.fn === 'nearest').map((d) => (d.fn === 'nearest' ? d.slot : undefined)));
  for (const [d, why] of vagueDraft) {
    if (d.fn === 'within_distance' && !d.negated && nearestSlots.has(d.slot)) {
      drafts.splice(drafts.indexOf(d), 1);
      vagueDraft.delete(d);
      notes.push(`nearest to "${d.slot.mention.text}": vague radius dropped`);
    } else notes.push(why);
  }

  surroundNegations(drafts, notes);

  let implicitUser = false;
  if (drafts.length === 0) {
    implicitUser = true;
    const m = targetNearM(targets);
    drafts.push({ fn: 'within_distance', slot: slotFor({ text: 'my location', start: 0, end: 0, kind: 'coordinates', user: 'explicit' }), distanceM: m });
    notes.push(`no place found: searching within ${m} m of the asker's position`);
  }

  // Ids in order of appearance; only slots a constraint or the route uses.
  const used = new Set<Slot>();
  for (const d of drafts) {
    if (d.fn === 'between') d.slots.forEach((s) => used.add(s));
    else if (d.slot !== 'route') used.add(d.slot);
  }
  if (routeDraft && routeSlots) routeSlots.forEach((s) => used.add(s));
  const ordered = [...used].sort((a, b) => a.order - b.order);
  ordered.forEach((s, i) => (s.id = `r${i + 1}`));
  const references: Reference[] = ordered.map((s) => toReference(s, near));
  if (routeDraft && routeSlots) route = { from: routeSlots[0].id!, to: routeSlots[1].id!, via: parse.route?.via ?? 'straight' };

  const userSlot = ordered.find((s) => s.mention.user);
  if (userSlot) {
    if (near) notes.push("the asker's position is the given point");
    else notes.push("the asker's position is needed: the client must supply it");
  }

  const constraints: Constraint[] = [];
  const seen = new Set<string>();
  const groups = groupIds(drafts);
  // Negated constraints last: the first positive one is what answers measure their distance to.
  for (const d of [...drafts].sort((a, b) => Number(a.negated ?? false) - Number(b.negated ?? false))) {
    const c = toConstraint(d, groups);
    const key = JSON.stringify(c);
    if (!seen.has(key)) {
      seen.add(key);
      constraints.push(c);
    }
  }

  // Text views of the question.
  const spatial = mergeSpans([
    ...relations.flatMap((r) => r.spans),
    ...(parse.route?.spans ?? []),
    ...parse.looseDistances,
    ...parse.unused,
  ]);
  const spatialText = spatial.map((s) => text.slice(s.start, s.end).trim()).filter(Boolean).join(' ... ');
  // The words of a population order are not part of the need either ("the 5 largest").
  const semanticText = semanticResidue(text, parse.order ? mergeSpans([...spatial, parse.order]) : spatial, lang);
  const cues = matchCues(folded, [...refSpans, ...parse.unused]);

  const hasNearest = constraints.some((c) => c.fn === 'nearest');
  const preference: SpatialPlan['preference'] = hasNearest || parse.nearestWord ? 'nearest' : cues.some((c) => QUALITY_CUES.has(c)) ? 'best' : 'balanced';

  // Confidence: how much of the question the grammar understood.
  let confidence = 1;
  if (targets.concepts.length === 0) confidence -= 0.4;
  const namedRefs = ordered.filter((s) => !s.mention.user);
  if (namedRefs.length === 0) {
    if (implicitUser && !near) confidence = 0;
    else if (!near) confidence = Math.min(confidence, 0.3);
    else confidence -= implicitUser ? 0.3 : 0.1;
  }
  if (namedRefs.some((s) => s.mention.weak)) confidence -= 0.15;
  if (namedRefs.some((s) => s.mention.text.split(/\s+/).length > 6 || s.mention.text.length > 40)) confidence -= 0.15;
  if (parse.implicit) confidence -= 0.15;
  if (notes.some((n) => /not supported|ignored/.test(n))) confidence -= 0.2;
  confidence = Math.round(clamp(confidence, 0, 1) * 100) / 100;
  const said = populationOrder(parse, targets, text, lang);
  if (parse.order && !said) notes.push('a superlative of size of places without a population: not supported, ignored');
  if (said) notes.push(`ordered by population, ${said.direction === 'desc' ? 'largest' : 'smallest'} first${said.k ? `, k=${said.k}` : ''}`);
  const byPopulation = said ?? settlementsOfAreas(constraints, targets);
  if (!said && byPopulation) notes.push('settlements of an area, nothing else to order them by: the most populous first');
  const population = minPopulation(text);
  if (population !== undefined) notes.push(`population at least ${population}`);

  return {
    references,
    ...(route ? { route } : {}),
    targets: { text: targets.text.slice(0, 2000), concepts: targets.concepts, tags: targets.tags, categories: targets.categories },
    constraints: constraints.slice(0, 20),
    semantic: { text: semanticText.slice(0, 2000), cues },
    spatialText: spatialText.slice(0, 2000),
    preference,
    lang,
    ...(population !== undefined ? { minPopulation: population } : {}),
    ...(byPopulation ? { order: byPopulation } : {}),
    confidence,
    notes: [...new Set(notes)].slice(0, 50).map((n) => n.slice(0, 500)),
  };
}

/**
 * The plan's population order, from a superlative the grammar found: when it says population ("most
 * populous"), or says size of a kind of settlement (a concept tagged `place=*`: "the largest towns"), whose
 * size is its population. "The largest parks" is not read as one. Without a count, a singular kind asks for one.
 */
function populationOrder(parse: SpatialParse, targets: TargetResult, text: string, lang: 'en' | 'zh'): PopulationOrder | undefined {
  const said = parse.order;
  if (!said) return undefined;
  if (!said.population && !isSettlement(targets)) return undefined;
  const plural = lang === 'zh' ? ZH_PLURAL.test(text) : targets.plural;
  const k = said.k ?? (plural || targets.concepts.length === 0 ? undefined : 1);
  return { by: 'population', direction: said.direction, ...(k !== undefined ? { k: clamp(k, 1, K_MAX) } : {}) };
}

/**
 * "Cities in Japan", "法国的城市": settlements asked for only by the areas that hold them. Each is at distance 0
 * from the area, so nearness orders nothing; a gazetteer lists the most populous first, and so does the answer.
 */
function settlementsOfAreas(constraints: readonly Constraint[], targets: TargetResult): PopulationOrder | undefined {
  if (constraints.length === 0 || !constraints.every((c) => c.fn === 'inside' && !c.negated)) return undefined;
  return isSettlement(targets) ? { by: 'population', direction: 'desc', assumed: true } : undefined;
}

const isSettlement = (targets: TargetResult) => targets.concepts.some((id) => poiConceptById.get(id)?.tags.some(([key]) => key === 'place'));

/** Chinese says plural with a question word or a measure of many ("哪些城市", "几个", "一些"). */
const ZH_PLURAL = /哪些|几个|几座|一些|多个|列出|列举|所有|各个/u;

function relationRefs(r: Relation): RefMention[] {
  if ('said' in r) return [r.ref];
  switch (r.fn) {
    case 'between':
      return r.refs;
    case 'along_route':
      return [];
    case 'nearest':
      return r.ref ? [r.ref] : [];
    case 'within_distance':
    case 'inside':
    case 'along':
    case 'intersects':
      return [r.ref];
  }
}

function resolveKind(m: RefMention, lang: 'en' | 'zh', hint?: GazetteerHint): ReferenceKind | undefined {
  if (m.user || m.point) return 'coordinates';
  return safeHint(hint, m.text) ?? m.kind ?? (lang === 'zh' ? classifyKindZh(m.text) : classifyKindEn(m.text));
}

/** The "near" radius for the asker's position: the wanted kind's default (500 m for POIs). */
function targetNearM(t: TargetResult): number {
  const first = t.concepts.map((id) => poiConceptById.get(id)?.nearM).find((n) => n !== undefined);
  return first ?? DEFAULTS.nearPoiM;
}

function toReference(s: Slot, near: LonLat | undefined): Reference {
  const m = s.mention;
  const point = m.point ?? (m.user ? near : undefined);
  return {
    id: s.id!,
    text: (m.text || 'my location').slice(0, 200),
    ...(s.kind ? { kind: s.kind } : {}),
    ...(point ? { point } : {}),
    ...(m.context ? { context: m.context.slice(0, 200) } : {}),
  };
}

