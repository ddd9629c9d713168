/**
 * How words stand in a request: the weight of a surface form, negation and work said to be done (statements
 * about the data), and relative time (setting, not task).
 */
export const HAN = /\p{Script=Han}/u;

/** Longer, multi-word forms are more specific than single generic words. */
export function formWeight(form: string): number {
  if (HAN.test(form)) return 1 + 0.35 * (Math.min(Math.max(form.length / 2, 1), 4) - 1);
  const words = form.split(/[\s-]+/).length;
  return 1 + 0.35 * (Math.min(words, 4) - 1);
}

// Over the normalised text, where apostrophes are gone ("don't" reads "dont").
const NEGATION_EN = /\b(?:not|no|never|without|nor|dont|doesnt|didnt|hasnt|havent|hadnt|isnt|arent|wasnt|werent|cannot|cant|wont|shouldnt|lacks?|lacking|missing|un)\b/;
const NEGATION_ZH = /未|没有|尚未|还没|无|不是|缺少|没|不带|不含|不包[含括]/;

/**
 * Chinese asks yes/no questions by repeating a verb around 不 or 没 ("是不是", "有没有", "会不会"): the
 * 不 there is the question's form, not a negation of what follows, so the repeated form is removed
 * before looking for negation words.
 */
export function withoutYesNoQuestions(text: string): string {
  return text.replace(/(\p{Script=Han})[不没]\1/gu, '');
}

const NUMBER_WORD = '(?:\\d+|a|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|a few|few|several|couple of)';
const TIME_UNIT = '(?:hours?|days?|nights?|weeks?|months?|years?|decades?|seasons?|summers?|winters?|springs?|autumns?)';
const RELATIVE_TIME_EN = new RegExp(
  `\\b(?:(?:over|during|in|for|within)\\s+)?(?:the\\s+)?(?:(?:last|past|previous|recent|coming|next)\\s+(?:${NUMBER_WORD}\\s+)?${TIME_UNIT}|${NUMBER_WORD}\\s+${TIME_UNIT}\\s+ago|yesterday|today|tonight)(?:'s)?\\b`,
  'gi',
);

const RELATIVE_TIME_ZH = /(?:过去|最近|近|这|前)(?:[0-9一二两三四五六七八九十几]+)(?:个)?(?:年|月|周|天)(?:来|里|间|中)?|昨天|昨晚|前天|今天|去年|上个月|上周/g;

/**
 * Relative time ("over the past three decades", "last night's", "过去十年") says when, not what to do;
 * its words ("last", "next") are also names of array operations in process catalogs. It is taken out of
 * the text that is matched against tools, like any other statement of the setting.
 */
export function withoutRelativeTime(text: string): string {
  return text.replace(RELATIVE_TIME_EN, ' ').replace(RELATIVE_TIME_ZH, ' ').replace(/\s{2,}/g, ' ').trim();
}

const DONE_EN = /\b(?:already|previously)\b/;
const DONE_ZH = /已经|已/;

/**
 * "already co-registered", "已经做过配准的": work said to be done describes the data the user has, not a
 * step to run (like a negation, it is a statement about the data, with the opposite sign).
 */
export function doneAt(norm: string, start: number): boolean {
  const before = norm.slice(Math.max(0, start - 28), start);
  if (HAN.test(before)) return DONE_ZH.test(before.slice(-4));
  return DONE_EN.test(before.trimEnd().split(/\s+/).slice(-3).join(' '));
}

// "before we mosaic", "before deriving a slope map"; a verb must follow "before": "before the flood" and
// "before spring flooding" name a time of the setting, not a step.
const NOT_A_VERB_ING = '(?:spring|morning|evening|during|building|ceiling|[a-z]*thing)';
const LATER_STEP_EN = new RegExp(`\\bbefore\\s+(?:(?:i|we|you)\\s+(?:can\\s+|could\\s+|start\\s+|do\\s+|run\\s+)?|(?!${NOT_A_VERB_ING}\\b)[a-z]+ing\\s+)(?:[a-z]+\\s+){0,3}$`);
// "before mosaicking the tiles": the step is itself the verb after "before".
const BEFORE_EN = /\bbefore\s+$/;
const GERUND = new RegExp(`^(?!${NOT_A_VERB_ING}\\b)[a-z]+ing\\b`);
// 做分类之前, 进行变化检测前: a processing verb and the step, then "before" (not 前后 "before and after",
// 目前 "at present", 前景 "foreground").
const LATER_STEP_ZH_BEFORE = /(?:做|进行|跑|算|开始)[^，。,；;]{0,2}$/u;
const LATER_STEP_ZH_AFTER = /^[^，。,；;]{0,3}(?:之前|以前|(?<![目当提眼])前)(?![后景期面])/u;

