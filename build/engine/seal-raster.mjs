// Rasterises one seal SVG (stdin) to PNG (stdout) with resvg, in a process of
// its own that seal-raster.ts kills when it takes too long (resvg is native
// code: nothing in a worker thread could stop it). Arguments: the width in
// pixels, and `text` when the SVG has text (system fonts are read only then).
// Images are left out: resvg reads any file an <image> or <feImage> names,
// so they are taken out of usvg's own tree (entities and <use> already
// expanded there, one element a line as usvg writes it) and the rest is
// drawn; stderr then says `images-left-out`. Exit 3 with a message on stderr
// for an SVG that resvg cannot read.
import { Resvg } from '@resvg/resvg-js';

const IMAGE = /<(?:image|feImage)\b/;
const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const [width, text] = process.argv.slice(2);
const options = { fitTo: { mode: 'width', value: Number(width) }, font: { loadSystemFonts: text === 'text' }, logLevel: 'off' };
try {
  let svg = new Resvg(Buffer.concat(chunks), options);
  const tree = svg.toString();
  if (IMAGE.test(tree)) {
    svg = new Resvg(tree.replace(/<(?:image|feImage)\b[^>]*\/>/g, ''), options);
    if (IMAGE.test(svg.toString())) throw new Error('it draws images that cannot be left out');
    process.stderr.write('images-left-out');
  }
  process.stdout.write(svg.render().asPng());
} catch (error) {
  process.stderr.write(String(error instanceof Error ? error.message : error).split('\n')[0]);
  process.exit(3);
}
