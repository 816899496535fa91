/**
 * Which pages a rebuild changed: every build remembers each PDF page's
 * content hash (from the layout: no rasterising), and two builds' lists are
 * compared volume by volume. For a printer these are the plates to proof
 * again; for an editor, where a correction's reflow ends.
 */
import { createHash } from 'node:crypto';
import type { CollationEntry } from '../layout/types.js';
import { volumeLabel, type PlannedPage } from '../render/pdf/index.js';

export interface PageRecord {
  /** 0-based volume index in the book. */
  volume: number;
  /** 卷三 */
  volumeLabel: string;
  /** 1-based page in the PDF. */
  pdfPage: number;
  /** 12a: the leaf (Arabic numerals) and side, as a printer labels plates; 提要 pages carry a p (p3a). */
  leaf: string;
  hash: string;
  /** A page of the volume's 校勘記. */
  collation?: boolean;
  /** A blank page (a verso left empty so that the next volume starts on a recto). */
  blank?: boolean;
}

/**
 * A page of the layout as the hash sees it: what is printed on it — not its
 * number in the book, and not its correction marks' numbers where the marks
 * are ○ (a fix earlier in the volume renumbers them, and nothing printed changes).
 */
function pageContent(p: PlannedPage, markNumbers: boolean): string {
  if (!p.page) return JSON.stringify({ blank: p.side, title: p.volumeTitle, leaf: p.leaf });
  const { number: _book, corrections, ...rest } = p.page;
  const marks = corrections?.map((m) => (markNumbers ? m : { ...m, number: 0 }));
  return JSON.stringify({ ...rest, ...(marks ? { corrections: marks } : {}) });
}

/**
 * Page hashes remembered by the page's columns (shared with the volume
 * layout a rebuild keeps) and the rest of what the hash covers: a rebuild
 * hashes the pages of the volumes that changed, not the book's.
 */
const pageHashes = new WeakMap<object, Map<string, string>>();

function pageHash(p: PlannedPage, salt: string, markNumbers: boolean): string {
  const compute = (): string => createHash('sha256').update(salt).update(pageContent(p, markNumbers)).digest('hex').slice(0, 32);
  if (!p.page) return compute();
  const { number: _book, columns, ...rest } = p.page;
  const other = JSON.stringify([salt, markNumbers, rest]);
  let known = pageHashes.get(columns);
  if (!known) pageHashes.set(columns, (known = new Map()));
  let hash = known.get(other);
  if (!hash) known.set(other, (hash = compute()));
  return hash;
}

/**
 * One record a PDF page. `salt` holds what every page depends on besides
 * its layout (template, page size, book title): a change there changes all.
 */
export function pageRecords(planned: readonly PlannedPage[], bookTitle: string, salt: string, markNumbers = true): PageRecord[] {
  // Leaves are counted again after the front matter: pages before a volume's restart are its 提要's.
  const restart = new Map<number, number>();
  planned.forEach((p, i) => {
    if (p.page && p.page.leaf === 1 && p.side === 'recto' && i > 0 && planned[i - 1].volume === p.volume) restart.set(p.volume, i);
  });
  return planned.map((p, i) => {
    const front = restart.has(p.volume) && i < restart.get(p.volume)! ? 'p' : '';
    return {
      volume: p.volume,
      volumeLabel: volumeLabel(p.volumeTitle, bookTitle),
      pdfPage: i + 1,
      leaf: `${front}${p.leaf}${p.side === 'recto' ? 'a' : 'b'}`,
      hash: pageHash(p, salt, markNumbers),
      ...(p.page?.collation ? { collation: true } : {}),
      ...(p.page && p.page.columns.length > 0 ? {} : { blank: true }),
    };
  });
}

export interface ChangedPage {
  pdfPage: number;
  leaf: string;
  removed?: boolean;
}

