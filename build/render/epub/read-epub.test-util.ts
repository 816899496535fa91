/** Reading an EPUB back for the tests: unzip (jszip) and walk the XHTML (htmlparser2). */
import JSZip from 'jszip';
import { parseDocument } from 'htmlparser2';
import { Element, Text, type Node as ChildNode } from 'domhandler';
import type { LayerId } from '../../tree/types.js';

export async function unzip(bytes: Uint8Array): Promise<{ names: string[]; text: Map<string, string>; zip: JSZip }> {
  const zip = await JSZip.loadAsync(bytes);
  const names = Object.keys(zip.files);
  const text = new Map<string, string>();
  for (const n of names) if (/\.(xhtml|opf|ncx|css|xml|svg)$/.test(n) || n === 'mimetype') text.set(n, await zip.file(n)!.async('string'));
  return { names, text, zip };
}

export function parseXhtml(xhtml: string): ChildNode[] {
  return parseDocument(xhtml, { xmlMode: true }).children;
}

const classes = (e: Element): string[] => (e.attribs.class ?? '').split(/\s+/).filter(Boolean);
const isElement = (n: ChildNode): n is Element => n instanceof Element;
const isText = (n: ChildNode): n is Text => n instanceof Text;

export function findAll(nodes: ChildNode[], pred: (e: Element) => boolean, out: Element[] = []): Element[] {
  for (const n of nodes) {
    if (!isElement(n)) continue;
    if (pred(n)) out.push(n);
    findAll(n.children, pred, out);
  }
  return out;
}

export function textOf(nodes: ChildNode[]): string {
  return nodes.map((n) => (isText(n) ? n.data : isElement(n) ? textOf(n.children) : '')).join('');
}

const layerOf = (e: Element): LayerId | undefined => classes(e).find((c) => c.startsWith('note-'))?.slice(5);

/**
 * The reading text of one volume document in tree order: pop-up asides (in
 * the volume's notes document, `notesXhtml`) are read where their noteref stands (the noteref's own label is apparatus and
 * is skipped); also every note/commentary element as [layer, text]. A pop-up
 * commentary paragraph hangs off the block before it but is not part of that
 * block's notes.
 */
export function readVolume(xhtml: string, notesXhtml?: string): { text: string; notes: Array<[LayerId, string]> } {
  const doc = parseXhtml(xhtml);
  const body = findAll(doc, (e) => e.name === 'body')[0];
  // The pop-up notes are in the volume's notes document (volNN-notes.xhtml).
  const asides = new Map([...doc, ...(notesXhtml ? parseXhtml(notesXhtml) : [])].flatMap((n) => (isElement(n) ? findAll([n], (e) => e.name === 'aside') : [])).map((a) => [a.attribs.id, a]));
  const notes: Array<[LayerId, string]> = [];
  let text = '';
  let open: number[] = [];
  const emit = (s: string): void => {
    text += s;
    for (const slot of open) notes[slot][1] += s;
  };
  const readNote = (e: Element): void => {
    const slot = notes.push([layerOf(e) ?? '?', '']) - 1;
    open.push(slot);
    walk(e.children);
    open.pop();
  };
  const walk = (nodes: ChildNode[]): void => {
    for (const n of nodes) {
      if (isText(n)) {
        // Line breaks between blocks are markup layout, not text.
        const parent = n.parent instanceof Element ? n.parent : null;
        if (!(parent && (parent.name === 'section' || parent.name === 'body') && /^\s*$/.test(n.data))) emit(n.data);
        continue;
      }
      // A ruby's annotation (rt, and the rp a reader without ruby shows) is not text of the tree.
      if (!isElement(n) || n.name === 'aside' || n.name === 'rt' || n.name === 'rp') continue;
      // Apparatus, not text: a layer's printed label, a footnote's link back, a page break.
      if (['layer-label', 'backlink', 'pagebreak'].some((c) => classes(n).includes(c))) continue;
      if (n.name === 'a' && classes(n).includes('noteref')) {
        const aside = asides.get(n.attribs.href.slice(n.attribs.href.indexOf('#') + 1));
        if (!aside) throw new Error(`noteref ${n.attribs.href} has no aside`);
        if (classes(aside).includes('commentary')) {
          const saved = open;
          open = [];
          readNote(aside);
          open = saved;
        } else readNote(aside);
        continue;
      }
      if (classes(n).includes('note') || classes(n).includes('commentary')) readNote(n);
      else walk(n.children);
    }
  };
  walk(body.children);
  return { text, notes };
}
