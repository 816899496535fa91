#!/usr/bin/env bash
# Installs what the npm registry cannot give: Debian's Chromium, the CJK fonts (TW-Kai too),
# epubcheck, poppler, Python fontTools, redis-server (the job queue: diaoban worker, queue),
# Ghostscript, qpdf and the colour profiles. Runs before `npm run build` and `npm test`; does
# nothing when everything is there.
set -euo pipefail

missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
[ -f /usr/share/fonts/opentype/noto/NotoSerifCJK-Regular.ttc ] || missing+=(fonts-noto-cjk)
[ -f /usr/share/fonts/truetype/hanazono/HanaMinB.ttf ] || missing+=(fonts-hanazono)
# The 四庫 template's 楷 hand: TW-Kai (全字庫正楷體) with its Ext-B and Plus faces.
[ -f /usr/share/fonts/truetype/cns11643/TW-Kai-Plus-98_1.ttf ] || missing+=(fonts-cns11643-kai)
[ -f /usr/share/java/epubcheck.jar ] || missing+=(epubcheck)
command -v pdftoppm >/dev/null 2>&1 || missing+=(poppler-utils)
# The PDF converts Noto's CFF outlines to TrueType with fontTools (scripts/cff2ttf.py).
/usr/bin/python3 -c 'import fontTools' >/dev/null 2>&1 || missing+=(python3-fonttools)
# The collection queue (BullMQ) runs on Redis; its tests start a redis-server of their own.
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
# pdf: print — Ghostscript computes the CMYK of the colours left (its profile, libgs-common, is the output intent);
# pdf: archive — colord-data's sRGB profile is the output intent; qpdf checks the files' structure in the tests.
command -v gs >/dev/null 2>&1 || missing+=(ghostscript)
[ -f /usr/share/color/icc/ghostscript/default_cmyk.icc ] || missing+=(libgs-common)
[ -f /usr/share/color/icc/colord/sRGB.icc ] || missing+=(colord-data)
command -v qpdf >/dev/null 2>&1 || missing+=(qpdf)
# The collation's variant-form table is made from Unihan (scripts/variant-forms.ts; its test checks the shipped table).
[ -f /usr/share/unicode/Unihan_Variants.txt.bz2 ] || missing+=(unicode-data)
command -v bzcat >/dev/null 2>&1 || missing+=(bzip2)

[ ${#missing[@]} -eq 0 ] && exit 0

cmd="apt-get update && apt-get install -y --no-install-recommends ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
  echo "diaoban needs these Debian packages: ${missing[*]}" >&2
  echo "Run as root:  $cmd" >&2
  exit 1
fi
echo "diaoban: installing ${missing[*]} (Debian packages) …" >&2
export DEBIAN_FRONTEND=noninteractive
if ! { apt-get update -qq && apt-get install -y -qq --no-install-recommends "${missing[@]}"; } >/tmp/diaoban-setup.log 2>&1; then
  echo "diaoban: installing ${missing[*]} failed; see /tmp/diaoban-setup.log" >&2
  echo "Run:  $cmd" >&2
  exit 1
fi