export interface VolumeChange {
  volume: number;
  volumeLabel: string;
  /** Changed pages of the text, of the new build (or, past its end, of the old one). */
  pages: ChangedPage[];
  /** Changed pages of the volume's 校勘記 (a new correction changes its entry list as well as its page). */
  collation: ChangedPage[];
  /** Printed pages the volume gained (+) or lost (−); blank versos do not count. */
  grew: number;
  /** Of which its 校勘記's. */
  collationGrew: number;
}

/** Per volume, the pages whose content differs between two builds (compared by place in the volume). */
export function changedPages(before: readonly PageRecord[], after: readonly PageRecord[]): VolumeChange[] {
  const byVolume = (records: readonly PageRecord[]) => {
    const m = new Map<number, PageRecord[]>();
    for (const r of records) m.set(r.volume, [...(m.get(r.volume) ?? []), r]);
    return m;
  };
  const old = byVolume(before);
  const now = byVolume(after);
  const out: VolumeChange[] = [];
  for (const volume of [...new Set([...old.keys(), ...now.keys()])].sort((a, b) => a - b)) {
    const o = old.get(volume) ?? [];
    const n = now.get(volume) ?? [];
    const pages: ChangedPage[] = [];
    const collation: ChangedPage[] = [];
    for (let i = 0; i < Math.max(o.length, n.length); i++) {
      const page = i < n.length ? n[i] : o[i];
      if (i < n.length && i < o.length && o[i].hash === n[i].hash) continue;
      // A blank verso that comes or goes is no plate to proof.
      const blankOrNone = (r: PageRecord | undefined): boolean => r === undefined || r.blank === true;
      if (blankOrNone(n[i]) && blankOrNone(o[i])) continue;
      (page.collation ? collation : pages).push({ pdfPage: page.pdfPage, leaf: page.leaf, ...(i >= n.length ? { removed: true } : {}) });
    }
    // Growth counts printed pages: a blank verso that comes or goes is not a page of text.
    const count = (list: PageRecord[], collation: boolean): number => list.filter((r) => !r.blank && Boolean(r.collation) === collation).length;
    const collationGrew = count(n, true) - count(o, true);
    const textGrew = count(n, false) - count(o, false);
    if (pages.length + collation.length > 0) out.push({ volume, volumeLabel: (n[0] ?? o[0]).volumeLabel, pages, collation, grew: textGrew + collationGrew, collationGrew });
  }
  return out;
}

const span = (pages: readonly ChangedPage[]): string => {
  const first = pages[0].leaf;
  const last = pages[pages.length - 1].leaf;
  return first === last ? `leaf ${first}` : `leaves ${first}–${last}`;
};
const count = (n: number): string => `${n} page${n === 1 ? '' : 's'}`;

const growth = (n: number): string => (n > 0 ? `, ${count(n)} more` : n < 0 ? `, ${count(-n)} fewer` : '');

/** 卷三: leaves 12a–15b changed (8 pages), reflow ends at 15b; 校勘記 leaf 40b (1 page) */
export function describeChange(c: VolumeChange): string {
  const textGrew = c.grew - c.collationGrew;
  const text = c.pages.length > 0 ? `${span(c.pages)} changed (${count(c.pages.length)}${growth(textGrew)}), reflow ends at ${c.pages[c.pages.length - 1].leaf}` : `text unchanged${growth(textGrew)}`;
  const collation = c.collation.length > 0 ? `; 校勘記 ${span(c.collation)} (${count(c.collation.length)}${growth(c.collationGrew)})` : '';
  return `${c.volumeLabel}: ${text}${collation}`;
}

/** The report as lines, one a changed volume ("no page changed" when none did). */
export function describeChanges(changes: readonly VolumeChange[]): string[] {
  return changes.length === 0 ? ['no page changed'] : changes.map(describeChange);
}

/** A 校勘記 entry as the manifest keeps it (for check, diff and watch). */
export interface CollationRecord {
  volume: number;
  volumeLabel: string;
  number: number;
  pdfPage: number;
  locator: string;
  kind: CollationEntry['kind'];
  old: string;
  new: string;
  note?: string;
  witness?: string;
  /** corrections.yaml:3:3 */
  entry: string;
}
