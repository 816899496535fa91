/** Bad seal images for the tests (seals.test.ts, seals.slow.ts). */

/** 10 levels of 10 <use> each: 10^10 rectangles. */
export function useBomb(): string {
  let svg = '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="100" height="100"><defs><rect id="l0" width="1" height="1" fill="#b3261e"/>';
  for (let i = 1; i <= 10; i++) svg += `<g id="l${i}">${Array.from({ length: 10 }, (_, k) => `<use xlink:href="#l${i - 1}" x="${k}"/>`).join('')}</g>`;
  return `${svg}</defs><use xlink:href="#l10"/></svg>`;
}

export const ENTITY = '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><text>&undefined;</text><rect width="10" height="10"/></svg>\n';
export const MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A PNG signature and an IHDR claiming `width` × `height` (then nothing). */
export function pngHeader(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(25);
  ihdr.writeUInt32BE(13, 0);
  ihdr.write('IHDR', 4, 'latin1');
  ihdr.writeUInt32BE(width, 8);
  ihdr.writeUInt32BE(height, 12);
  ihdr[16] = 8;
  ihdr[17] = 6;
  return Buffer.concat([MAGIC, ihdr]);
}