/**
 * A step named as coming after the one asked for ("before we mosaic, …", "做分类之前…"): context of
 * the request, and a hint that its prerequisites are asked.
 */
export function laterStepAt(norm: string, start: number, end: number): boolean {
  const before = norm.slice(Math.max(0, start - 40), start);
  const mention = norm.slice(start, end);
  if (HAN.test(mention) || HAN.test(before.slice(-2))) return LATER_STEP_ZH_BEFORE.test(before) && LATER_STEP_ZH_AFTER.test(norm.slice(end));
  return LATER_STEP_EN.test(before) || (BEFORE_EN.test(before) && GERUND.test(mention));
}

// A format is the result's form after a verb of saving or converting in the same clause ("save the
// slope, cloud-optimised, as …" stops at the comma), or after "as" / "into" ("I'd like it as a GeoTIFF").
// Participles ("stored as", "delivered as") and "download" describe data at hand; so does a passive "is … as".
const OUTPUT_FORMAT_EN = /\b(?:save|saving|store|storing|export|exporting|write|writing|convert|converting)\b(?:\s+[^\s,;.:!?]+){0,5}\s+$|(?<!\b(?:such|well|is|are|was|were|comes?|came)\s)(?<!\b(?:is|are|was|were)\s+[a-z]+ed\s)\b(?:as|into)\s+(?:an?\s+|one\s+)?$/;
// 导出成, 存为, 转成; 下载 and 输出 only with 成/为/到 (下载了, 输出的 are data at hand), and no 了/的/好 between.
const OUTPUT_FORMAT_ZH = /(?:保存|导出|存成|存为|转成|转为|转换成|转换为|另存为|(?:下载|输出)(?:成|为|到))[^，。,；;了的好]{0,6}$/u;

/** A file format named as the form of the result ("save it as a GeoTIFF", "export … to NetCDF", 导出成…). */
export function outputFormatAt(norm: string, start: number): boolean {
  const before = norm.slice(Math.max(0, start - 50), start);
  return HAN.test(before.slice(-2)) ? OUTPUT_FORMAT_ZH.test(before) : OUTPUT_FORMAT_EN.test(before);
}

