/**
 * Concepts, task types and products read in a text from the knowledge graph's surface forms, with what
 * the text says the user has and lacks; words no form covers may be read by word vectors (word-sense.ts)
 * and Chinese words by their CC-CEDICT glosses.
 */
import { EN_STOP_WORDS, stem } from '../../embedding/text.ts';
import { mainToolOf } from '../catalog/domain.ts';
import { dictionarySenses, englishVocabulary, glossChinese, isDictionaryVerb } from '../../lexicon/zh-gloss.ts';
import { measuresOf, nounNamesNaturalThing, propertiesOf } from '../../lexicon/wordnet.ts';
import { memoizeBounded } from '../../memo.ts';
import { lexicalTerms } from '../lexical.ts';
import { conceptInfo, eoConceptEntries, functionInfo, matchForms, matchFormsByStem, normalizeForMatch, productInfo, productSatisfies, type FormMatch } from '../knowledge/index.ts';
import { CONCEPT_TUNING, WORD_SENSE, conceptCloseness, conceptsOfWords, contentWords, dot, informationOf, senseVector } from '../word-sense.ts';
import { spanOfYears } from './temporal.ts';
import type { ConceptHit, GlossedWord, Weighted } from './types.ts';
import { HAN, alternativeSpans, areaQuestion, bufferDistance, degreeQuestions, doneAt, formWeight, laterStepAt, negatedAt, outputFormatAt, stateQuestionAt, temporalSummary, zonalSummary } from './wording.ts';

export interface TextFacts {
  concepts: ConceptHit[];
  taskTypes: Weighted[];
  products: Weighted[];
  has: string[];
  lacks: string[];
  hits: FormMatch[];
  /** An operation is named (a task concept, or a function form that is not a weak one), not only objects. */
  explicitTask: boolean;
  /** Products of the kind a question asks which one of ("which index", 用哪个指数): what the answer must make. */
  asked: string[];
  /** English senses of Chinese words the graph does not list (CC-CEDICT). */
  glosses: string[];
  /** Those words with the informative English words of each of their senses: searched as the user's own words. */
  glossed: GlossedWord[];
  /** 0..1: share of the text's information (its informative words) that the readings above cover. */
  coverage: number;
}

// Over the normalised text, where "I've" reads "ive". A possession ("we have", "I've got", 手上有) names data
// the user holds, as "from" and "using" do.
const HOLDING_EN = '(?:i|we)(?:ve| have)?\\s+got|(?:i|we)\\s+(?:already\\s+)?(?:have|had|hold|own)';
const HOLDING_ZH = '已经有|已有|现有|手[上头里]有|我有|我们有';
const INPUT_MARKERS_EN = new RegExp(`\\b(?:from|using|use|with|my|our|this|these|those|given|based on|existing|here (?:is|are)|${HOLDING_EN})\\s+((?:[^\\s.;:!?]+\\s+){0,7})$`);
/** Words after which what follows is asked for, not held: a request verb between the holding and the mention. */
const REQUEST_WORDS_EN = /\b(?:compute|calculate|derive|estimate|produce|generate|create|map|extract|retrieve|convert|build|make|get|want|need|like|show|give|into|to)\b/;
// 已经有, and 有 with a classifier of documents and images (有一张…, 有了两幅…): a thing held.
const INPUT_MARKERS_ZH = new RegExp(`(?:利用|基于|用|从|根据|对|${HOLDING_ZH}|有了?[一两几]?[张幅份套景期])[^，。]{0,8}$`);
const TARGET_MARKERS_EN = /\b(?:compute|calculate|derive|estimate|produce|generate|create|map|extract|retrieve|convert\s+\S+(?:\s+\S+){0,4}\s+to|into|build|make|get)\s+(?:\S+\s+){0,4}$/;
const TARGET_MARKERS_ZH = /(?:计算|提取|估算|反演|生成|制作|得到|求|绘制)[^，。]{0,6}$/;

/** A Chinese locative after a mention ("图像中", "土地覆盖图上"): the thing is where something is, so it is at hand. */
const LOCATIVE_AFTER_ZH = /^(?:上(?![传升涨下])|里(?!程)|中(?![心国间])|内)/u;

/**
 * A task named as the map something is read on ("on the land-cover map", 分类图上, 变化图里): its map is
 * at hand, so the task is done, not asked.
 */
const MAP_AFTER_EN = /^[\s-]*(?:map|maps|layer|raster)\b/;
const ON_THE_EN = /\b(?:on|in|from|off)\s+(?:the|this|that|our|my|your|their)\s+(?:[a-z-]+\s+){0,2}$/;

function mapAtHand(norm: string, h: FormMatch): boolean {
  const before = norm.slice(0, h.start);
  if (HAN.test(h.form)) {
    const after = norm.slice(h.end);
    const rest = h.form.endsWith('图') ? after : /^(?:图|结果)/u.test(after) ? after.replace(/^(?:图|结果)/u, '') : undefined;
    return rest !== undefined && (LOCATIVE_AFTER_ZH.test(rest) || HELD_BEFORE_ZH.test(before));
  }
  const namedAsMap = /\bmaps?$/.test(norm.slice(h.start, h.end)) || MAP_AFTER_EN.test(norm.slice(h.end));
  return namedAsMap && (ON_THE_EN.test(before) || HELD_BEFORE_EN.test(before));
}

/** "我手上有两期…", "we have two … maps": the thing named after is held. */
const HELD_BEFORE_ZH = new RegExp(`(?:${HOLDING_ZH})[^，。,；;？！]{0,16}$`, 'u');
const HELD_BEFORE_EN = new RegExp(`\\b(?:${HOLDING_EN})\\s+(?:[^\\s.;:!?]+\\s+){0,6}$`);

function isInputMention(norm: string, h: FormMatch): boolean {
  const before = norm.slice(0, h.start);
  if (HAN.test(h.form)) return INPUT_MARKERS_ZH.test(before) || LOCATIVE_AFTER_ZH.test(norm.slice(h.end));
  if (HAN.test(before.slice(-2))) return INPUT_MARKERS_ZH.test(before);
  // "given ten years of weekly EVI composites", "here is a list of fifty NDVI maps": held, unless a request verb
  // stands between ("using the scenes, compute NDVI").
  const held = INPUT_MARKERS_EN.exec(before);
  return !!held && !REQUEST_WORDS_EN.test(held[1] ?? '');
}

function isTargetMention(norm: string, h: FormMatch): boolean {
  const before = norm.slice(0, h.start);
  return HAN.test(h.form) || HAN.test(before.slice(-2)) ? TARGET_MARKERS_ZH.test(before) : TARGET_MARKERS_EN.test(before);
}

function addWeight(map: Map<string, number>, id: string, w: number): void {
  map.set(id, (map.get(id) ?? 0) + w);
}

/** Absolute weights scaled so that one clear request (a task concept) is 1. */
function capped(map: Map<string, number>): Weighted[] {
  const max = Math.max(1, ...map.values());
  return [...map]
    .map(([id, w]) => ({ id, weight: w / max }))
    .sort((a, b) => b.weight - a.weight || (a.id < b.id ? -1 : 1));
}

