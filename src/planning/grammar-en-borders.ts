/**
 * The border construction of the English grammar (grammar-en.ts): the outline of an area as a relation, its noun
 * read as such before any other construction could take it for a place's name.
 */
import type { UnscopedBorder } from './relation-logic.ts';
import { EnglishPhrases } from './grammar-en-phrases.ts';

export abstract class EnglishBorders extends EnglishPhrases {
  /** Border relations that named no place ("within 50 km of the border"): the place another phrase names. */
  protected readonly unscopedBorders: UnscopedBorder[] = [];

  /**
   * "within 50 km of the border", "near the border of X", "along X's boundary", "close to the border with X": the
   * outline of an area. The relation's noun is read as such before any construction could take it for a place's
   * name; with no place after it ("of X", "with X") nor before it ("X's"), it is the border of the place another
   * phrase names ("cities in X within 50 km of the border").
   */
  protected borders(): void {
    const re = /(?<![\p{L}\p{N}])(?:(?<prox>(?:very\s+|right\s+)?(?:near(?:\s+to)?|close\s+to|next\s+to|along(?:side)?|by|on|at|around)\s+)?(?:the\s+)?(?<owner>[\p{L}]+'s\s+)?)(?:borders?|boundar(?:y|ies)|frontiers?|border\s?lines?)(?![\p{L}\p{N}])/gu;
    for (const m of this.matchAllAt(re)) {
      const nounEnd = m.index + m[0].length;
      const d = this.dists.find((x) => !x.lowerBound && !this.isClaimed(x.start) && x.end <= m.index && /^\s*(?:away\s+)?(?:of|from|to)\s+$/.test(this.f.slice(x.end, m.index)));
      // "Austria's border": the possessor (one word) is the place.
      const ownerAt = m.groups?.owner ? m.index + m[0].lastIndexOf(m.groups.owner) : -1;
      const owner = ownerAt >= 0 ? { text: this.s.slice(ownerAt, ownerAt + m.groups!.owner!.trimEnd().length - 2), start: ownerAt, end: ownerAt + m.groups!.owner!.trimEnd().length - 2 } : undefined;
      const link = /^\s+(?:of|with)\s+/.exec(this.f.slice(nounEnd));
      const after = link ? this.extractRef(nounEnd + link[0].length, { strength: 'strong' }) : undefined;
      const start = d?.start ?? m.index;
      const said = d ? { distanceM: d.valueM } : {};
      const note = d?.note ? { distanceNote: d.note } : {};
      if (after && !after.user) {
        this.addRelation({ fn: 'border', ref: after, said, ...note, spans: [{ start, end: after.end }] });
      } else if (owner) {
        this.addRelation({ fn: 'border', ref: owner, said, ...note, spans: [{ start, end: nounEnd }] });
      } else {
        this.unscopedBorders.push({ said, ...note, spans: [{ start, end: nounEnd }] });
        this.claim({ start, end: nounEnd });
      }
    }
  }
}
