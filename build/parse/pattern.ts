/**
 * An edition's own regular expressions (`layers[].pattern`,
 * `conventions.headings`, `conventions.metadata`) run on RE2 (re2js, pure
 * JavaScript): matching takes time linear in the text, so no pattern can
 * hang a build the way `^(主+)+$` hangs a backtracking engine. RE2 has no
 * lookaround and no backreferences — the constructs that backtrack — so a
 * pattern using them is refused at load with a message, as is one longer
 * than MAX_PATTERN_LENGTH.
 */
import { RE2JS } from 're2js';

/** What the importers and the layer classifier ask of a pattern; a RegExp is one too. */
export interface TextPattern {
  test(text: string): boolean;
  /** With `indices` (the `d` flag's offsets) for every group that matched. */
  exec(text: string): RegExpExecArray | null;
}

/** The longest pattern an edition may give (characters): longer is a message, not a slow compile. */
export const MAX_PATTERN_LENGTH = 1000;
/** The most patterns one list (layers, conventions.headings, conventions.metadata) may hold. */
export const MAX_PATTERNS = 200;

// RE2 names scripts without `Script=` (\p{Han}); JavaScript's /u writes both.
const SCRIPT_PROPERTY = /\\([pP])\{(?:Script|sc|Script_Extensions|scx)=([A-Za-z_]+)\}/g;

/** JavaScript's \s (RE2's is ASCII only): classical texts space with U+3000, which an edition's \s means too. */
const JS_SPACE = '\\t\\n\\x{0B}\\f\\r \\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}\\x{205F}\\x{3000}\\x{FEFF}';

/** `\s` and `\S` as JavaScript reads them, in RE2's syntax; everything else as written. */
function jsSpaces(source: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const ch = source[i];
    if (ch === '\\' && i + 1 < source.length) {
      const next = source[i + 1];
      i++;
      if (next === 's') out += inClass ? JS_SPACE : `[${JS_SPACE}]`;
      // \S in a class cannot be a class of its own: [^…] outside, the whole of Unicode less the spaces inside.
      else if (next === 'S') out += inClass ? '\\x{0}-\\x{8}\\x{E}-\\x{1F}!-\\x{9F}\\x{A1}-\\x{167F}\\x{1681}-\\x{1FFF}\\x{200B}-\\x{2027}\\x{202A}-\\x{202E}\\x{2030}-\\x{205E}\\x{2060}-\\x{2FFF}\\x{3001}-\\x{FEFE}\\x{FF00}-\\x{10FFFF}' : `[^${JS_SPACE}]`;
      else out += ch + next;
      continue;
    }
    if (ch === '[' && !inClass) inClass = true;
    else if (ch === ']' && inClass) inClass = false;
    out += ch;
  }
  return out;
}

class Re2Pattern implements TextPattern {
  constructor(private readonly re: RE2JS) {}

  test(text: string): boolean {
    return this.re.test(text);
  }

  exec(text: string): RegExpExecArray | null {
    const m = this.re.matcher(text);
    if (!m.find()) return null;
    const groups: Array<string | undefined> = [];
    const indices: Array<[number, number] | undefined> = [];
    for (let g = 0; g <= m.groupCount(); g++) {
      const start = m.start(g);
      if (start < 0 || m.group(g) === null) {
        groups.push(undefined);
        indices.push(undefined);
      } else {
        groups.push(text.slice(start, m.end(g)));
        indices.push([start, m.end(g)]);
      }
    }
    return Object.assign(groups, { index: m.start(0), input: text, groups: undefined, indices }) as unknown as RegExpExecArray;
  }
}

/** An edition's pattern compiled for linear-time matching, or why it cannot be. */
export function compilePattern(source: string): { pattern: TextPattern } | { problem: string } {
  if (source.length > MAX_PATTERN_LENGTH) return { problem: `is ${source.length} characters long; a pattern may have at most ${MAX_PATTERN_LENGTH}` };
  try {
    // JavaScript's syntax first: a pattern is written for /u (what the docs promise) …
    new RegExp(source, 'u');
  } catch (error) {
    return { problem: `is not a valid regular expression (${(error as Error).message.replace(/^Invalid regular expression: /, '')})` };
  }
  try {
    // … and runs on RE2, which refuses what it cannot match in linear time.
    return { pattern: new Re2Pattern(RE2JS.compile(jsSpaces(RE2JS.translateRegExp(source.replace(SCRIPT_PROPERTY, '\\$1{$2}'))))) };
  } catch (error) {
    const why = (error as Error).message.replace(/^error parsing regexp: /, '');
    return { problem: `cannot run in linear time (${why}); lookahead, lookbehind and backreferences are not supported in edition patterns` };
  }
}

/** A pattern the edition loader already accepted (compilePattern said yes there). */
export function editionPattern(source: string): TextPattern {
  const compiled = compilePattern(source);
  if ('problem' in compiled) throw new Error(`pattern "${source.slice(0, 40)}" ${compiled.problem}`);
  return compiled.pattern;
}

/** A match with the offsets of its groups, whichever engine the pattern runs on. */
export function execWithIndices(pattern: TextPattern, text: string): RegExpExecArray | null {
  return pattern instanceof RegExp ? new RegExp(pattern.source, pattern.flags.includes('d') ? pattern.flags : pattern.flags + 'd').exec(text) : pattern.exec(text);
}