/** Generic container words that name a task type only weakly ("the data cube", "the result"). */
const WEAK_FUNCTION_FORMS = new Set([
  ...['data cube', 'datacube', 'dimension', 'date', 'time', 'text', 'array', 'processing', 'statistics', 'statistic', 'filter', 'extract', 'extraction', 'mapping of', 'export', 'save', 'import', 'load', 'index', 'indices'],
  // The same words in Chinese: 导出成shp says the form of the result as "export as a shapefile" does.
  ...['数据立方体', '日期', '时间', '文本', '数组', '处理', '统计', '筛选', '过滤', '提取', '导出', '保存'],
]);

/**
 * A kind of thing asked for by a question about which one ("which index", "what burn indices", "is there an
 * index", "any index", 哪个指数, 什么指数, 有没有…指数): a word too general to name a task alone names the
 * one asked for.
 */
const ASKED_KIND_EN = /\b(?:which|what|is there (?:an?|any)|are there(?: any)?|any)\s+(?:[a-z-]+\s+)?$/;
const ASKED_KIND_ZH = /(?:哪个|哪些|哪种|什么|啥)[^，。？！,.?!；;]{0,6}$/u;
const ASKED_WHETHER_ZH = /(?:哪个|哪些|哪种|什么|啥|有没有)[^，。？！,.?!；;]{0,30}$/u;

/** In Chinese the kind asked for follows the question word (用哪个指数提取…) or ends the question (有没有…的指数？). */
const QUESTION_END_ZH = /^\s*(?:吗|呢|啊|呀|吧)?\s*(?:[？?。，,！!；;]|$)/u;

function askedForKind(norm: string, h: FormMatch, hits: readonly FormMatch[]): boolean {
  const before = norm.slice(Math.max(0, h.start - 36), h.start);
  const question = HAN.test(before.slice(-2))
    ? (ASKED_KIND_ZH.exec(before) ?? (QUESTION_END_ZH.test(norm.slice(h.end)) ? ASKED_WHETHER_ZH.exec(before) : null))
    : ASKED_KIND_EN.exec(before);
  if (!question) return false;
  // The first task word after the question word is the kind asked for ("用哪个指数提取…": the index).
  const from = h.start - before.length + question.index;
  return !hits.some((o) => o !== h && o.start >= from && o.end <= h.start && namesTask(o));
}

/**
 * Surface forms in a text, also reading hyphens between letters as spaces ("speckle-filter" is the
 * form "speckle filter"; offsets do not move). Within a kind, a hit inside a longer one is dropped.
 */
export function matchFormsLoose(text: string): FormMatch[] {
  const spaced = text.replace(/(?<=\p{L})-(?=\p{L})/gu, ' ');
  const exact = spaced === text ? matchForms(text) : [...matchForms(text), ...matchForms(spaced)];
  // Exact forms first, so that a form met in another inflection only adds what they miss.
  // Concept forms only: task-type forms met by their stem ("aggregated", "masking") would also read a
  // task into words that merely describe the data.
  const all = [...exact, ...matchFormsByStem(text, ['concept'])];
  const kept: FormMatch[] = [];
  for (const h of all) {
    const covered = all.some(
      (o) => o !== h && o.kind === h.kind && o.start <= h.start && o.end >= h.end && (o.end - o.start > h.end - h.start || all.indexOf(o) < all.indexOf(h)),
    );
    if (!covered) kept.push(h);
  }
  return kept.sort((a, b) => a.start - b.start || b.end - a.end);
}

/** Task types that apply to any variable (a composite of NDVI, statistics of LST, a trend of anything). */
const OPERATION_FUNCTIONS = new Set(['temporal_aggregation', 'statistics', 'reduction', 'time_series_analysis', 'climatology', 'subsetting', 'resampling', 'masking', 'export', 'cube_manipulation']);

/**
 * "rainfall anomalies", "snow cover trend": a concept right before an operation concept that makes no
 * product of its own (anomalies, trend, statistics) is the variable operated on, not the task.
 */
function operandHits(hits: readonly FormMatch[], norm: string): Set<FormMatch> {
  const out = new Set<FormMatch>();
  const concepts = hits.filter((h) => h.kind === 'concept');
  for (const a of concepts) {
    for (const b of concepts) {
      if (b === a || b.start < a.end || !/^[\s-]{0,2}$/.test(norm.slice(a.end, b.start))) continue;
      const operation = b.ids.some((id) => {
        const c = conceptInfo(id);
        return c?.kind === 'task' && (!c.products?.length || OPERATION_FUNCTIONS.has(c.functions?.[0] ?? ''));
      });
      if (operation) out.add(a);
    }
  }
  return out;
}

const YES_NO_FORM = /^(\p{Script=Han})[不没]\1$/u;

/** Words that place something within a period ("beginning of the year", "mid-autumn"). */
const POSITION_IN_TIME = /^(?:beginning|start|end|early|late|middle|mid|first|last|half)$/;

/** Every dictionary sense of the word is a proper name (黄河 "Yellow River or Huang He"): it names a place, not a task. */
function onlyAName(word: string): boolean {
  const senses = dictionarySenses(word);
  return senses.length > 0 && senses.every((s) => /^[A-Z]/.test(s));
}

function onlyATime(sense: string): boolean {
  const words = contentWords(sense);
  return words.some((e) => TIME_WORDS.test(e)) && words.every((e) => TIME_WORDS.test(e) || POSITION_IN_TIME.test(e));
}

/** Seasons and months say when, like relative time: setting, never a reading of the task. */
const TIME_WORDS = /^(?:spring|summer|autumn|fall|winter|season|seasons|january|february|march|april|may|june|july|august|september|october|november|december|morning|evening|night|week|month|year|years|decade|today|yesterday|tomorrow)$/;

/**
 * Where a word stands in a phrase of place ("in our reservoir", "along the coast", "next to the school"):
 * a locative preposition, then determiners and modifiers. Such words say where the work is done (setting),
 * not what is measured, so they are not read as a task; an object named there only qualifies the task.
 */
const ONLY_PLACE_PREPOSITIONS = 'in|at|near|along|around|across|inside|within|beside|throughout|next to|close to|behind|outside|upstream of|downstream of';
/** Prepositions that also give a topic ("a story on logging") or a time ("over the summer"). */
const PLACE_OR_TOPIC_PREPOSITIONS = 'on|over|through|among|amid';
/** Articles, possessives and demonstratives: after one, a word is a noun. */
const DETERMINERS = 'the|a|an|my|our|your|their|his|her|its|this|that|these|those';
const PHRASE_TAIL = `\\s+(?:(?:${DETERMINERS}|whole|entire|local|nearby|same)\\s+)*(?:[a-z-]+\\s+){0,2}$`;
const SETTING_BEFORE = new RegExp(`\\b(?:${ONLY_PLACE_PREPOSITIONS}|${PLACE_OR_TOPIC_PREPOSITIONS})${PHRASE_TAIL}`);
const PLACE_BEFORE = new RegExp(`\\b(?:${ONLY_PLACE_PREPOSITIONS})${PHRASE_TAIL}`);

