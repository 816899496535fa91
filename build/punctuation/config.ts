/**
 * The edition's punctuation setting (edition.yaml `punctuation:`) and the
 * default a template takes when the edition does not say.
 */
import { isMark, KINSOKU_LEVELS, type KinsokuLevel, type ModernStandard, type PunctuationStandard } from './table.js';

export const STANDARDS: readonly PunctuationStandard[] = ['mainland', 'taiwan', 'judou', 'none'];

/** What edition.yaml says; every field optional. */
export interface PunctuationSetting {
  standard?: PunctuationStandard;
  /** Cells two adjacent marks take (clreq 6.3.2.2): 1.5 by default, 1 when set. */
  adjacent?: 1 | 1.5;
  /** A closing point may hang below a full column instead of being pulled in (clreq 6.1.3). */
  hanging?: boolean;
  /** The 禁則 level (clreq 6.1.1): none, basic, gb (the default) or strict. */
  kinsoku?: KinsokuLevel;
}

/**
 * Reads the `punctuation` value of edition.yaml: a standard (`mainland`) or a
 * mapping (`{ standard: mainland, adjacent: 1, hanging: true }`). Returns the
 * setting and what is wrong, each problem a sentence for the user.
 */
export function readPunctuationSetting(value: unknown): { setting: PunctuationSetting; problems: string[] } {
  const setting: PunctuationSetting = {};
  const problems: string[] = [];
  const standard = (v: unknown): void => {
    if (typeof v === 'string' && (STANDARDS as readonly string[]).includes(v.trim())) setting.standard = v.trim() as PunctuationStandard;
    else problems.push(`punctuation must be one of ${STANDARDS.join(', ')}, not ${JSON.stringify(v)} (the template's default is used)`);
  };
  if (typeof value === 'string') {
    standard(value);
  } else if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
      if (key === 'standard') standard(v);
      else if (key === 'adjacent') {
        if (v === 1 || v === 1.5) setting.adjacent = v;
        else problems.push(`punctuation.adjacent must be 1 or 1.5 (cells two adjacent marks take), not ${JSON.stringify(v)}`);
      } else if (key === 'hanging') {
        if (typeof v === 'boolean') setting.hanging = v;
        else problems.push(`punctuation.hanging must be true or false, not ${JSON.stringify(v)}`);
      } else if (key === 'kinsoku') {
        if (typeof v === 'string' && (KINSOKU_LEVELS as readonly string[]).includes(v)) setting.kinsoku = v as KinsokuLevel;
        else problems.push(`punctuation.kinsoku must be one of ${KINSOKU_LEVELS.join(', ')}, not ${JSON.stringify(v)}`);
      } else {
        problems.push(`unknown key punctuation.${key} is ignored; known: standard, adjacent, hanging, kinsoku`);
      }
    }
  } else {
    problems.push(`punctuation must be a standard (${STANDARDS.join(', ')}) or a mapping (standard, adjacent, hanging, kinsoku)`);
  }
  return { setting, problems };
}

/** A source is punctuated when at least one character in fifty is a mark (bare 四庫 texts have none). */
const PUNCTUATED_SHARE = 1 / 50;
const PUNCTUATED_MIN = 5;

/** Whether a text (the characters of a work) is punctuated. */
export function isPunctuated(text: string): boolean {
  let marks = 0;
  let chars = 0;
  for (const ch of text) {
    if (/\s/u.test(ch)) continue;
    chars++;
    if (isMark(ch)) marks++;
  }
  return marks >= PUNCTUATED_MIN && marks >= chars * PUNCTUATED_SHARE;
}

/**
 * The standard an edition is set in. The modern template (a grid of half
 * cells) takes `mainland` for a zh-Hans edition and `taiwan` otherwise; the
 * 四庫 template (a rigid grid) takes `judou` for a punctuated source and
 * `none` for a bare one.
 */
export function defaultStandard(grid: 'half' | 'rigid', language: string, punctuated: boolean): PunctuationStandard {
  if (grid === 'rigid') return punctuated ? 'judou' : 'none';
  return /^zh-(hans|cn|sg|my)\b/i.test(language) ? 'mainland' : 'taiwan';
}

/**
 * The standard a reflowed text (the EPUB) is punctuated in: the reading
 * system keeps every mark and sets it itself, so a judou or none edition
 * reads with its language's modern standard; an edition that names
 * mainland or taiwan keeps it.
 */
export function reflowStandard(setting: PunctuationSetting | undefined, language: string): ModernStandard {
  if (setting?.standard === 'mainland' || setting?.standard === 'taiwan') return setting.standard;
  return defaultStandard('half', language, true) as ModernStandard;
}

/** Classes for a reflowed document's body: `punct-mainland`/`punct-taiwan`, and `punct-hanging` (styles/epub.css). */
export function reflowClasses(setting: PunctuationSetting | undefined, language: string): string {
  return `punct-${reflowStandard(setting, language)}${setting?.hanging ? ' punct-hanging' : ''}`;
}
