import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { isVariantForm, variantSources } from './variants.js';

test('variant forms: pairs of the well-kept sources and ours, not the characters a conversion tells apart, and no chains', () => {
  // Unihan (聃/耼, 况/況), OpenCC (為/爲 in HKVariants and Unihan), ours (庶/庻, 內/内), canonical equivalence (a compatibility ideograph).
  for (const [x, y] of [['聃', '耼'], ['况', '況'], ['凢', '凡'], ['為', '爲'], ['庶', '庻'], ['內', '内'], ['恱', '悦'], ['\uF900', '豈']]) assert.ok(isVariantForm(x, y), `${x}/${y}`);
  assert.deepEqual(variantSources('庶', '庻'), ['D']);
  // Two words (Unihan's kSemanticVariant and OpenCC's regional tables fold them; a conversion tells them apart, or our table keeps them apart).
  for (const [x, y] of [['于', '於'], ['臺', '台'], ['才', '纔'], ['后', '後'], ['讀', '擴'], ['志', '識']]) assert.ok(!isVariantForm(x, y), `${x}/${y}`);
  // 勑 is a form of 敕 and of 徠; 敕 and 徠 are not one character.
  assert.ok(isVariantForm('勑', '敕') || isVariantForm('勑', '徠'));
  assert.ok(!isVariantForm('敕', '徠'));
  assert.ok(!isVariantForm('之', '之'));
});

test('the shipped table is what scripts/variant-forms.ts makes from its sources', () => {
  execFileSync(process.execPath, ['--import', 'tsx', 'scripts/variant-forms.ts', '--check'], { stdio: 'pipe' });
});