// The thing is the subject of a question about how it is: "how are the X doing", "how dry is the X" (not
// "how many", "how far": quantities), "the X look(s) …", "is the X …?", X长得…, X的长势, X怎么样. What it
// is, is then known; which kind it is, is not asked.
const STATE_BEFORE_EN = /\bhow\s+(?:(?!much\b|many\b|far\b|long\b|often\b|soon\b|big\b|large\b|small\b|wide\b|high\b|tall\b|deep\b|old\b)[a-z]+\s+)?(?:is|are|was|were|has|have|do|does|did)\s+(?:[a-z'-]+\s+){0,4}$|(?:^|[.;:!?]\s*)(?:is|are|was|were)\s+(?:the|my|our|your|their|these|those|this|that)\s+(?:[a-z'-]+\s+){0,2}$/;
const STATE_AFTER_EN = /^(?:\s+[a-z'-]+){0,3}?\s+(?:looks?|looked|looking|seems?|seemed|appears?|appeared)\b(?!\s+like\b)/;
const STATE_AFTER_ZH = /^[^，。？！,.?!；;]{0,6}?(?:长得|长势|怎么样|咋样|如何|好不好|状况|状态)/u;
// …unless the kind is what is asked: "which crops", "what grows there", 什么作物, 哪种树.
const KIND_ASKED_EN = /\b(?:which|what)\s+(?:[a-z-]+\s+)?(?:kinds?|types?|sorts?|species|variet(?:y|ies)|crops?|trees?)\b|\bwhat(?:s| is| are| was| were)?\s+(?:being\s+)?(?:grown|planted|sown|cultivated)\b|\bwhat\s+grows\b/;
const KIND_ASKED_ZH = /(?:什么|啥|哪种|哪些)(?:作物|庄稼|树|品种|类型|种类)|种的[是都]?(?:啥|什么)|种类|类型/u;

/**
 * "how is the maize doing", "the vines look tired", 麦子长得咋样: the mention is the subject of a question
 * about its state, and the question does not ask which kind it is.
 */
export function stateQuestionAt(norm: string, start: number, end: number): boolean {
  if (KIND_ASKED_EN.test(norm) || KIND_ASKED_ZH.test(norm)) return false;
  const after = norm.slice(end, end + 40);
  if (HAN.test(norm.slice(start, end))) return STATE_AFTER_ZH.test(after);
  return STATE_BEFORE_EN.test(norm.slice(Math.max(0, start - 50), start)) || STATE_AFTER_EN.test(after);
}

/** A negation word shortly before a mention ("are not aligned yet", "no classification"). */
export function negatedAt(norm: string, start: number): boolean {
  // A negation reaches no further than its clause: "no NIR band, only red, green and blue".
  const before = norm.slice(Math.max(0, start - 28), start).split(NEGATION_SCOPE_END).pop()!;
  if (HAN.test(before)) return NEGATION_ZH.test(withoutYesNoQuestions(before).slice(-6));
  // "not just NIR and SWIR" names them and more.
  const words = before.trimEnd().split(/\s+/).slice(-5).join(' ').replace(NOT_ONLY_EN, '');
  return NEGATION_EN.test(words);
}

const NEGATION_SCOPE_END = /[,;:.!?()，。；：！？]|\b(?:but|only|except)\b/u;

const NOT_ONLY_EN = /\bnot\s+(?:only|just|merely|simply|solely)\b/g;

const ONLY_EN = /(?<!\bnot\s+)\b(?:only|just|solely|merely|nothing but)\b(?:\s+\S+){0,2}\s*$/;
const ONLY_AFTER_EN = /^\s*(?:\S+\s+)?only\b/;
const ONLY_ZH = /(?:只有|仅有|只是|只|仅)[^，。,；;]{0,4}$/u;

/** The mention at start..end is said to be all there is ("only RGB", "RGB bands only", 只有RGB). */
export function onlyAt(norm: string, start: number, end: number): boolean {
  const before = norm.slice(Math.max(0, start - 28), start);
  if (HAN.test(before.slice(-4))) return ONLY_ZH.test(before);
  return ONLY_EN.test(before) || ONLY_AFTER_EN.test(norm.slice(end, end + 20));
}

const KEEP_VERB = '(?:keep|keeps|kept|retain|retains|want|wants|need|needs|use|take|select|leave|extract|show|pick)';
const RESTRICTION_EN = new RegExp(
  `\\b(?:only|just|solely)\\s+(?:(?:want|need|like)\\s+to\\s+)?${KEEP_VERB}\\b|\\b${KEEP_VERB}\\s+(?:only|just|solely)\\b|\\b(?:restrict|restricted|limit|limited|confine|confined|subset|trim|cut)\\s+(?:it\\s+|them\\s+|the\\s+\\S+\\s+)?(?:down\\s+)?to\\b|\\b(?:discard|drop|throw away|throw out|get rid of|remove|delete|cut away|cut off)\\s+(?:\\S+\\s+){0,3}?(?:else|rest|outside|others?)\\b|\\bnothing\\s+(?:but|except)\\b|\\b(?:everything|anything)\\s+(?:else|outside|beyond)\\b`,
  'i',
);
/**
 * "Only" before a verb (只要, 只留, 仅保留: whatever the verb, not 只有 "only if", 只是 "merely", 只能 "can only"),
 * or the rest (其他, 外面的, 剩下的) with a verb of discarding: 不要, a verb with the resultative 掉 ("away":
 * 去掉, 扔掉), 删除.
 */
const RESTRICTION_ZH = /[只仅](?![有是能会好怕不在因仅])\p{Script=Han}|(?:其他|其余|别的|以外|之外|外面|外边|外头|剩下)[^，。；]{0,8}(?:不要|\p{Script=Han}掉|删除|剔除)/u;

/**
 * A request to keep part of the data and drop the rest ("keep only…", "only want…", "discard everything
 * else", "只保留…", "其他的都不要"): a subset, whatever is kept (dates, bands, an area).
 */
export function asksForSubset(text: string): boolean {
  return HAN.test(text) ? RESTRICTION_ZH.test(text) || RESTRICTION_EN.test(text) : RESTRICTION_EN.test(text);
}

const AREA_UNIT = '(?:亩|公顷|顷|平方公里|平方千米|平方米|平米|km²|km2|hectares?|acres?|square (?:kilometres|kilometers|miles|metres|meters))';
const AREA_QUESTION_EN = new RegExp(`\\bhow (?:many|much) ${AREA_UNIT}|\\bhow (?:big|large|extensive) (?:is|are|was|were)\\b|\\bhow much (?:land|ground|ice|forest|water|of it)\\b`);
const AREA_QUESTION_ZH = new RegExp(`(?:多少|几)\\s*${AREA_UNIT}|[有多]大(?:一片|面积)?(?![雨风雪水火学])|多大`, 'u');
const DISTANCE = '\\d+(?:\\.\\d+)?\\s*(?:m|km|metres?|meters?|kilometres?|kilometers?|miles?|ft|feet)';
const BUFFER_EN = new RegExp(`\\bwithin\\s+${DISTANCE}\\s+(?:of|from|around)\\b|\\b${DISTANCE}\\s+(?:[a-z-]+\\s+){0,2}(?:around|surrounding|either side of|on each side of|on both sides of)\\b`);
const BUFFER_ZH = /(?:周[边围]|四周|附近|两侧|两边|沿线)[^，。]{0,3}\d+(?:\.\d+)?\s*(?:米|公里|千米|km|m)|\d+(?:\.\d+)?\s*(?:米|公里|千米)\s*(?:以内|之内|范围内|范围)/u;

const SUMMARY_EN = '(?:mean|means|average|averages|averaged|median|sum|total|totals|maximum|minimum|max|min|statistics|stats)';
/** Units of time and of the data itself: a summary per year or per pixel is no summary per zone. */
const NOT_ZONE_EN = '(?:year|years|month|months|week|weeks|day|days|date|dates|season|seasons|decade|decades|hour|hours|time|scene|scenes|image|images|acquisition|acquisitions|pixel|pixels|band|bands|class|classes|tile|tiles)';
const ZONAL_EN = new RegExp(
  `\\b${SUMMARY_EN}\\b(?:\\s+[a-z-]+){0,4}?\\s+(?:per|for each|for every|in each|in every|within each|by)\\s+(?:the\\s+|its\\s+|their\\s+)?(?!${NOT_ZONE_EN}\\b|[a-z-]+ing\\b)(?:[a-z-]+\\s+)?(?!${NOT_ZONE_EN}\\b)[a-z-]{3,}\\b(?!\\s+${NOT_ZONE_EN}\\b)`,
);
const SUMMARY_ZH = '(?:平均|均值|总和|总量|最大值|最小值|中位数|统计)';
/** What follows the unit a summary is made per: 内/里/的, 分别, a verb of computing, then the summary. */
const SUMMARY_AFTER_UNIT_ZH = `(?:内|里|的)?(?:分别)?(?:算|求|计算|统计|取)?(?:一下|个)?${SUMMARY_ZH}`;
const NOT_ZONE_ZH = '[年月季天日周景期时像波类]';
const ZONAL_ZH = new RegExp(`(?:按|每个|每一个|各个|逐个)(?:每个|每一个|一个)?(?!${NOT_ZONE_ZH})\\p{Script=Han}{1,6}?${SUMMARY_AFTER_UNIT_ZH}`, 'u');

const TIME_UNIT_EN = '(?:days?|weeks?|months?|seasons?|years?|decades?)';
const PER_TIME_EN = new RegExp(`\\b${SUMMARY_EN}\\b(?:\\s+[a-z-]+){0,4}?\\s+(?:per|for each|for every|in each|in every|each|every|by)\\s+(?:the\\s+)?${TIME_UNIT_EN}\\b`);
const PER_TIME_ZH = new RegExp(`(?:按|每|逐)(?:个|一个)?[日天周旬月季年](?:度)?${SUMMARY_AFTER_UNIT_ZH}`, 'u');

/** "weekly means" said the long way: "the mean for each month", 按周求平均: a summary per period of time. */
export function temporalSummary(norm: string): RegExpExecArray | null {
  return PER_TIME_EN.exec(norm) ?? PER_TIME_ZH.exec(norm);
}

/** "the mean height per forest stand", "average it for each parcel", 按县算平均: a summary per zone. */
export function zonalSummary(norm: string): RegExpExecArray | null {
  return ZONAL_EN.exec(norm) ?? ZONAL_ZH.exec(norm);
}

// A word asked about by its degree: "how steep", "more/most X", a comparative or superlative after a copula
// or "the" ("are greener", "the driest"), "X-er than". How much and how many ask for amounts, not degrees.
const DEGREE_EN = /\bhow\s+(?!much\b|many\b)([a-z]+)\b|\b(?:more|most|less|least)\s+([a-z]+)\b|\b(?:is|are|was|were|looks?|looked|get|gets|getting|got|grows?|growing|seems?|the)\s+([a-z]+(?:er|est))\b|\b([a-z]+er)\s+than\b/g;
// 有多浑, 多么干, 最绿, 更陡, 越来越干, 比较陡: the character after the marker, when the segmenter keeps the
// two apart (多云, 最近, 更新 are words of their own).
const DEGREE_ZH = /(?:有多|多么|越来越|比较|多|最|更)(?=\p{Script=Han})/gu;

/**
 * Where a text asks for the degree of a quality: the spans of the English words so asked, and the
 * offsets right after a Chinese degree marker (the quality's word starts there).
 */
export function degreeQuestions(norm: string): { english: { start: number; end: number; word: string }[]; chineseAt: number[] } {
  const english: { start: number; end: number; word: string }[] = [];
  for (const m of norm.matchAll(DEGREE_EN)) {
    const word = m.slice(1).find(Boolean)!;
    const start = m.index + m[0].lastIndexOf(word);
    english.push({ start, end: start + word.length, word });
  }
  const chineseAt = [...norm.matchAll(DEGREE_ZH)].map((m) => m.index + m[0].length);
  return { english, chineseAt };
}

/** "how many acres", "有几公顷", "how big is": a question about the area of something. */
export function areaQuestion(norm: string): RegExpExecArray | null {
  return AREA_QUESTION_EN.exec(norm) ?? AREA_QUESTION_ZH.exec(norm);
}

/** "a 300 m ring around", "within 2 km of", "周边500米": a distance around geometries, i.e. a buffer. */
export function bufferDistance(norm: string): RegExpExecArray | null {
  return BUFFER_EN.exec(norm) ?? BUFFER_ZH.exec(norm);
}

const POINT_COUNT_EN = /\b\d+\s+(?:random(?:ly placed)?\s+|sample\s+|sampling\s+|check\s+)?points\b/;
const POINT_COUNT_ZH = /[\d一二两三四五六七八九十百千]+\s*个\s*(?:随机)?(?:样|采样|检查|验证)?点(?![云])/u;

/** "100 points in each field", "布设30个验证点": a number of points to place, i.e. sampling points in geometries. */
export function pointCount(norm: string): RegExpExecArray | null {
  return POINT_COUNT_EN.exec(norm) ?? POINT_COUNT_ZH.exec(norm);
}

/**
 * What a request names as the thing to improve on or to replace ("better than the NDVI", "more robust than
 * a plain ratio", "instead of bilinear", 比NDVI更…, 比…好, 除了…以外): a point of comparison, not what is
 * asked. An English span is the one word after the construction (and a determiner): "instead of bilinear
 * resampling" still asks for resampling, and "instead of ndvi compute the evi" for the EVI. Comparisons of
 * values ("greater than 0.3", "more than ten scenes", "better than 30 m") are no alternatives: only "better",
 * "worse" and "more"/"less" with an adjective lead one, never to a number. Chinese spans need the word that
 * closes the construction; 比 in 比对, 比较, 比例, 比值 and a band ratio (波段比) is no comparison. Verbs of
 * replacing (代替, 而不是) are left out: where their object ends is not marked.
 */
const ALTERNATIVE_EN =
  /\b(?:instead\s+of|rather\s+than|other\s+than|in\s+place\s+of|alternatives?\s+to|replacements?\s+for|(?:better|worse|(?:more|less)\s+[a-z-]{3,})\s+than)\s+(?:(?:the|a|an|plain|simple|usual|standard|ordinary)\s+)?([a-z][a-z0-9-]*)/g;
const ALTERNATIVE_ZH = [
  /(?<![对之相类等正反无好段])比(?![对较例值率重如方特利])([^，。,.;；！？!?\s]{1,8}?)(?=更|还要|还|好|强|优)/gu,
  /除了([^，。,.;；！？!?\s]{1,12}?)(?=以外|之外)/gu,
];

/** The spans of `norm` that name a point of comparison (see ALTERNATIVE_EN), in order, overlaps merged. */
export function alternativeSpans(norm: string): { start: number; end: number }[] {
  const found: { start: number; end: number }[] = [];
  for (const pattern of [ALTERNATIVE_EN, ...ALTERNATIVE_ZH]) {
    for (const m of norm.matchAll(pattern)) {
      const start = m.index + m[0].length - m[1]!.length;
      found.push({ start, end: start + m[1]!.length });
    }
  }
  const out: { start: number; end: number }[] = [];
  for (const span of found.sort((a, b) => a.start - b.start)) {
    const last = out.at(-1);
    if (last && span.start <= last.end) last.end = Math.max(last.end, span.end);
    else out.push({ ...span });
  }
  return out;
}

/** The request without its points of comparison: their words are not what the tools are to match. */
export function withoutAlternatives(text: string): string {
  // The spans index the lower-cased text, which is the text's own length but for a few letters.
  const lower = text.toLowerCase();
  if (lower.length !== text.length) return text;
  let out = text;
  for (const { start, end } of alternativeSpans(lower).reverse()) out = `${out.slice(0, start)}${out.slice(end).trimStart()}`;
  return out;
}
