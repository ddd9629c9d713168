// Types of i18n.js (the page's UI text), for the tests and the type checker.

export type Lang = 'en' | 'zh';
export const LANGS: Lang[];
export const STRINGS: Record<Lang, Record<string, unknown>>;
export function initialLang(saved: string | null | undefined, browserLanguages: readonly string[] | null | undefined): Lang;
