#!/bin/sh
# Renders one picture per game to PNG, as a reader sees them: `gamerec show`
# at its default size (40 px a board cell, at least 480 wide), a generated game (seed 7) at ply 12
# (Vagabond Pai Sho also turned 45°, The Garden Gate's view), drawn by
# Debian's headless Chromium.
#   docs/pictures/make.sh [GAMEREC]   (default: target/release/gamerec)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
gamerec=${1:-target/release/gamerec}
chromium=${CHROMIUM:-chromium}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
shot() { # SVG PNG
    width=$(sed -n 's/.*<svg[^>]* width="\([0-9]*\)".*/\1/p' "$1" | head -n 1)
    height=$(sed -n 's/.*<svg[^>]* height="\([0-9]*\)".*/\1/p' "$1" | head -n 1)
    "$chromium" --headless --no-sandbox --disable-gpu --hide-scrollbars \
        --window-size="$width,$height" --screenshot="$2" "file://$1" 2>/dev/null
}
for game in oshi iqishiqi retsami roshi vagabond; do
    "$gamerec" gen --game "$game" --games 1 --seed 7 -o "$scratch/$game.grec"
    "$gamerec" show "$scratch/$game.grec" --ply 12 -o "$scratch/$game.svg"
    shot "$scratch/$game.svg" "$here/$game.png"
done
"$gamerec" show "$scratch/vagabond.grec" --ply 12 --rotate -o "$scratch/vagabond-45.svg"
shot "$scratch/vagabond-45.svg" "$here/vagabond-45.png"
