#!/usr/bin/env python3
"""Converts a CFF-outline OpenType font (OTTO) to TrueType outlines (glyf); a TrueType font
with vertical metrics (TW-Kai, HanaMin) keeps its outlines and has its glyphs' vertical origins
pinned (pin_truetype).

Usage: cff2ttf.py [--exit-with-stdin] [--bank BANK] IN.otf OUT.ttf [IN.otf OUT.ttf ...]
       cff2ttf.py --serve --bank BANK   (jobs as lines "IN.otf<TAB>OUT.ttf" on
                                         stdin, "ok" or "error: …" a line back)

--exit-with-stdin (and always with --serve): exit as soon as standard input
closes, even in the middle of a conversion, so that a build that is killed
does not leave the converter running (its end of the pipe closes with it).

Why: Chromium (Skia) embeds CFF fonts in a PDF as Type 3 fonts, which print
shops reject; TrueType outlines are embedded as CIDFontType2. Cubic curves
become quadratic ones (within MAX_ERR font units); every other table is kept
as it is: cmap, GSUB (vert/vrt2), hmtx, vhea/vmtx and VORG (Chromium reads
the vertical origin from VORG when present, whatever the outline format).

Deterministic: the same input gives the same bytes (head.modified is kept).
Called by build/engine/pdf.ts; needs python3-fonttools (scripts/setup.sh).

--bank: a file of glyphs already converted from the same face (by glyph
name: a CID-keyed face's names are its CIDs, the same in every subset), so
that a subset of a few new characters, or of another volume of the same book,
converts only the glyphs it has not seen. A glyph's conversion depends on
nothing but the glyph, so the bytes are the same with or without the bank.
The bank is rewritten atomically (temp file, rename); a damaged one is
ignored and rebuilt.
"""
import os
import pickle
import queue
import re
import socket
import sys
import threading

from fontTools.pens.cu2quPen import Cu2QuPen
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.ttLib import TTFont, newTable

# Font units (1000 per em in Noto CJK): about 0.01 pt at a 10 pt size.
MAX_ERR = 1.0


def quadratic_glyphs(font, bank):
    """The glyf table of the font's glyphs, drawn through cu2qu (or taken from the bank)."""
    glyph_set = font.getGlyphSet()
    glyf = newTable("glyf")
    glyf.glyphOrder = font.getGlyphOrder()
    glyf.glyphs = {}
    for name in glyf.glyphOrder:
        if name in bank:
            continue
        tt_pen = TTGlyphPen(glyph_set)
        # CFF contours run counter-clockwise, TrueType ones clockwise.
        glyph_set[name].draw(Cu2QuPen(tt_pen, MAX_ERR, reverse_direction=True))
        glyf.glyphs[name] = tt_pen.glyph()
    return glyf


def pin_vertical_origins(font, glyf, bank):
    """Gives every drawn glyph a one-point contour at its vertical origin.

    The sanitizer Chromium runs on web fonts (OTS) drops VORG from a TrueType
    font, and Chromium then takes a glyph's vertical origin as the top of its
    bounds, rounded out to whole pixels, plus vmtx's top side bearing: a
    different error for each glyph (up to a pixel, glyphs jitter in the
    column). With a point at the origin, the top of the bounds is the origin
    (for glyphs that do not rise above it) and every glyph of a size moves
    the same. The point draws nothing.
    """
    vorg = font["VORG"] if "VORG" in font else None
    default = vorg.defaultVertOriginY if vorg else font["OS/2"].sTypoAscender
    vmtx = font["vmtx"].metrics
    hmtx = font["hmtx"].metrics
    for name in glyf.glyphOrder:
        if name in bank:
            continue
        glyph = glyf.glyphs[name]
        if glyph.numberOfContours <= 0:
            continue
        origin = vorg.VOriginRecords.get(name, default) if vorg else default
        x = hmtx[name][0] // 2
        square = [(x, origin - 1), (x, origin), (x + 1, origin), (x + 1, origin - 1)]
        for contour in (square, square[::-1]):
            for point in contour:
                glyph.coordinates.append(point)
                glyph.flags.append(1)  # on-curve
            glyph.endPtsOfContours.append(len(glyph.coordinates) - 1)
            glyph.numberOfContours += 1
        glyph.recalcBounds(glyf)
        advance, _ = vmtx[name]
        vmtx[name] = (advance, origin - glyph.yMax)