export function inSetting(norm: string, start: number): boolean {
  return SETTING_BEFORE.test(norm.slice(Math.max(0, start - 60), start));
}

/** A phrase of place whose preposition only says where: what it names may not be what is asked. */
function inPlacePhrase(norm: string, start: number): boolean {
  return PLACE_BEFORE.test(norm.slice(Math.max(0, start - 60), start));
}

/**
 * A Chinese phrase of place: 在 X 里 (上, 中, 边, 附近…) or 沿(着) X, X being what is between. Both
 * frames are needed: 上 and 里 alone also end words (马上 "at once", 哪里 "where").
 */
const SETTING_ZH = /在(\p{Script=Han}{2,6}?)(?:里|上|中|内|边|旁|附近|周边|一带)|沿着?(\p{Script=Han}{2,6}?)(?=的|[，。,]|$)/gu;

/**
 * The lexical terms (lexical.ts) a text uses only in phrases of place ("across the pass road",
 * 在村子里), never elsewhere: English stems, and the character bigrams of Chinese places.
 */
export function settingOnlyTerms(text: string): Set<string> {
  const norm = normalizeForMatch(text);
  const inside = new Set<string>();
  const outside = new Set<string>();
  for (const m of norm.matchAll(/[a-z]+/g)) (inSetting(norm, m.index) ? inside : outside).add(stem(m[0]));
  // The Chinese text outside the places is the text with each place cut out where it was matched.
  let rest = '';
  let from = 0;
  for (const m of text.matchAll(SETTING_ZH)) {
    const place = m[1] ?? m[2] ?? '';
    const at = m.index + m[0].indexOf(place);
    for (const term of lexicalTerms(place).keys()) inside.add(term);
    rest += `${text.slice(from, at)} `;
    from = at + place.length;
  }
  if (from > 0) for (const term of lexicalTerms(rest + text.slice(from)).keys()) if (HAN.test(term)) outside.add(term);
  for (const s of outside) inside.delete(s);
  return inside;
}

/**
 * The English stems of things asked about in their state ("how is the wheat doing", "the vines look
 * tired"): the question is the thing's condition, so a tool named after the thing (a wheat index) answers
 * it no better than any tool of that condition.
 */
export function statedObjectTerms(text: string): Set<string> {
  const norm = normalizeForMatch(text);
  const out = new Set<string>();
  for (const h of statedHits(norm, matchFormsLoose(text))) for (const m of norm.slice(h.start, h.end).matchAll(/[a-z]+/g)) out.add(stem(m[0]));
  return out;
}

/** The product every raster is: its words ("the raster", "scenes", 影像) name the data, not what is done to it. */
const ANY_IMAGE = 'image';

/** Stems of the typed words that only name the data as imagery ("coarsen the raster", "the scenes"). */
export function containerTerms(text: string): Set<string> {
  const out = new Set<string>();
  for (const h of matchFormsLoose(text)) if (h.kind === 'product' && h.ids.includes(ANY_IMAGE)) for (const term of lexicalTerms(h.form).keys()) out.add(term);
  return out;
}

/** Objects asked about in their state ("how are the soybeans doing"). */
function statedHits(norm: string, hits: readonly FormMatch[]): FormMatch[] {
  return hits.filter((h) => isObjectHit(h) && stateQuestionAt(norm, h.start, h.end));
}

/** Whether a reading of `hits` spans part of start..end. */
function overlapsAny(hits: readonly FormMatch[], start: number, end: number): boolean {
  return hits.some((h) => h.start < end && h.end > start);
}

/** Graph entries without repeats (one entry per kind and ids). */
function uniqueEntries(entries: Iterable<Pick<FormMatch, 'kind' | 'ids'>>): Pick<FormMatch, 'kind' | 'ids'>[] {
  const out = new Map<string, Pick<FormMatch, 'kind' | 'ids'>>();
  for (const e of entries) out.set(`${e.kind}:${e.ids.join('/')}`, { kind: e.kind, ids: e.ids });
  return [...out.values()];
}

/** A dictionary word of the text's Chinese, where it stands (offsets in the normalised text). */
interface ChineseWord {
  text: string;
  start: number;
  end: number;
  senses: string[];
}

/**
 * The CC-CEDICT words of a text's Han runs that can name something: transliterated names and yes/no
 * question forms (是不是, 有没有: they ask, they name nothing) are left out, and single characters unless
 * `singles` (their first senses are mostly grammatical).
 */
function chineseWords(norm: string, singles = false): ChineseWord[] {
  const out: ChineseWord[] = [];
  for (const m of norm.matchAll(/\p{Script=Han}+/gu)) {
    let offset = m.index;
    for (const seg of glossChinese(m[0], undefined, { bidirectional: true })) {
      const start = offset;
      offset += seg.text.length;
      if ((!singles && [...seg.text].length < 2) || seg.name || YES_NO_FORM.test(seg.text)) continue;
      out.push({ text: seg.text, start, end: offset, senses: seg.senses });
    }
  }
  return out;
}

/**
 * Resultative and directional complements: after a one-character verb they say how its action ends (V上
 * "V onto, fill in", V掉 "V away", V到 "V to", V出来 "V out"), and the dictionary rarely lists the pair.
 */
const VERB_COMPLEMENT = /^(?:上|下|掉|到|出|起|进|回|过|开|成|好|完|住|走|齐|全|满|光|出来|起来|下来|上来|上去|下去|进来|进去|出去|回来|过来|过去|干净)$/u;

/**
 * A one-character verb with a complement right after it (填 + 上, 删 + 掉): a verb in use, read through its
 * senses like a word of two characters. After a noun, 上 and 下 say where (图上 "on the map"); the
 * dictionary tells the verb from the noun.
 */
function verbWithComplement(w: ChineseWord, next: ChineseWord | undefined): boolean {
  return [...w.text].length === 1 && next !== undefined && next.start === w.end && VERB_COMPLEMENT.test(next.text) && isDictionaryVerb(w.text);
}

const CALENDAR_SENSE = /\b(?:year|years|month|months|week|weeks|day|days|annual|annually|yearly|monthly|weekly|daily|season|seasons|seasonal)\b/;

/** Senses of a Chinese word searched for a graph form (CC-CEDICT lists the commonest first). */
const DICTIONARY_SENSES = 2;
/**
 * Weight of a reading found through the dictionary or a construction: a translation out of context, or
 * a shape rather than a word, so less than a listed form (0.4 to 0.8 measure the same on the tuning halves).
 */
const INFERRED_WEIGHT = 0.6;
const DICTIONARY_KINDS: ReadonlySet<string> = new Set(['concept', 'function', 'product']);

/**
 * Chinese words that no form of the graph lists but whose dictionary sense is one of its English forms
 * (雪 "snow" is the snow concept, 淹 "flood; submerge" the flood concept, 云 "to say; cloud" the clouds): the
 * dictionary translates the word, the graph reads the translation. The whole sense must be the form, so a
 * word is not read by a form that only occurs in its definition. Single characters count too: their
 * senses that name a concept of the graph are rarely grammatical ones.
 */
