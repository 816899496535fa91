/**
 * What an edition with no edition.yaml (a lone file, a whole work's folder)
 * takes from its text, as `diaoban init` writes it into the edition.yaml it
 * makes: the script its sources are in, and the template (a text punctuated
 * as a modern edition is set in the modern template, an unpunctuated one in
 * the 四庫 template).
 */
import { convertPlain } from '../transform/script.js';
import type { Script } from '../tree/types.js';

/** Simplified or traditional: which way of converting changes fewer characters. */
export function sourceScript(text: string): Script {
  const sample = text.slice(0, 20000);
  const differing = (a: string, b: string) => {
    let n = 0;
    const x = Array.from(a);
    const y = Array.from(b);
    for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) n++;
    return n;
  };
  const simplifiedOnly = differing(sample, convertPlain(sample, 'simplified', 'traditional'));
  const traditionalOnly = differing(sample, convertPlain(sample, 'traditional', 'simplified'));
  return simplifiedOnly > traditionalOnly ? 'simplified' : 'traditional';
}

/** Modern punctuation (，。、；：？！) for more than one character in fifty. */
export function punctuated(text: string): boolean {
  return (text.match(/[，。、；：？！]/gu)?.length ?? 0) / Math.max(1, text.length) > 0.02;
}

export function readingOfText(text: string): { script: Script; template: 'modern' | 'siku' } {
  return { script: sourceScript(text), template: punctuated(text) ? 'modern' : 'siku' };
}
