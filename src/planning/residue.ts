/**
 * The text views of a question once its spatial phrases are known: the spans merged, and the residue (the
 * question without its spatial phrases and request words) that the semantic ranking uses.
 */
import type { Span } from './text.ts';

export function mergeSpans(spans: Span[]): Span[] {
  const sorted = spans.filter((s) => s.end > s.start).sort((a, b) => a.start - b.start);
  const out: Span[] = [];
  for (const s of sorted) {
    const last = out[out.length - 1];
    if (last && s.start <= last.end + 1) last.end = Math.max(last.end, s.end);
    else out.push({ ...s });
  }
  return out;
}

const LEAD_EN =
  /^(?:(?:please|hey|hi|hello|ok|okay|so|and|also|but|then|can\s+you|could\s+you|would\s+you|will\s+you|help\s+me(?:\s+to)?|i'?m\s+looking\s+for|i\s+am\s+looking\s+for|looking\s+for|i'?d\s+like(?:\s+to)?|i\s+would\s+like(?:\s+to)?|i\s+want(?:\s+to)?|i\s+need(?:\s+to)?|i\s+wanna|we\s+want(?:\s+to)?|we\s+need(?:\s+to)?|let\s+me\s+know|tell\s+me|show\s+me|find\s+me|give\s+me|get\s+me|find|show|list|search\s+for|look\s+for|recommend|suggest|which|what'?s|what\s+is|what\s+are|what|where'?s|where\s+is|where\s+are|where\s+can\s+(?:i|we)|where\s+to|where|how\s+about|are\s+there(?:\s+any)?|is\s+there(?:\s+an?|\s+any)?|anything|anywhere(?:\s+to)?|somewhere(?:\s+to)?|some\s*place(?:\s+to)?|any|the|a|an|there|are|is|can\s+(?:i|we)|i'?m|i\s+am|we'?re|i)(?![\p{L}\p{N}'])[\s,]*)+/iu;
const TRAIL_EN =
  /(?:[\s,]+(?:are|is|there|that|which|located|the|any|on|in|to|of|near|by|for|with|at|from|and|or|be|exist|found|available|please|a|an|do|does|you|know|here|one|along|near|nearby|around|within|inside|close|next|beside|between))+$/iu;
const LEAD_ZH = /^(?:能到的|可以到的|能走到的|请问一下|请问|请帮我|帮我找|帮我|麻烦|你好|您好|我想要|我想|我要|我需要|想要|想找|找一下|找|查一下|查找|推荐一下|推荐|列出|有哪些|有什么|有没有|哪里有|哪儿有|附近有|是否有|有|的|在)+/u;
const TRAIL_ZH = /(?:是哪一家|是哪家|是哪些|是什么|是哪个|在哪里|在哪儿|在哪|有哪些|有什么|有吗|有没有|吗|呢|呀|啊|哪些|哪家|哪个|是|有|的)+$/u;

/** The question without its spatial phrases and request words: what to rank by. */
export function semanticResidue(text: string, spatial: Span[], lang: 'en' | 'zh'): string {
  let rest = '';
  let pos = 0;
  for (const s of spatial) {
    rest += text.slice(pos, s.start) + ' | ';
    pos = s.end;
  }
  rest += text.slice(pos);
  const parts = rest
    .split(/[|.?!;。？！；,，、]+/u)
    .map((p) => p.replace(/\s+/g, ' ').trim())
    .map((p) => (lang === 'zh' ? p.replace(LEAD_ZH, '').replace(TRAIL_ZH, '') : p.replace(LEAD_EN, '').replace(TRAIL_EN, '')).trim())
    .filter((p) => p.length > 0 && /[\p{L}\p{N}]/u.test(p));
  return parts.join(lang === 'zh' ? '，' : ', ');
}