function dictionaryHits(words: readonly ChineseWord[], listed: readonly FormMatch[]): FormMatch[] {
  const hits: FormMatch[] = [];
  for (const w of words) {
    if (overlapsAny(listed, w.start, w.end)) continue;
    for (const sense of w.senses.slice(0, DICTIONARY_SENSES)) {
      // A calendar character (the 月 of 6月) dates the request; it does not ask for a temporal aggregate.
      if ([...w.text].length === 1 && CALENDAR_SENSE.test(sense.toLowerCase())) continue;
      const entries = graphEntriesOfSense(sense);
      for (const e of entries) hits.push({ ...e, form: w.text, start: w.start, end: w.end });
      if (entries.length) break;
    }
  }
  return hits;
}

/**
 * The graph entries a dictionary sense is a form of, whole: matched as written and, since dictionary
 * senses are singular and the graph lists some object forms in the plural ("clouds"), with an -s.
 * Memoised: the same few thousand senses come back request after request.
 */
const graphEntriesOfSense = memoizeBounded((sense: string): Pick<FormMatch, 'kind' | 'ids'>[] => {
  const text = normalizeForMatch(sense).trim();
  const plural = /^[a-z]+$/.test(text) ? matchFormsLoose(`${text}s`).filter((h) => h.end === text.length + 1) : [];
  const whole = uniqueEntries([...matchFormsLoose(text), ...plural].filter((h) => DICTIONARY_KINDS.has(h.kind) && h.start === 0 && h.end >= text.length - 2));
  return whole.length ? whole : (invertedEntries(text) ?? compoundHead(text));
}, 20_000);

/**
 * A definition that names a compound by its head and a prepositional phrase ("moisture in the soil",
 * "body of water", "direction of flow"), optionally under a word of measure ("state of…"): read as the
 * compound it paraphrases ("soil moisture"), whole, as dictionary senses are.
 */
const OF_PHRASE = /^(?:(?:state|degree|amount|level|extent|condition|quantity|rate) of )?(?:the )?([a-z]+(?: [a-z]+)?) (?:of|in|on|from) (?:the |a |an )?([a-z]+(?: [a-z]+)?)$/;

function invertedEntries(text: string): Pick<FormMatch, 'kind' | 'ids'>[] | undefined {
  const m = OF_PHRASE.exec(text);
  const entries = m ? graphEntriesOfSense(`${m[2]} ${m[1]}`) : [];
  return entries.length ? entries : undefined;
}

/** Whether a reading names a task (a task concept, or a task-type form stronger than a container word). */
function namesTask(h: FormMatch): boolean {
  return (h.kind === 'concept' && h.ids.some((id) => conceptInfo(id)?.kind === 'task')) || (h.kind === 'function' && !WEAK_FUNCTION_FORMS.has(h.form));
}

/** A step named as coming after the one asked for is context: it counts like an operand. */
const LATER_STEP_WEIGHT = 0.4;

/**
 * A reading that names a place where the work is done ("in the arid hills", 干旱区 "arid zone", 灾区
 * "disaster area") qualifies the task; it is not the task.
 */
const PLACE_WEIGHT = 0.3;

/** A Chinese form that a place suffix makes the name of an area (干旱 + 区). */
function namesAnArea(norm: string, h: FormMatch): boolean {
  return HAN.test(h.form) && /^(?:区|地区|地带)/u.test(norm.slice(h.end));
}

/**
 * The prerequisites (graph) of the task types of later steps, as readings where those steps stand: each
 * prerequisite tool through the concept dedicated to it (the one listing it first with the fewest tools).
 */
function prerequisiteHits(later: readonly FormMatch[]): FormMatch[] {
  const out: FormMatch[] = [];
  for (const h of later) {
    const functions = h.kind === 'function' ? h.ids : h.ids.flatMap((id) => conceptInfo(id)?.functions?.slice(0, 1) ?? []);
    for (const tool of functions.flatMap((f) => functionInfo(f)?.prerequisites ?? [])) {
      const own = dedicatedConcepts().get(tool);
      if (own && !out.some((o) => o.ids[0] === own)) out.push({ kind: 'concept', ids: [own], form: h.form, start: h.start, end: h.end });
    }
  }
  return out;
}

let dedicated: Map<string, string> | undefined;

/** Tool id -> the task concept that lists it first with the fewest tools (built once from the graph). */
function dedicatedConcepts(): Map<string, string> {
  if (dedicated) return dedicated;
  const byTools = eoConceptEntries()
    .filter((c) => c.kind === 'task' && c.tools?.length)
    .sort((a, b) => a.tools!.length - b.tools!.length);
  dedicated = new Map();
  for (const c of byTools) if (!dedicated.has(c.tools![0]!)) dedicated.set(c.tools![0]!, c.id);
  return dedicated;
}

/** How close in meaning (word vectors) a closed compound must be to its last word to be read as a kind of it. */
const COMPOUND_CLOSENESS = 0.4;

/**
 * A closed compound of two English words ("topsoil", "warship", "farmland") names a kind of its last word,
 * so it takes that word's graph entries; dictionary senses often are one (表土 "topsoil"). Words that
 * only end like a word ("leadership", "respond") are told apart by word vectors: a real compound stays
 * close in meaning to its head (0.4 keeps "topsoil" and "warship", drops "friendship" and "respond"). A
 * compound the vectors do not know is rare enough to be read literally.
 */
function compoundHead(word: string): Pick<FormMatch, 'kind' | 'ids'>[] {
  if (!/^[a-z]{7,}$/.test(word)) return [];
  const vocabulary = englishVocabulary();
  for (let i = 3; i <= word.length - 4; i++) {
    const head = word.slice(i);
    if (!vocabulary.has(word.slice(0, i)) || !vocabulary.has(head)) continue;
    const entries = graphEntriesOfSense(head);
    if (!entries.length) continue;
    const a = senseVector(word);
    const b = senseVector(head);
    return !a || !b || dot(a, b) >= COMPOUND_CLOSENESS ? entries : [];
  }
  return [];
}

/**
 * Concepts read by word vectors (word-sense.ts) for the words that no form of the graph covers: in
 * English each remaining content word that carries information, in Chinese each remaining dictionary
 * word, through its CC-CEDICT senses. Words of the setting (place phrases, seasons) are left alone.
 */
