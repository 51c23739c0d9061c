#!/bin/sh
# Makes contract/fonts/: the PDF's DejaVu Sans faces reduced to the characters clinical text in the app's languages
# uses (Latin with every accent, combining accents, Greek, Cyrillic for patients' names, punctuation, super- and
# subscripts, currency, letterlike symbols and number forms, arrows, mathematical operators, technical symbols such
# as ⌀, geometric shapes, ♀ ♂, check marks, ligatures). jsPDF embeds only the glyphs a document uses, but it reads
# and copies the whole font's tables for every PDF: the full faces (6,000 glyphs) made a one-page PDF take about a
# second and weigh 190 KB; these (2,660 glyphs) a third of that and 55 KB.
# Needs fontTools (Debian: python3-fonttools) and the source faces (npm install --no-save dejavu-fonts-ttf@2.37.3).
set -eu
src=node_modules/dejavu-fonts-ttf/ttf
out=contract/fonts
ranges="U+0020-007E,U+00A0-024F,U+02B0-036F,U+0370-03FF,U+0400-04FF,U+1E00-1EFF,U+2000-206F,U+2070-209F,U+20A0-20CF,U+2100-214F,U+2150-218F,U+2190-21FF,U+2200-22FF,U+2300-23FF,U+2460-24FF,U+25A0-25FF,U+2600-26FF,U+2700-27BF,U+FB00-FB06,U+FFFD"
for face in DejaVuSans DejaVuSans-Bold DejaVuSans-Oblique DejaVuSans-BoldOblique; do
  /usr/bin/python3 -m fontTools.subset "$src/$face.ttf" --unicodes="$ranges" --no-hinting --layout-features='*' \
    --name-IDs='*' --name-legacy --name-languages='*' --notdef-outline --output-file="$out/$face.ttf"
done
cp node_modules/dejavu-fonts-ttf/LICENSE "$out/LICENSE"
