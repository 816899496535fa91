/**
 * The edition.yaml property (edition-fuzz.ts), a small fixed sample: every
 * generated edition.yaml loads without an internal error, each error has a
 * position, and what the schema accepted no later stage refuses. `npm run
 * fuzz` runs 400 and counts hangs.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { checkEdition, editionYaml } from './edition-fuzz.js';

test('generated edition.yaml files: no internal error, every error positioned, nothing accepted then refused', () => {
  let messages = 0;
  fc.assert(
    fc.property(editionYaml, (yaml) => {
      const o = checkEdition(yaml);
      assert.equal(o.crashed, undefined, o.crashed);
      assert.equal(o.unpositioned, 0, 'errors without a position');
      assert.equal(o.accepted, undefined, o.accepted);
      messages += o.messages;
    }),
    { seed: 7, numRuns: 12 },
  );
  assert.ok(messages > 12, `the sample exercises the schema (${messages} messages)`);
});

test('the cases the issue names load with messages, not errors: a page of 1.2e19, a 100,000-character pattern, Object\'s names', () => {
  for (const yaml of [
    'title: 試\nauthor: 某\nsources: [a.md]\nseals: [{ image: s.png, page: 1.2e19 }]\npage: { size: 5, bleed: [1] }\nfonts: "x"\nnotes: [a]\n',
    `title: 試\nauthor: 某\nsources: [a.md]\nlayers: [{ layer: an, pattern: "${'(a+)+'.repeat(20_000)}" }]\n`,
    'title: 試\nauthor: 某\nsources: [a.md]\nconventions: { labels: { constructor: zhu, __proto__: shu } }\nconversion: { prefer: { toString: 爲 } }\n',
  ]) {
    const o = checkEdition(yaml);
    assert.equal(o.crashed, undefined, o.crashed);
    assert.equal(o.unpositioned, 0);
  }
});