function inferredHits(norm: string, hits: readonly FormMatch[], zh: readonly ChineseWord[]): { hits: FormMatch[]; scale: Map<FormMatch, number>; glosses: string[]; glossed: GlossedWord[] } {
  const readable = (w: string) => !TIME_WORDS.test(w) && contentWords(w).length > 0 && informationOf(w) >= CONCEPT_TUNING.minInformation;
  // Unknown words with where they stand; a Chinese word stands for the English words of its senses.
  const words: { text: string; start: number; end: number; english: string[] }[] = [];
  const glosses: string[] = [];
  const glossed: GlossedWord[] = [];
  // English words only matter to the concept reading; Chinese ones also give glosses (the parsed summary).
  for (const m of WORD_SENSE.concepts ? norm.matchAll(/[a-z][a-z-]+/g) : []) {
    const end = m.index + m[0].length;
    if (!overlapsAny(hits, m.index, end) && !inSetting(norm, m.index) && readable(m[0])) words.push({ text: m[0], start: m.index, end, english: [m[0]] });
  }
  for (const w of zh) {
    // A word whose commonest sense is only a time (年初 "beginning of the year") says when: setting. One that
    // names something in its time (早稻 "early season rice") is read.
    if (overlapsAny(hits, w.start, w.end) || onlyATime(w.senses[0] ?? '') || onlyAName(w.text)) continue;
    // Later senses are rarer uses: 平均 "average" is also "in equal proportions", which is not what a request means.
    const english = w.senses.slice(0, DICTIONARY_SENSES).flatMap((sense) => contentWords(sense)).filter(readable);
    if (english.length === 0) continue;
    glosses.push(w.senses.slice(0, 2).join(' , '));
    // All the senses the dictionary keeps: the search chooses among them by what else the request says.
    const senses = dictionarySenses(w.text);
    glossed.push({ text: w.text, senses: (senses.length ? senses : w.senses).map((sense) => contentWords(sense).filter(readable)) });
    words.push({ text: w.text, start: w.start, end: w.end, english });
  }
  const out: FormMatch[] = [];
  const scale = new Map<FormMatch, number>();
  for (const c of WORD_SENSE.concepts ? conceptsOfWords(words.flatMap((w) => w.english)) : []) {
    // The reading is placed on the word that is closest to the concept.
    const at = words
      .map((w) => ({ w, closeness: Math.max(0, ...w.english.map((e) => conceptCloseness(e).get(c.id) ?? 0)) }))
      .sort((a, b) => b.closeness - a.closeness)[0]!.w;
    const hit: FormMatch = { kind: 'concept', ids: [c.id], form: at.text, start: at.start, end: at.end };
    out.push(hit);
    scale.set(hit, Math.min(1, CONCEPT_TUNING.weight * c.score));
  }
  return { hits: out, scale, glosses, glossed };
}

const TREND = 'time_series_trend';

/** Which way something moves: up or down, better or worse, more or less. */
const DIRECTION_OF_CHANGE_EN =
  /\b(?:(?:go(?:es|ing)?|went|gone|trend(?:s|ing)?)\s+(?:up|down)|increas(?:e|es|ed|ing)|decreas(?:e|es|ed|ing)|ris(?:e|es|ing)|rose|fall(?:s|ing)?|fell|declin(?:e|es|ed|ing)|improv(?:e|es|ed|ing)|worsen(?:s|ed|ing)?|deteriorat(?:e|es|ed|ing)|recover(?:s|ed|ing)?|grow(?:s|n|ing)?|grew|shrink(?:s|ing)?|shrank|shrunk|gain(?:s|ed|ing)?|los(?:e|es|ing|t)|(?:getting|got|become|became|becoming)\s+(?:better|worse|more|less|\w+er)\b|better or worse|more or less)\b/;
const DIRECTION_OF_CHANGE_ZH = /变好|变差|变坏|好转|恶化|退化|改善|增加|减少|增多|减小|上升|下降|增长|缩小|扩大|变[多少大小高低绿黄干湿]|[增减]了/u;

/**
 * "Has X been rising or falling since the nineties?", "近些年X是增加了还是减少了": a direction of change
 * asked across many years is a trend of X, whatever X is. The reading is placed on the words of change.
 */
function trendHit(norm: string, hits: readonly FormMatch[]): FormMatch | undefined {
  if (!spanOfYears(norm) || !conceptInfo(TREND)) return undefined;
  // A task that is itself read over many years (a phenology, a deformation history) already says what is
  // done with the series.
  const seriesTask = (id: string) => {
    const c = conceptInfo(id);
    return c?.kind === 'task' && c.temporal === 'series';
  };
  if (hits.some((h) => h.kind === 'concept' && h.ids.some(seriesTask))) return undefined;
  const m = DIRECTION_OF_CHANGE_EN.exec(norm) ?? DIRECTION_OF_CHANGE_ZH.exec(norm);
  return m ? { kind: 'concept', ids: [TREND], form: m[0], start: m.index, end: m.index + m[0].length } : undefined;
}

