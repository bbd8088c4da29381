#!/bin/sh
# Rebuilds the bundled fonts other than Inter (see README.md). Sources: Debian's
# fonts-noto-core, fonts-noto-mono and fonts-dejavu-core; npm's @fontsource/caveat and
# @fontsource/noto-emoji (`npm pack`, unpacked into $FONTSOURCE).
set -eu
OUT=${OUT:-.}
NOTO=/usr/share/fonts/truetype/noto
DEJAVU=/usr/share/fonts/truetype/dejavu
FEATURES='ccmp,locl,calt,kern,mark,mkmk,liga,rlig'
# The text faces: Latin, Greek, Cyrillic, punctuation, currency and letterlike symbols;
# everything else comes from the fallback chain.
TEXT='U+0000-036F,U+0370-03FF,U+0400-052F,U+1E00-1FFF,U+2000-206F,U+20A0-20CF,U+2100-215F,U+2190-21FF,U+2200-22FF,U+2500-259F,U+FB00-FB06,U+FFFD'
SYMBOLS='U+2000-2BFF,U+2E00-2E7F,U+3000-303F'
sub() { # in out unicodes
  python3 -m fontTools.subset "$1" --unicodes="$3" --layout-features="$FEATURES" --no-hinting --notdef-outline \
    --name-IDs='*' --name-languages='*' --output-file="$OUT/$2"
}
sub $NOTO/NotoSerif-Regular.ttf NotoSerif-Regular.ttf "$TEXT"
sub $NOTO/NotoSerif-Bold.ttf NotoSerif-Bold.ttf "$TEXT"
sub $NOTO/NotoSansMono-Regular.ttf NotoSansMono-Regular.ttf "$TEXT"
sub $NOTO/NotoSansMono-Bold.ttf NotoSansMono-Bold.ttf "$TEXT"
sub $DEJAVU/DejaVuSans.ttf DejaVuSans-Symbols.ttf "$SYMBOLS"
sub $NOTO/NotoSansMath-Regular.ttf NotoSansMath-Symbols.ttf "$SYMBOLS,U+1D400-1D7FF"
sub $NOTO/NotoSansSymbols2-Regular.ttf NotoSansSymbols2-Symbols.ttf "$SYMBOLS"
F=$FONTSOURCE
python3 - "$F" "$OUT" "$FEATURES" <<'PY'
import sys, subprocess
from fontTools.ttLib import TTFont
from fontTools.merge import Merger
src, out, features = sys.argv[1:]
def ttf(woff2, path):
    t = TTFont(woff2); t.flavor = None; t.save(path)
tmp = []
for w, name in ((400, 'Caveat-Regular.ttf'), (600, 'Caveat-SemiBold.ttf')):
    parts = []
    for s in ('latin', 'latin-ext', 'cyrillic', 'cyrillic-ext'):
        p = f'/tmp/caveat-{s}-{w}.ttf'; ttf(f'{src}/caveat/package/files/caveat-{s}-{w}-normal.woff2', p); parts.append(p)
    Merger().merge(parts).save(f'{out}/{name}')
ttf(f'{src}/noto-emoji/package/files/noto-emoji-emoji-400-normal.woff2', f'{out}/NotoEmoji-Regular.ttf')
PY
for w in Regular SemiBold; do
  mv "$OUT/Caveat-$w.ttf" /tmp/caveat-merged.ttf
  sub /tmp/caveat-merged.ttf Caveat-$w.ttf '*'
done
# Each file gets a family name of its own ("Inkboard ..."): a subset is a modified
# version under the OFL and the Bitstream Vera licence, and a name no installed font
# has keeps font matching (fontdb's, a browser's) on the bundled file.
python3 - "$OUT" <<'PY'
import sys
from fontTools.ttLib import TTFont
out = sys.argv[1]
for file, family in (('NotoSerif-Regular.ttf', 'Inkboard Serif'), ('NotoSerif-Bold.ttf', 'Inkboard Serif'),
                     ('NotoSansMono-Regular.ttf', 'Inkboard Mono'), ('NotoSansMono-Bold.ttf', 'Inkboard Mono'),
                     ('Caveat-Regular.ttf', 'Inkboard Hand'), ('Caveat-SemiBold.ttf', 'Inkboard Hand'),
                     ('DejaVuSans-Symbols.ttf', 'Inkboard Symbols'), ('NotoSansMath-Symbols.ttf', 'Inkboard Math'),
                     ('NotoSansSymbols2-Symbols.ttf', 'Inkboard Symbols 2'), ('NotoEmoji-Regular.ttf', 'Inkboard Emoji')):
    path = f'{out}/{file}'
    t = TTFont(path)
    weight = t['OS/2'].usWeightClass
    sub = 'Regular' if weight < 600 else 'Bold'
    name = t['name']
    for rec in list(name.names):
        if rec.nameID in (1, 2, 3, 4, 6, 16, 17, 21, 22):
            name.removeNames(nameID=rec.nameID)
    ps = family.replace(' ', '') + '-' + sub
    for nid, value in ((1, family), (2, sub), (3, ps), (4, f'{family} {sub}'), (6, ps)):
        name.setName(value, nid, 3, 1, 0x409)
        name.setName(value, nid, 1, 0, 0)
    t.save(path)
    print(file, family, sub, weight)
PY
