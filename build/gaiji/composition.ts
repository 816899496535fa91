/**
 * Compositions: a character the transcription describes by its parts.
 * CBETA's 組字式, which Kanripo's CBETA-derived texts write in brackets
 * (`[女*省]`, `[臊-品+巳]`, `[(ㄇ@人)/ㄙ/月]`): `*` left beside right, `/`
 * above below, `@` the first around the second, `-` a part taken away, `+`
 * one added, `?` a part nobody could name, parentheses to group. And the
 * bare juxtaposed parts of 國學導航's braces (`{艹虑}`), whose structure
 * the text does not say. A structure of beside and above alone is an IDS
 * (⿰女省); `@` surrounds in one of several ways, and `-`/`+` describe a
 * character through another: neither is an IDS.
 */

export type Formula =
  | { kind: 'part'; char: string }
  | { kind: 'unknown' }
  | { kind: 'op'; op: '*' | '/' | '@' | '-' | '+'; parts: Formula[] };

/** The IDCs of a structure of beside (⿰, three: ⿲) and above (⿱, three: ⿳). */
const BESIDE = '\u2FF0';
const ABOVE = '\u2FF1';
const BESIDE3 = '\u2FF2';
const ABOVE3 = '\u2FF3';

const OPERATORS = new Set(['*', '/', '@', '-', '+']);
/** Characters that are never a part: ASCII other than `?`, white space, the brackets and the sentence marks of running text. */
const NOT_PART = /[\x00-\x7f\s【】〔〕〈〉《》「」『』（）［］｛｝。，；：！？]/u;
/** The longest formula read (the corpus's longest is 24 characters: `[(厂@((既-旡)-日+口))*頁]`). */
const MAX_FORMULA = 40;

/**
 * A CBETA 組字式's inside (`女*省`) as a formula, or undefined when it is not
 * one: a part and at least one operator, every operator between two
 * operands, parentheses balanced. `提要`, `cf. Nos. 1565-1567` are not.
 */
export function parseFormula(inside: string): Formula | undefined {
  const chars = Array.from(inside);
  if (chars.length < 3 || chars.length > MAX_FORMULA) return undefined;
  let i = 0;
  let operators = 0;
  const operand = (depth: number): Formula | undefined => {
    const ch = chars[i];
    if (ch === undefined) return undefined;
    if (ch === '(') {
      i++;
      const inner = expression(depth + 1);
      if (!inner || chars[i] !== ')') return undefined;
      i++;
      return inner;
    }
    if (ch === '?') {
      i++;
      return { kind: 'unknown' };
    }
    if (NOT_PART.test(ch) || OPERATORS.has(ch) || ch === ')') return undefined;
    i++;
    return { kind: 'part', char: ch };
  };
  const expression = (depth: number): Formula | undefined => {
    if (depth > 8) return undefined;
    let left = operand(depth);
    if (!left) return undefined;
    // A chain of one operator (`A/B/C`) is one structure of three; another operator takes what stands before it (left to right).
    let chained = false;
    while (i < chars.length && OPERATORS.has(chars[i])) {
      const op = chars[i] as '*' | '/' | '@' | '-' | '+';
      i++;
      operators++;
      const right = operand(depth);
      if (!right) return undefined;
      if (chained && left.kind === 'op' && left.op === op && (op === '*' || op === '/') && left.parts.length < 3) left = { kind: 'op', op, parts: [...left.parts, right] };
      else left = { kind: 'op', op, parts: [left, right] };
      chained = true;
    }
    return left;
  };
  const formula = expression(0);
  if (!formula || i !== chars.length || operators === 0) return undefined;
  return formula;
}

/** The IDS of a formula of beside and above alone (`⿰女省`, `⿱⿰(ㄇ…`), else undefined. */
export function formulaIds(f: Formula): string | undefined {
  if (f.kind === 'part') return f.char;
  if (f.kind === 'unknown' || (f.op !== '*' && f.op !== '/')) return undefined;
  const idc = f.op === '*' ? (f.parts.length === 3 ? BESIDE3 : BESIDE) : f.parts.length === 3 ? ABOVE3 : ABOVE;
  const parts = f.parts.map(formulaIds);
  return parts.every((p) => p !== undefined) ? idc + parts.join('') : undefined;
}

/** A formula written back as CBETA writes it (a part inside another operator's in parentheses). */
export function formulaText(f: Formula, inner = false): string {
  if (f.kind === 'part') return f.char;
  if (f.kind === 'unknown') return '?';
  // `臊-品+巳` is (臊-品)+巳: the first part of a taking away or adding needs no parentheses when it is one too.
  const text = f.parts.map((p, i) => formulaText(p, !(i === 0 && (f.op === '-' || f.op === '+') && p.kind === 'op' && (p.op === '-' || p.op === '+')))).join(f.op);
  return inner ? `(${text})` : text;
}

/** The characters that are parts of a formula, in order. */
export function formulaParts(f: Formula): string[] {
  if (f.kind === 'part') return [f.char];
  if (f.kind === 'unknown') return [];
  return f.parts.flatMap(formulaParts);
}

export type IdsNode = { char: string } | { idc: string; parts: IdsNode[] };

const ARITY: Readonly<Record<string, number>> = { [BESIDE]: 2, [ABOVE]: 2, [BESIDE3]: 3, [ABOVE3]: 3 };

/** An IDS of beside and above (what formulaIds makes) as a tree; undefined for any other IDS. */
export function parseIds(ids: string): IdsNode | undefined {
  const chars = Array.from(ids);
  let i = 0;
  const node = (): IdsNode | undefined => {
    const ch = chars[i++];
    if (ch === undefined) return undefined;
    const arity = ARITY[ch];
    if (arity === undefined) return /[\u2FF0-\u2FFF]/u.test(ch) ? undefined : { char: ch };
    const parts: IdsNode[] = [];
    for (let k = 0; k < arity; k++) {
      const p = node();
      if (!p) return undefined;
      parts.push(p);
    }
    return { idc: ch, parts };
  };
  const tree = node();
  return tree && i === chars.length ? tree : undefined;
}

/** Whether an IDC sets its parts beside each other (⿰ ⿲) rather than above each other. */
export function isBeside(idc: string): boolean {
  return idc === BESIDE || idc === BESIDE3;
}
