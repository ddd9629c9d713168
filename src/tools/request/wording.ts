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

const NEGATION_EN = /\b(?:not|no|never|without|nor|hasn't|haven't|isn't|aren't|wasn't|weren't|lacks?|lacking|missing|un)\b/;
const NEGATION_ZH = /未|没有|尚未|还没|无|不是|缺少|没/;

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
 * Relative time ("over the last twenty years", "last night's", "过去十年") says when, not what to do;
 * its words ("last", "next") are also names of array operations in process catalogs. It is taken out of
 * the text that is matched against tools, like any other statement of the setting.
 */
export function withoutRelativeTime(text: string): string {
  return text.replace(RELATIVE_TIME_EN, ' ').replace(RELATIVE_TIME_ZH, ' ').replace(/\s{2,}/g, ' ').trim();
}

const DONE_EN = /\b(?:already|previously)\b/;
const DONE_ZH = /已经|已/;

/**
 * "already co-registered", "已经配准好的": work said to be done describes the data the user has, not a
 * step to run (like a negation, it is a statement about the data, with the opposite sign).
 */
export function doneAt(norm: string, start: number): boolean {
  const before = norm.slice(Math.max(0, start - 28), start);
  if (HAN.test(before)) return DONE_ZH.test(before.slice(-4));
  return DONE_EN.test(before.trimEnd().split(/\s+/).slice(-3).join(' '));
}

/** A negation word shortly before a mention ("have not been co-registered", "no classification"). */
export function negatedAt(norm: string, start: number): boolean {
  const before = norm.slice(Math.max(0, start - 28), start);
  if (HAN.test(before)) return NEGATION_ZH.test(withoutYesNoQuestions(before).slice(-6));
  const words = before.trimEnd().split(/\s+/).slice(-5).join(' ');
  return NEGATION_EN.test(words);
}
