#!/usr/bin/env python3
"""Converts a CFF-outline OpenType font (OTTO) to TrueType outlines (glyf).

Usage: cff2ttf.py [--exit-with-stdin] IN.otf OUT.ttf

--exit-with-stdin: exit as soon as standard input closes, so that a build
that is killed does not leave the conversion running (its end of the pipe
closes with it).

Why: Chromium (Skia) embeds CFF fonts in a PDF as Type 3 fonts, which print
shops reject; TrueType outlines are embedded as CIDFontType2. Cubic curves
become quadratic ones (within MAX_ERR font units); every other table is kept
as it is: cmap, GSUB (vert/vrt2), hmtx, vhea/vmtx and VORG (Chromium reads
the vertical origin from VORG when present, whatever the outline format).

Deterministic: the same input gives the same bytes (head.modified is kept).
Called by build/cli/pdf.ts; needs python3-fonttools (scripts/setup.sh).
"""
import os
import sys
import threading

from fontTools.pens.cu2quPen import Cu2QuPen
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.ttLib import TTFont, newTable

# Font units (1000 per em in Noto CJK): about 0.01 pt at a 10 pt size.
MAX_ERR = 1.0


def quadratic_glyphs(font):
    """The glyf table of the font's glyphs, drawn through cu2qu."""
    glyph_set = font.getGlyphSet()
    glyf = newTable("glyf")
    glyf.glyphOrder = font.getGlyphOrder()
    glyf.glyphs = {}
    for name in glyf.glyphOrder:
        tt_pen = TTGlyphPen(glyph_set)
        # CFF contours run counter-clockwise, TrueType ones clockwise.
        glyph_set[name].draw(Cu2QuPen(tt_pen, MAX_ERR, reverse_direction=True))
        glyf.glyphs[name] = tt_pen.glyph()
    return glyf


def pin_vertical_origins(font, glyf):
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


def to_truetype(font):
    glyf = quadratic_glyphs(font)
    if "vmtx" in font:
        pin_vertical_origins(font, glyf)
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


def exit_with_stdin():
    def watch():
        # os.read, not sys.stdin: a buffered read holds a lock that a daemon thread must not hold at shutdown.
        while os.read(0, 4096):
            pass
        os._exit(1)

    threading.Thread(target=watch, daemon=True).start()


def main(argv):
    if len(argv) > 1 and argv[1] == "--exit-with-stdin":
        exit_with_stdin()
        argv = argv[:1] + argv[2:]
    if len(argv) != 3:
        sys.stderr.write("usage: cff2ttf.py [--exit-with-stdin] IN.otf OUT.ttf\n")
        return 2
    font = TTFont(argv[1], recalcTimestamp=False, recalcBBoxes=True)
    if "CFF " not in font:
        sys.stderr.write(f"{argv[1]}: no CFF table (not a CFF-outline OpenType font)\n")
        return 1
    to_truetype(font)
    font.save(argv[2], reorderTables=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