class Banked:
    """A glyph from the bank: its compiled bytes as they were made, and (for the
    tables that read them: maxp, head, hhea, vhea) the glyph itself, never
    compiled again — recompiling every glyph of a subset was most of a
    conversion's time."""

    def __init__(self, glyph, data):
        self._glyph = glyph
        self._data = data

    def compile(self, glyf_table, recalc_bboxes=True, **_):
        return self._data

    def __getattr__(self, name):
        return getattr(self._glyph, name)


def to_truetype(font, bank):
    """Converts in place; `bank` maps glyph names to (compiled glyph, its bytes, top side bearing) and gains the new ones."""
    glyf = quadratic_glyphs(font, bank)
    vertical = "vmtx" in font
    if vertical:
        pin_vertical_origins(font, glyf, bank)
    vmtx = font["vmtx"].metrics if vertical else None
    for name in glyf.glyphOrder:
        if name not in bank:
            # Compiled as the font's compile would (bounds recalculated, coordinates rounded), once.
            glyph = glyf.glyphs[name]
            data = glyph.compile(glyf, True)
            bank[name] = (glyph, data, vmtx[name][1] if vmtx is not None else None)
        glyph, data, tsb = bank[name]
        glyf.glyphs[name] = Banked(glyph, data)
        if vmtx is not None and tsb is not None:
            vmtx[name] = (vmtx[name][0], tsb)
    del font["CFF "]
    font["glyf"] = glyf
    font["loca"] = newTable("loca")

    maxp = newTable("maxp")
    maxp.tableVersion = 0x00010000
    maxp.numGlyphs = len(glyf.glyphOrder)
    # No hinting: the zones, storage and instruction limits stay at their minimum.
    maxp.maxZones = 1
    for field in ("maxTwilightPoints", "maxStorage", "maxFunctionDefs", "maxInstructionDefs",
                  "maxStackElements", "maxSizeOfInstructions", "maxComponentElements",
                  "maxComponentDepth"):
        setattr(maxp, field, 0)
    font["maxp"] = maxp  # the other max* fields are recalculated on compile

    post = font["post"]
    # Format 3: no glyph names (a CID-keyed subset has only cidNNNNN ones).
    post.formatType = 3.0
    post.extraNames = []
    post.mapping = {}
    post.glyphOrder = None

    font["head"].glyphDataFormat = 0
    font["head"].indexToLocFormat = 0  # set on compile from the glyf size
    font.sfntVersion = "\x00\x01\x00\x00"


BANK_VERSION = 2


def load_bank(path):
    if not path or not os.path.exists(path):
        return {}
    try:
        with open(path, "rb") as f:
            stored = pickle.load(f)
        # A bank of another version (or damaged) is rebuilt, never trusted.
        if not isinstance(stored, dict) or stored.get("version") != BANK_VERSION or not isinstance(stored.get("glyphs"), dict):
            return {}
        return stored["glyphs"]
    except Exception:
        return {}


# This machine's name as build/engine/cleanup.ts writes it (HOST): workers on several machines share the font cache.
HOST = re.sub(r"[^A-Za-z0-9]", "", socket.gethostname()) or "host"


def owner_tag():
    """`<pid>_<start time>@<host>`, as build/engine/cleanup.ts names the temp files of a process (removeStale removes a dead one's)."""
    pid = os.getpid()
    try:
        with open(f"/proc/{pid}/stat") as f:
            stat = f.read()
        return f"{pid}_{stat[stat.rindex(')') + 2:].split(' ')[19]}@{HOST}"
    except OSError:
        return f"{pid}@{HOST}"


def save_bank(path, bank):
    # Another build may have added glyphs meanwhile: keep theirs too.
    merged = load_bank(path)
    merged.update(bank)
    temp = os.path.join(os.path.dirname(path), f".{os.path.basename(path)}.{owner_tag()}.tmp")
    with open(temp, "wb") as f:
        pickle.dump({"version": BANK_VERSION, "glyphs": merged}, f, protocol=pickle.HIGHEST_PROTOCOL)
    os.replace(temp, path)


