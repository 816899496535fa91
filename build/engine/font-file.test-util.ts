/** A test edition whose fonts.main names bad font files (font-file.test.ts, font-file.slow.ts). */
import { copyFileSync, mkdirSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { HANAMIN_A } from '../fonts/index.js';

export const BAD = ['notfont.ttf', 'cut.ttf', 'woff.ttf', 'huge.ttf', 'HanaMinA.ttf#No Such Face'];

/** The edition folder, made in `work`. */
export function badFontEdition(work: string): string {
  const dir = path.join(work, 'fonts');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'juan.md'), '# 卷一\n\n學而時習之不亦說乎\n');
  writeFileSync(path.join(dir, 'notfont.ttf'), 'Hello, this is a text file and not a font at all.\n'.repeat(20));
  const hana = readFileSync(HANAMIN_A.file);
  writeFileSync(path.join(dir, 'cut.ttf'), hana.subarray(0, 4000));
  writeFileSync(path.join(dir, 'woff.ttf'), Buffer.concat([Buffer.from('wOFF'), hana.subarray(4, 2000)]));
  writeFileSync(path.join(dir, 'huge.ttf'), '');
  truncateSync(path.join(dir, 'huge.ttf'), 2 * 1024 ** 3);
  copyFileSync(HANAMIN_A.file, path.join(dir, 'HanaMinA.ttf'));
  writeFileSync(
    path.join(dir, 'edition.yaml'),
    ['title: 論語', 'author: 孔子', 'language: zh-Hant', 'script: traditional', 'template: siku', 'date: 2026-01-01', 'sources:', '  - juan.md', 'fonts:', '  main:', ...BAD.map((f) => `    - ${f}`)].join('\n') + '\n',
  );
  return dir;
}
