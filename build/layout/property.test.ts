/**
 * Property tests over random trees (seeded, so a failure can be replayed):
 * every character set exactly once in reading order, no run over a column's
 * capacity or over another run, every chunk balanced, no page over its
 * columns, every volume on an odd book page, same input → same bytes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Block, Inline, ParagraphRole, Root } from '../tree/types.js';
import { layoutBook } from './book.js';
import { seededRandom } from '../parse/test-helpers.js';
import { layoutToJson } from './json.js';
import type { Indent, PageSpec } from './types.js';
import {
  commentary,
  glyph,
  heading,
  lacuna,
  layoutProblems,
  note,
  pagesChars,
  para,
  root,
  small,
  text,
  testSpec,
  volume,
  volumeChars,
} from './test-helpers.js';


const POOL = Array.from('禮經本義士冠筮于廟門主人玄端爵韠即位西方東面北上𠀋𡃁𢀖𣎴。，、；：」』〉「『〈　 \n');
const ROLES: ParagraphRole[] = ['text', 'text', 'text', 'ji', 'label', 'title', 'byline', 'commentary', 'front'];
const LAYERS = ['zhu', 'yinyi', 'shu', 'fuzhu', 'an'];

function generator(seed: number) {
  const rnd = seededRandom(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
  const str = (max: number) => Array.from({ length: int(0, max) }, () => pick(POOL)).join('');

  function inlines(depth: number, max: number): Inline[] {
    return Array.from({ length: int(0, max) }, (): Inline => {
      const r = rnd();
      if (r < 0.45) return text(str(12));
      if (r < 0.5) return lacuna(rnd() < 0.8 ? '□' : '□□');
      if (r < 0.55) return glyph('\ue000', rnd() < 0.5 ? pick(['𠀋', '禮', '']) : undefined);
      if (r < 0.6) return small('臣');
      if (depth < 3) {
        const n = note(pick(LAYERS), ...inlines(depth + 1, rnd() < 0.1 ? 12 : 4));
        // now and then a very long note
        if (rnd() < 0.05) n.children.push(text('注'.repeat(int(40, 200))));
        return n;
      }
      return text(str(4));
    });
  }

  function block(): Block {
    if (rnd() < 0.1) return heading(pick([1, 2, 3] as const), ...inlines(1, 3));
    const role = pick(ROLES);
    if (role === 'commentary') return commentary(pick(LAYERS), ...inlines(1, 5));
    return para(role, ...inlines(0, 8));
  }

  function indent(cells: number): Indent {
    return { first: int(0, cells + 1), rest: int(0, cells + 1) };
  }

  function spec(): PageSpec {
    const cells = int(1, 26);
    const indents: Partial<Record<ParagraphRole, Indent>> = {};
    for (const role of ROLES) if (rnd() < 0.5) indents[role] = indent(cells);
    return testSpec(int(1, 10), cells, indents, int(0, 3));
  }

  function tree(): Root {
    return root(...Array.from({ length: int(1, 4) }, (_, i) => volume(`卷${i}`, ...Array.from({ length: int(0, 12) }, block))));
  }

  return { tree, spec };
}

const TREES = 400;

test(`random trees (${TREES}): every character once, in order; cells, balance, columns, recto starts`, () => {
  for (let seed = 1; seed <= TREES; seed++) {
    const g = generator(seed);
    const tree = g.tree();
    const spec = g.spec();
    const book = layoutBook(tree, spec);
    assert.equal(book.volumes.length, tree.children.length, `seed ${seed}`);
    book.volumes.forEach((v, i) => {
      assert.equal(pagesChars(v.pages), volumeChars(tree.children[i]), `seed ${seed} volume ${i}: characters`);
      assert.deepEqual(layoutProblems(v, spec), [], `seed ${seed} volume ${i}`);
      assert.equal(v.pages[0].number % 2, 1, `seed ${seed} volume ${i} starts on a verso`);
      assert.equal(v.pages[0].side, 'recto');
    });
    const numbers = book.volumes.flatMap((v) => v.pages.map((pg) => pg.number));
    assert.deepEqual(numbers, numbers.map((_, i) => i + 1), `seed ${seed}: book page numbers`);
    assert.equal(layoutToJson(layoutBook(tree, spec)), layoutToJson(book), `seed ${seed}: deterministic`);
  }
});