def pin_truetype(font):
    """A TrueType face's glyphs pinned at the face's vertical origin (its OS/2 typographic ascender, as for a
    converted face without VORG): Chromium's rounding of each glyph's top then moves every glyph of a size
    alike (TW-Kai's glyph tops were up to a pixel apart in a column), and a face whose top side bearings are
    wrong (TW-Kai-Ext-B and -Plus: origins 1.4 em above the baseline) sets its glyphs in their cells."""
    glyf = font["glyf"]
    vmtx = font["vmtx"].metrics
    hmtx = font["hmtx"].metrics
    origin = font["OS/2"].sTypoAscender
    for name in font.getGlyphOrder():
        glyph = glyf[name]
        if glyph.numberOfContours <= 0:
            continue
        advance, _ = vmtx[name]
        x = hmtx[name][0] // 2
        square = [(x, origin - 1), (x, origin), (x + 1, origin), (x + 1, origin - 1)]
        for contour in (square, square[::-1]):
            for point in contour:
                glyph.coordinates.append(point)
                glyph.flags.append(1)  # on-curve
            glyph.endPtsOfContours.append(len(glyph.coordinates) - 1)
            glyph.numberOfContours += 1
        glyph.recalcBounds(glyf)
        vmtx[name] = (advance, origin - glyph.yMax)


def convert(source, target, bank):
    font = TTFont(source, recalcTimestamp=False, recalcBBoxes=True)
    if "CFF " in font:
        to_truetype(font, bank)
    elif "glyf" in font and "vmtx" in font:
        pin_truetype(font)
    else:
        raise ValueError(f"{source}: neither CFF outlines nor TrueType ones with vertical metrics")
    font.save(target, reorderTables=True)


def exit_with_stdin(lines=None):
    """Reads standard input on a thread of its own (its lines onto `lines`); exits at once when it closes."""

    def watch():
        pending = b""
        # os.read, not sys.stdin: a buffered read holds a lock that a daemon thread must not hold at shutdown.
        while True:
            chunk = os.read(0, 65536)
            if not chunk:
                os._exit(1)
            if lines is None:
                continue
            pending += chunk
            *done, pending = pending.split(b"\n")
            for line in done:
                lines.put(line.decode("utf-8"))

    threading.Thread(target=watch, daemon=True).start()


def serve(bank_path):
    """Jobs from stdin until it closes (the build that started it is gone): the bank stays loaded."""
    bank = load_bank(bank_path)
    jobs = queue.Queue()
    exit_with_stdin(jobs)
    while True:
        line = jobs.get()
        if not line:
            continue
        known = len(bank)
        try:
            source, target = line.split("\t")
            convert(source, target, bank)
            sys.stdout.write("ok\n")
        except Exception as error:  # reported to the build, which says what failed
            sys.stdout.write("error: " + str(error).replace("\n", " ") + "\n")
        sys.stdout.flush()
        # After the answer: the build goes on while the bank is written (atomically).
        if len(bank) > known:
            save_bank(bank_path, bank)
    return 0


def main(argv):
    args = argv[1:]
    if args[:1] == ["--exit-with-stdin"]:
        exit_with_stdin()
        args = args[1:]
    if args[:1] == ["--serve"]:
        return serve(args[2] if args[1:2] == ["--bank"] and len(args) > 2 else None)
    bank_path = None
    if args[:1] == ["--bank"]:
        bank_path = args[1] if len(args) > 1 else None
        args = args[2:]
    if not args or len(args) % 2 != 0:
        sys.stderr.write("usage: cff2ttf.py [--exit-with-stdin] [--bank BANK] IN.otf OUT.ttf [IN.otf OUT.ttf ...]\n")
        return 2
    bank = load_bank(bank_path)
    known = len(bank)
    for i in range(0, len(args), 2):
        try:
            convert(args[i], args[i + 1], bank)
        except ValueError as error:
            sys.stderr.write(f"{error}\n")
            return 1
    if bank_path and len(bank) > known:
        save_bank(bank_path, bank)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