const CHANGE_DETECTION = 'change_detection';
const CHANGE_WORD_EN = /\b(?:chang(?:e|ed|es)|differ(?:s|ed|ence|ences|ent)?|what's new)\b/;
const CHANGE_WORD_ZH = /变了|变化|变成|不一样|不同|差别|差异|区别/u;
/** Two acquisitions named as such: two dates, images, years; before and after; two and a classifier (两期, 两张), 前后两. */
const TWO_TIMES_EN = /\b(?:two|both|2)\s+(?:dates|images|scenes|years|acquisitions|epochs|times|periods|snapshots|photos|pictures|maps|surveys)\b|\bbefore and after\b|\b(?:19|20)\d{2}\s+(?:and|vs\.?|versus|to)\s+(?:19|20)\d{2}\b/;
const TWO_TIMES_ZH = /(?<![这近过去])[两二俩]\s*(?:个)?\s*(?:年|期|景|张|幅|时相|时期|次)(?![来里间内多])|前后两|(?:19|20)\d{2}\s*年?\s*(?:和|与|跟|对比|比)\s*(?:19|20)\d{2}/u;

/**
 * "compare the two images: what is different?", "2019年和2023年的影像比一比": words of change with
 * two acquisitions ask for change detection, whatever the words. The reading is placed on the words of
 * change.
 */
function changeHit(norm: string, hits: readonly FormMatch[]): FormMatch | undefined {
  if (!conceptInfo(CHANGE_DETECTION)) return undefined;
  if (hits.some((h) => h.kind === 'concept' && h.ids.includes(CHANGE_DETECTION))) return undefined;
  if (!TWO_TIMES_EN.test(norm) && !TWO_TIMES_ZH.test(norm)) return undefined;
  const m = CHANGE_WORD_EN.exec(norm) ?? CHANGE_WORD_ZH.exec(norm);
  return m ? { kind: 'concept', ids: [CHANGE_DETECTION], form: m[0], start: m.index, end: m.index + m[0].length } : undefined;
}

const AREA_STATISTICS = 'area_statistics';
const CLASSIFICATION = 'classification';
const FILE_FORMAT = 'file_format';
const SAVE_DATA = 'save_data';
const BUFFER = 'vector_processing';
const ZONAL_STATISTICS = 'zonal_statistics';
const TEMPORAL_AGGREGATION = 'temporal_aggregation';

interface FormVerbTask {
  id: string;
  /** Stems of the words of the task's forms, the verb's own left out. */
  words: Set<string>;
}

let formVerbs: Map<string, FormVerbTask[]> | undefined;

/** Verbs that open the graph's task forms of several words ("fill" of "fill the gaps"), with their tasks. */
function formVerbsOf(): Map<string, FormVerbTask[]> {
  if (formVerbs) return formVerbs;
  formVerbs = new Map();
  for (const c of eoConceptEntries()) {
    if (c.kind !== 'task') continue;
    const words = new Set(c.en.flatMap((f) => f.split(/[\s-]+/)).filter((w) => /^[a-z]{3,}$/.test(w) && !EN_STOP_WORDS.has(w)).map(stem));
    for (const form of c.en) {
      const [head, ...rest] = form.split(/\s+/);
      if (!head || !rest.length || !/^[a-z]+$/.test(head)) continue;
      const key = stem(head);
      const list = formVerbs.get(key) ?? [];
      if (!list.some((x) => x.id === c.id)) list.push({ id: c.id, words: new Set([...words].filter((w) => w !== key)) });
      formVerbs.set(key, list);
    }
  }
  return formVerbs;
}

/**
 * A verb reads its task less surely than the task's own words: at the constructions' weight (0.6) "read the
 * scenes listed in a STAC catalog" put a loader of uploaded files above the STAC loader; 0.45 ranks the
 * tuning halves alike and keeps it.
 */
const VERB_HEAD_WEIGHT = 0.45;

/** Words that open a verb's object ("fill the areas"): after them the word before is used as a verb. */
const VERB_OBJECT_OPENERS = new Set('the a an my our your their its this that these those all each every it them'.split(' '));

/**
 * "fill the areas hidden by clouds": a verb that opens task forms of the graph ("fill the gaps", "fill
 * sinks"), used with another object, reads the task whose forms share a word with the rest of the request
 * (cloud: cloud removal). No shared word, or a tie, reads nothing: "reduce the noise" is no reduction over time.
 */
function verbHeadHits(norm: string, hits: readonly FormMatch[]): FormMatch[] {
  const verbs = formVerbsOf();
  const words = [...norm.matchAll(/[a-z]+/g)];
  const out: FormMatch[] = [];
  words.forEach((m, i) => {
    const end = m.index + m[0].length;
    const next = words[i + 1]?.[0];
    const candidates = overlapsAny(hits, m.index, end) || !next || !VERB_OBJECT_OPENERS.has(next) ? undefined : verbs.get(stem(m[0]));
    if (!candidates) return;
    const others = new Set(words.filter((o) => o !== m && !EN_STOP_WORDS.has(o[0])).map((o) => stem(o[0])));
    const scored = candidates.map((c) => ({ id: c.id, shared: [...c.words].filter((w) => others.has(w)).length })).sort((a, b) => b.shared - a.shared);
    if (scored[0]!.shared > 0 && scored[0]!.shared > (scored[1]?.shared ?? 0)) out.push({ kind: 'concept', ids: [scored[0]!.id], form: m[0], start: m.index, end });
  });
  return out;
}

/**
 * Constructions that name a task by their shape, not by a word: "how many acres", "有几公顷", "how big is"
 * ask for the area of something; "a 300 m ring around", "within 2 km of", "周边500米" for a buffer; "the
 * mean per parcel", 按县算平均 for zonal statistics; "the mean for each month", 按周求平均 for a temporal
 * aggregation.
 */
function constructionHits(norm: string, hits: readonly FormMatch[]): FormMatch[] {
  const out: FormMatch[] = [];
  const read = (kind: FormMatch['kind'], id: string) => hits.some((h) => h.kind === kind && h.ids.includes(id));
  const area = areaQuestion(norm);
  if (area && conceptInfo(AREA_STATISTICS) && !read('concept', AREA_STATISTICS)) out.push({ kind: 'concept', ids: [AREA_STATISTICS], form: area[0], start: area.index, end: area.index + area[0].length });
  const buffer = bufferDistance(norm);
  if (buffer && functionInfo(BUFFER) && !read('function', BUFFER)) out.push({ kind: 'function', ids: [BUFFER], form: 'buffer', start: buffer.index, end: buffer.index + buffer[0].length });
  const perTime = temporalSummary(norm);
  if (perTime && conceptInfo(TEMPORAL_AGGREGATION) && !read('concept', TEMPORAL_AGGREGATION)) out.push({ kind: 'concept', ids: [TEMPORAL_AGGREGATION], form: perTime[0], start: perTime.index, end: perTime.index + perTime[0].length });
  const zonal = zonalSummary(norm);
  if (zonal && conceptInfo(ZONAL_STATISTICS) && !read('concept', ZONAL_STATISTICS)) out.push({ kind: 'concept', ids: [ZONAL_STATISTICS], form: zonal[0], start: zonal.index, end: zonal.index + zonal[0].length });
  return out;
}

/**
 * "how steep is this hillside", 哪面坡更陡, "which plots are greener": a quality asked about by its degree
 * asks for the measure of that quality. WordNet names the measure (lexicon/wordnet.ts: steep -> steepness,
 * then gradient, slope; green -> greenness), and the graph reads those nouns it lists as whole forms, the
 * derived nouns before the general ones. A Chinese quality is read through its dictionary senses' words.
 */
function degreeHits(norm: string, listed: readonly FormMatch[], words: readonly ChineseWord[]): FormMatch[] {
  const asked = degreeQuestions(norm);
  const qualities = [
    ...asked.english.map((w) => ({ ...w, english: [w.word] })),
    ...asked.chineseAt.flatMap((at) => {
      const w = words.find((x) => x.start === at);
      return w ? [{ start: w.start, end: w.end, word: w.text, english: w.senses.slice(0, DICTIONARY_SENSES).flatMap((sense) => sense.toLowerCase().match(/[a-z]+/g) ?? []) }] : [];
    }),
  ];
  const out: FormMatch[] = [];
  for (const q of qualities) {
    if (overlapsAny(listed, q.start, q.end)) continue;
    const measures = q.english.map(measuresOf);
    for (const tier of [measures.flatMap((m) => m.derived), measures.flatMap((m) => m.general), measures.flatMap((m) => m.specific)]) {
      const entries = uniqueEntries(tier.flatMap(graphEntriesOfNoun));
      for (const e of entries) out.push({ ...e, form: q.word, start: q.start, end: q.end });
      if (entries.length) break;
    }
  }
  return out;
}

/**
 * The graph entries a noun is a whole form of, as written (a stem match would read "green" as "greening"),
 * without the container words that name no measure ("dimension").
 */
function graphEntriesOfNoun(noun: string): Pick<FormMatch, 'kind' | 'ids'>[] {
  if (WEAK_FUNCTION_FORMS.has(noun)) return [];
  return matchForms(noun)
    .filter((h) => DICTIONARY_KINDS.has(h.kind) && h.start === 0 && h.end === noun.length)
    .map((h) => ({ kind: h.kind, ids: h.ids }));
}

/**
 * "how is the maize doing", 林子长得怎么样: a thing asked about in its state asks for the task that
 * measures its condition (the graph's `condition` of the object), not for what kind of thing it is. When
 * the sentence describes the state by a property the graph measures for that thing ("are the trees
 * parched?", …是不是很干: values of wetness), the task of that property is asked instead (`conditions`).
 */
function conditionHits(stated: ReadonlySet<FormMatch>, norm: string, words: readonly ChineseWord[]): FormMatch[] {
  const out: FormMatch[] = [];
  for (const h of stated) {
    const properties = propertiesAround(norm, h, words);
    const conditions = h.ids
      .map((id) => {
        const c = conceptInfo(id);
        return properties.map((p) => c?.conditions?.[p]).find(Boolean) ?? c?.condition;
      })
      .filter((c): c is string => !!c);
    if (conditions.length) out.push({ ...h, ids: [...new Set(conditions)] });
  }
  return out;
}

const SENTENCE_END = /[.?!;。？！；]/u;

/**
 * The properties (WordNet attributes, lexicon/wordnet.ts) of the describing words in the sentence of a
 * mention: its other English words, and the first dictionary sense of the Chinese words after it.
 */
function propertiesAround(norm: string, h: FormMatch, words: readonly ChineseWord[]): string[] {
  let start = h.start;
  while (start > 0 && !SENTENCE_END.test(norm[start - 1]!)) start--;
  let end = h.end;
  while (end < norm.length && !SENTENCE_END.test(norm[end]!)) end++;
  const english = [...norm.slice(start, h.start).matchAll(/[a-z]+/g), ...norm.slice(h.end, end).matchAll(/[a-z]+/g)].map((m) => m[0]);
  const chinese = words.filter((w) => w.start >= h.end && w.end <= end).flatMap((w) => (/^[a-z]+$/i.test(w.senses[0] ?? '') ? [w.senses[0]!] : []));
  return [...new Set([...english, ...chinese].flatMap(propertiesOf))];
}

function isObjectHit(h: FormMatch): boolean {
  return h.kind === 'concept' && h.ids.every((id) => conceptInfo(id)?.kind === 'object');
}

/** A file format is what data is in: it asks for saving only as the result's form ("save it as GeoTIFF", 导出成NetCDF). */
function outputFormatHits(norm: string, hits: readonly FormMatch[]): FormMatch[] {
  if (!conceptInfo(SAVE_DATA)) return [];
  return hits.filter((h) => h.kind === 'concept' && h.ids.includes(FILE_FORMAT) && outputFormatAt(norm, h.start)).map((h) => ({ ...h, ids: [SAVE_DATA] }));
}

/**
 * How much of what a text says the readings cover: each informative word (English content words, Chinese
 * dictionary words through their senses) weighted by its information, covered when a reading spans it.
 * Words of time are setting and left out. An everyday request the graph reads only in part ("are the
 * hedgerows parched?") has a low coverage: its reading is then a guess from the words it happened to know.
 */
function coverageOf(norm: string, hits: readonly FormMatch[], zh: readonly ChineseWord[]): number {
  let total = 0;
  let known = 0;
  const add = (start: number, end: number, information: number) => {
    total += information;
    if (overlapsAny(hits, start, end)) known += information;
  };
  for (const m of norm.matchAll(/[a-z][a-z-]+/g)) {
    if (TIME_WORDS.test(m[0]) || contentWords(m[0]).length === 0) continue;
    add(m.index, m.index + m[0].length, informationOf(m[0]));
  }
  for (const w of zh) {
    const senses = w.senses.flatMap((sense) => contentWords(sense)).filter((e) => !TIME_WORDS.test(e));
    if (senses.length) add(w.start, w.end, Math.max(...senses.map(informationOf)));
  }
  return total > 0 ? known / total : 1;
}

const BAND_WORD_AFTER = /^[\s-]*(?:bands?|channels?|reflectances?|wavelengths?|light|波段)\b/u;
const BAND_WORD_BEFORE = /\b(?:bands?|channels?)\s*$/;

/**
 * Band names that are everyday words (red, green, blue, pan, coastal) name a band only where the text
 * speaks of bands: beside "band" or "channel", or listed with another band ("red and near-infrared").
 * Elsewhere they are colours and words ("a green legend", "green-up", "the coastal towns").
 */
export function namedBands(norm: string, hits: readonly FormMatch[]): FormMatch[] {
  const bands = hits.filter((h) => h.kind === 'band');
  return bands.filter((h) => {
    if (HAN.test(h.form) || !/^[a-z]+$/.test(h.form) || informationOf(h.form) >= EVERYDAY_WORD) return true;
    if (BAND_WORD_AFTER.test(norm.slice(h.end)) || BAND_WORD_BEFORE.test(norm.slice(0, h.start))) return true;
    return bands.some((o) => o !== h && Math.abs(o.start - h.start) <= 24);
  });
}

/** Below this information (general-English frequency, 0..1) a word is an everyday word. */
const EVERYDAY_WORD = 0.8;

/**
 * "from 75 to 68 ha", "values of 12, 40 and 20 mm": a unit after a number gives a quantity; it asks for
 * nothing. The number stands alone (after a preposition or a list separator), not in a name ("Landsat 7").
 */
const GIVEN_QUANTITY = /(?:^|[,;:(]\s*|\b(?:from|to|of|by|and|or|than|at|over|under|about|around|is|was|are|were|only|nearly|almost|roughly)\s+)\d+(?:[.,]\d+)?\s*$/;

function givenQuantity(norm: string, h: FormMatch): boolean {
  return GIVEN_QUANTITY.test(norm.slice(0, h.start));
}

const DETERMINER_BEFORE = new RegExp(`\\b(?:${DETERMINERS}|each|every|no|any|some|which|what|whose|other|more|most)\\s+$`);

/**
 * An operation's one-word form used as a noun whose commonest sense is a natural thing ("the crop is
 * wilting"): after a determiner it names that thing, not the operation.
 */
function nounAfterDeterminer(norm: string, h: FormMatch): boolean {
  return h.kind === 'function' && /^[a-z]+$/.test(h.form) && DETERMINER_BEFORE.test(norm.slice(0, h.start)) && nounNamesNaturalThing(h.form);
}

export function textFacts(text: string, infer = true): TextFacts {
  const norm = normalizeForMatch(text);
  const forms = matchFormsLoose(text).filter((h) => !nounAfterDeterminer(norm, h));
  const words = chineseWords(norm, true);
  const zh = words.filter((w, i) => [...w.text].length >= 2 || verbWithComplement(w, words[i + 1]));
  // Without inference only the graph's own forms are read (whether a geographic question asks for EO
  // processing at all is decided by those: "cafés within 200 m of the square" is no buffer request).
  const dictionary = infer ? dictionaryHits(words, forms) : [];
  const listed = [...forms, ...dictionary].sort((a, b) => a.start - b.start || b.end - a.end);
  const inferred = infer ? inferredHits(norm, listed, zh) : { hits: [], scale: new Map<FormMatch, number>(), glosses: [], glossed: [] };
  const trend = trendHit(norm, listed);
  const change = trend || !infer ? undefined : changeHit(norm, listed);
  const verbHeads = infer ? verbHeadHits(norm, listed) : [];
  const constructions = infer ? [...constructionHits(norm, listed), ...degreeHits(norm, listed, words), ...verbHeads] : [];
  const shaped = [...(change ? [change] : []), ...constructions];
  for (const h of [...dictionary, ...shaped]) inferred.scale.set(h, INFERRED_WEIGHT);
  for (const h of verbHeads) inferred.scale.set(h, VERB_HEAD_WEIGHT);
  // Objects asked about in their state ("how are the soybeans doing"): their kind is known.
  const stated = new Set(infer ? statedHits(norm, listed) : []);
  // Weighed like the form that names the thing (no scale): only which of its tasks is asked is inferred.
  const conditions = conditionHits(stated, norm, words);
  const formats = infer ? outputFormatHits(norm, listed) : [];
  const hits = [...listed, ...inferred.hits, ...(trend ? [trend] : []), ...shaped, ...conditions, ...formats].sort((a, b) => a.start - b.start || b.end - a.end);
  const operands = operandHits(hits, norm);
  // Under an inferred trend, what is measured is its variable (as in "NDVI trend"), not a task of its own.
  if (trend) for (const h of hits) if (h !== trend && h.kind === 'concept' && h.ids.some((id) => conceptInfo(id)?.kind === 'task')) operands.add(h);
  const concepts: ConceptHit[] = [];
  const fnScores = new Map<string, number>();
  const productScores = new Map<string, number>();
  const has = new Set<string>();
  const lacks = new Set<string>();

  // A concept inside a state word ("co-registered pair") or inside the name of data the user already
  // has ("利用…土地覆盖分类图") describes the data, not the task asked for.
  const stateSpans = hits.filter(
    (h) => h.kind === 'capability' || (h.kind === 'product' && isInputMention(norm, h)),
  );
  const insideState = (h: FormMatch) => stateSpans.some((s) => s !== h && s.start <= h.start && s.end >= h.end);

  const asked = new Set<string>();
  const later = new Set(hits.filter((h) => namesTask(h) && laterStepAt(norm, h.start, h.end)));
  // With an explicit operation in the clause ("buffer the road lines"), an object only qualifies it.
  const explicitTask = hits.some((h) => !insideState(h) && !later.has(h) && namesTask(h));
  // A later step with nothing else asked ("两景图做变化检测之前该怎么处理"): what is asked is what it needs
  // first, with the weight the step's own words have.
  const readings = later.size && !explicitTask ? [...hits, ...prerequisiteHits([...later])] : hits;
  const listedSet = new Set(listed);
  const alternatives = alternativeSpans(norm);
  for (const h of readings) {
    if (givenQuantity(norm, h)) continue;
    // "better than the NDVI": the tool to improve on is not the one asked for.
    if (alternatives.some((a) => a.start <= h.start && h.end <= a.end)) continue;
    const negated = negatedAt(norm, h.start);
    const isObject = isObjectHit(h);
    const operand = [...operands].some((o) => o.start <= h.start && o.end >= h.end);
    // Only words of the graph or the dictionary: a construction's span ("since 2020") is no place.
    const place = listedSet.has(h) && (inPlacePhrase(norm, h.start) || namesAnArea(norm, h));
    const w = (inferred.scale.get(h) ?? formWeight(h.form)) * (operand ? 0.4 : 1) * (isObject && explicitTask ? 0.3 : 1) * (later.has(h) ? LATER_STEP_WEIGHT : 1) * (place ? PLACE_WEIGHT : 1);
    if (h.kind === 'concept' && insideState(h)) continue;
    if (h.kind === 'concept') {
      for (const id of h.ids) {
        const c = conceptInfo(id);
        if (!c) continue;
        if (!negated && c.kind === 'task' && (doneAt(norm, h.start) || mapAtHand(norm, h))) {
          const done = mainToolOf(c) ?? c.tools?.[0];
          if (done) has.add(done);
          for (const p of c.products?.slice(0, 1) ?? []) has.add(p);
          continue;
        }
        concepts.push({ id, kind: c.kind, form: h.form, weight: w, negated });
        if (!negated && c.kind === 'task' && askedForKind(norm, h, hits)) for (const p of c.products?.slice(0, 1) ?? []) asked.add(p);
        if (negated) {
          const missing = mainToolOf(c) ?? c.tools?.[0];
          if (missing) lacks.add(missing);
          for (const p of c.products?.slice(0, 1) ?? []) lacks.add(p);
          continue;
        }
        // The first task type of a concept is its typical one; later ones are plausible alternatives. A thing
        // asked about in its state ("how is the maize doing") is not asked to be classified.
        (c.functions ?? []).filter((f) => !(stated.has(h) && f === CLASSIFICATION)).forEach((f, rank) => addWeight(fnScores, f, w / (rank + 1)));
        if (c.kind === 'task' || c.kind === 'object') {
          // An object under an explicit operation is its operand ("buffer the road lines"), not the product.
          const share = c.kind === 'task' ? 1 : explicitTask ? 0.5 : 0.7;
          (c.products ?? []).forEach((p, rank) => addWeight(productScores, p, (w * share) / (rank + 1)));
        }
      }
    } else if (h.kind === 'function') {
      // "classification" inside "post-classification comparison": the concept already says it better.
      if (insideState(h) || hits.some((c) => c.kind === 'concept' && c.start <= h.start && c.end >= h.end && !insideState(c))) continue;
      for (const id of h.ids) {
        if (negated) {
          for (const o of functionInfo(id)?.outputs ?? []) if (o.product) lacks.add(o.product);
          continue;
        }
        if (doneAt(norm, h.start) || mapAtHand(norm, h)) {
          for (const o of functionInfo(id)?.outputs ?? []) if (o.product) has.add(o.product);
          continue;
        }
        const askedFor = askedForKind(norm, h, hits);
        if (askedFor) for (const o of functionInfo(id)?.outputs ?? []) if (o.product) asked.add(o.product);
        addWeight(fnScores, id, (WEAK_FUNCTION_FORMS.has(h.form) && !askedFor ? 0.25 : 0.8) * w);
      }
    } else if (h.kind === 'capability') {
      for (const id of h.ids) (negated ? lacks : has).add(id);
    } else if (h.kind === 'product') {
      for (const id of h.ids) {
        if (negated) {
          lacks.add(id);
          continue;
        }
        const isInput = isInputMention(norm, h);
        const isTarget = isTargetMention(norm, h);
        if (isInput && !isTarget && !productInfo(id)?.generic) has.add(id);
        // A product merely mentioned ("…sigma0 backscatter") may be the input as well as the output.
        else if (!isInput) addWeight(productScores, id, w * (isTarget ? 1 : 0.3));
      }
    }
  }
  // "归一化水体指数" names both NDWI and the water-index category: the specific reading wins.
  for (const [q, wq] of productScores) {
    const specific = [...productScores].some(([p, wp]) => p !== q && productSatisfies(p, q) && wp >= 0.5 * wq);
    if (specific) productScores.set(q, wq * 0.5);
  }
  return {
    concepts,
    taskTypes: capped(fnScores),
    products: capped(productScores),
    has: [...has],
    lacks: [...lacks],
    hits: listed,
    explicitTask,
    asked: [...asked],
    glosses: inferred.glosses,
    glossed: inferred.glossed,
    coverage: coverageOf(norm, hits, zh),
  };
}
