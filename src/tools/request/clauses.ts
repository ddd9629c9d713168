/**
 * Clause splitting: sentence ends, list markers and sequence words ("then", 先…再…最后) make steps; the
 * clauses that each ask for a step become the sub-tasks of a multi-step request.
 */
import { normalizeForMatch } from '../knowledge/index.ts';
import { contentWords } from '../word-sense.ts';
import { textFacts, type TextFacts } from './facts.ts';
import type { SubTask } from './types.ts';
import { HAN } from './wording.ts';

/** Imperative verbs of EO processing: a clause starting with one asks for a step. */
const STEP_VERBS = new Set(
  (
    'compute calculate derive estimate map extract detect classify mask filter load save export apply run build create ' +
    'generate produce aggregate resample align stack merge fuse register coregister co-register orthorectify ' +
    'calibrate speckle-filter terrain-correct threshold compare convert subset clip crop reduce fit mosaic pansharpen ' +
    'pan-sharpen super-resolve smooth fill count summarize summarise quantify measure monitor identify delineate ' +
    'segment correct remove reproject composite interpolate train predict assess track perform do make write ' +
    'download upload retrieve despeckle geocode normalize normalise difference differentiate sample buffer ' +
    'overlay intersect rasterize rasterise vectorize vectorise polygonize polygonise'
  ).split(' '),
);

/**
 * Closed-class words that open a noun phrase: after a word, they show it is a verb with its object
 * ("sum them per county", "draw a chart", "give me the rate"), whatever verb it is.
 */
const OBJECT_OPENERS = new Set('it them me us the a an its their his her those these this that each every all my our your both'.split(' '));
/** Closed-class words that are never that verb ("in the", "for each", "and all", "of these"). */
const NOT_VERBS = new Set(
  'and or but nor so then also in on at for of from with by over under into onto to across between per within without during after before through about than as like near since until via against among along around behind beyond inside outside toward towards upon is are was were be been being has have had do does did can could will would should may might must all each every both some any no not only just even still'.split(' '),
);

/** Particles of phrasal verbs and adverbs that may stand between a verb and its object. */
const VERB_MODIFIERS = new Set('up down out off away back over only just also again first simply'.split(' '));

/** The clause opens with a verb: one of EO processing, or any word followed by its object. */
export function opensWithVerb(clause: string): boolean {
  // Words only: the clause may end the sentence ("and plot it.").
  const [first = '', second = '', third = ''] = normalizeForMatch(clause).match(/[a-z0-9][a-z0-9'-]*/g) ?? [];
  if (STEP_VERBS.has(first)) return true;
  // A contraction ("there's", "it's", "we've") is a subject and its auxiliary, never a verb with its object.
  if (/^\W*[\p{L}]+['\u2019][\p{L}]/u.test(clause.trimStart())) return false;
  // The object may follow a particle or an adverb of the verb ("add up the", "keep only those").
  const object = VERB_MODIFIERS.has(second) ? third : second;
  return /^[a-z]+$/.test(first) && !NOT_VERBS.has(first) && OBJECT_OPENERS.has(object);
}

const ZH_STEP_VERBS = /^(?:计算|提取|统计|生成|制作|进行|做|估算|反演|检测|识别|分类|裁剪|镶嵌|融合|配准|校正|导出|保存|加载|掩膜|去除|合成|聚合|重采样|滤波|求|得到|绘制|输出)/;

/**
 * Splits at sentence ends, semicolons, line breaks, list markers ("1.", "2)", "-", "•", "①") and sequence
 * words ("then"); commas and "and" only before a verb.
 */
const LIST_MARKERS = /\s*(?:\n+\s*(?:[-*•]\s+)?|(?:^|\s)(?:\(?\d{1,2}[.)）]|[①-⑩]|[（(]\d{1,2}[)）])\s+|\s[•]\s+|[①-⑩])\s*/u;
// Not the preposition "next to", nor "then" of a time already past ("since then", "back then").
const SEQUENCE_WORDS_EN = /\s*,?\s*\b(?:and then|(?<!\b(?:since|by|until|till|back|from|just|only)\s)then|followed by|afterwards|after that|finally|(?<!\b(?:the|a|this|that)\s)next(?!\s+to\b))\b\s*/;
const SEQUENCE_WORDS_ZH = /，?(?:然后|接着|之后|随后|最后|再)/u;

/**
 * The user laid the work out as steps: a numbered or bulleted list, or sequence words ("then", "finally",
 * 先…再…最后). Each item is then a step in its own right, even one the knowledge graph reads nothing in.
 */
export function isExplicitSequence(query: string): boolean {
  // A sentence may open with the sequence word ("… across years. Then show …").
  return query.trim().split(LIST_MARKERS).filter(Boolean).length >= 2 || SEQUENCE_WORDS_EN.test(query.toLowerCase()) || SEQUENCE_WORDS_ZH.test(query);
}

export function splitClauses(query: string): string[] {
  const hard = query
    .split(LIST_MARKERS)
    .flatMap((part) =>
      part.split(
        new RegExp(
          `(?:[;；。!?！？]\\s*|\\.\\s+(?=[A-Z\\p{Script=Han}])|${SEQUENCE_WORDS_EN.source}|${SEQUENCE_WORDS_ZH.source}|，并且?|，再|并且?(?=(?:计算|提取|统计|生成|制作|估算|反演|检测|识别|分类|裁剪|镶嵌|融合|配准|校正|导出|保存|绘制|输出)))`,
          'u',
        ),
      ),
    )
    .map((s) => s.trim())
    .filter(Boolean);
  const out: string[] = [];
  for (const part of hard) {
    const soft = part.split(/(\s*,\s*|\s+and\s+|\s*&\s*|，)/u);
    let current = soft[0] ?? '';
    for (let i = 1; i < soft.length; i += 2) {
      const next = soft[i + 1] ?? '';
      if (opensWithVerb(next) || ZH_STEP_VERBS.test(next.trim())) {
        out.push(current.trim());
        current = next;
      } else {
        current += soft[i]! + next;
      }
    }
    if (current.trim()) out.push(current.trim());
  }
  return out.filter((s) => /[\p{L}\p{N}]/u.test(s));
}

/** Words of a clause (a Han character counts as half a word). */
function lexicalWordCount(clause: string): number {
  const words = clause.match(/[\p{L}\p{N}][\p{L}\p{N}'-]*/gu) ?? [];
  return words.reduce((n, w) => n + (HAN.test(w) ? Math.max(1, Math.floor(w.length / 2)) : 1), 0);
}

/**
 * A clause that only says what the user holds ("we already hold last winter's snow masks", "we've got
 * 24 scenes", 手上有两期分类图): its data is the context of the steps, not a step.
 */
const HOLDING_CLAUSE_EN = /^(?:(?:i|we)(?:ve|\s+have)?\s+(?:already\s+|also\s+)?got|(?:i|we)\s+(?:already\s+|also\s+)?(?:have|hold|own)(?!\s+to\b)|here (?:is|are)|given)\b/;
const HOLDING_CLAUSE_ZH = /^(?:我们?|手[上头里])?(?:已经|已)?(?:有|手[上头里]有)/u;
const REQUEST_WORDS = /\b(?:compute|calculate|derive|estimate|produce|generate|create|map|extract|convert|build|make|get|want|need|like|show|give|find|tell)\b|想|要|需要|请|帮|求|算/u;

/**
 * A clause of one word, or of one word and a pronoun, particle or determiner ("mask them", "clip out");
 * a number after the verb is an object of its own ("keep 3").
 */
function onlyAVerb(clause: string): boolean {
  const words = clause.trim().split(/\s+/);
  return words.length <= 2 && contentWords(words.slice(1).join(' ')).length === 0 && !/\d/.test(words[1] ?? '');
}

export function onlyHolds(clause: string): boolean {
  const norm = normalizeForMatch(clause).trim();
  return (HOLDING_CLAUSE_EN.test(norm) || HOLDING_CLAUSE_ZH.test(norm)) && !REQUEST_WORDS.test(norm);
}

function hasTaskEvidence(facts: TextFacts, clause: string): boolean {
  if (facts.concepts.some((c) => !c.negated && (c.kind === 'task' || c.kind === 'object'))) return true;
  if (facts.taskTypes.length > 0 && facts.concepts.every((c) => !c.negated)) return true;
  return opensWithVerb(clause) || ZH_STEP_VERBS.test(clause.trim());
}

function mainConcept(facts: TextFacts): string | undefined {
  return [...facts.concepts].filter((c) => !c.negated && c.kind !== 'modifier' && c.kind !== 'modality').sort((a, b) => b.weight - a.weight)[0]?.id;
}

/**
 * Clauses that each ask for a step. A clause without task evidence ("a DEM", "the two images are not
 * aligned") is context for its neighbour, and consecutive clauses about the same concept
 * ("detect aircraft … and return bounding boxes") are one step.
 */
export function subTasksOf(query: string, sharedWords: string): SubTask[] {
  const clauses = splitClauses(query);
  if (clauses.length < 2) return [];
  const explicit = isExplicitSequence(query);
  const steps: { text: string; facts: TextFacts }[] = [];
  for (const clause of clauses) {
    const facts = textFacts(clause);
    const previous = steps[steps.length - 1];
    // A list item of a few words is a step whatever the graph reads in it; a one-word item ("Plan:") is not.
    const listedStep = explicit && lexicalWordCount(clause) >= 2;
    if ((!hasTaskEvidence(facts, clause) && !listedStep) || onlyHolds(clause)) {
      if (previous && !/^(?:they|it|these|those|the (?:data|images?|scenes?))\b/i.test(clause)) {
        previous.text = `${previous.text}, ${clause}`;
        previous.facts = textFacts(previous.text);
      }
      continue;
    }
    const concept = mainConcept(facts);
    if (previous && concept && concept === mainConcept(previous.facts)) {
      previous.text = `${previous.text}, ${clause}`;
      previous.facts = textFacts(previous.text);
      continue;
    }
    steps.push({ text: clause, facts });
  }
  if (steps.length < 2) return [];
  // "Mask, mosaic and clip the Landsat scenes": bare verbs share the last
  // clause's object, so each is searched as "<verb> the Landsat scenes". A verb with a pronoun ("mask
  // them") is bare too; a short clause with a word of its own after the verb ("remove haze", "compute
  // NDVI") has its object already: borrowing another one would blur it.
  const last = steps[steps.length - 1]!.text;
  const object = last.replace(/^\s*\S+\s*/, '');
  return steps.map(({ text, facts }) => {
    const bare = text !== last && object.length > 0 && facts.products.length === 0 && onlyAVerb(text);
    const searched = bare ? `${text} ${object}` : text;
    const f = bare ? textFacts(searched) : facts;
    return {
      text,
      query: sharedWords ? `${searched} (${sharedWords})` : searched,
      concepts: f.concepts,
      taskTypes: f.taskTypes,
      products: f.products,
      coverage: f.coverage,
      glossed: f.glossed,
    };
  });
}
