#!/usr/bin/env bash
# Loads an HTML page of pgnkit (`pgnkit report`'s, `pgnkit tree --format html`'s: see check_tree.sh) in
# headless Chromium (Debian's `chromium` package) and checks that
#  1. the browser logs no console message at all (a script error, a blocked load: the page's
#     Content-Security-Policy turns any attempt to fetch something into a console message);
#  2. a screenshot of it is not blank (many colours), and, with --board, that a board diagram is drawn
#     (enough pixels of the light squares' colour, which nothing else on the page uses).
#
# usage: tests/browser/check_report.sh PAGE.html [--board] [--screenshot OUT.png]
# Exit codes: 0 the page passes, 1 it does not, 3 no browser (skipped; see below), 2 usage.
#
# Chromium is installed with apt-get when missing and this runs as root; otherwise the check is skipped
# (exit 3) with a note, unless PGNKIT_REQUIRE_CORPUS is set (as on CI), where a missing browser fails (1).
set -uo pipefail

page=${1:-}
[ -n "$page" ] && [ -f "$page" ] || { echo "usage: $0 PAGE.html [--board] [--screenshot OUT.png]" >&2; exit 2; }
shift
board=0
shot=""
while [ $# -gt 0 ]; do
    case "$1" in
        --board) board=1 ;;
        --screenshot) shot=${2:-}; shift ;;
        *) echo "unknown option $1" >&2; exit 2 ;;
    esac
    shift
done

browser=""
find_browser() {
    for b in chromium chromium-browser; do
        if command -v "$b" >/dev/null 2>&1; then browser=$b; return 0; fi
    done
    return 1
}
if ! find_browser; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "note: installing Debian's chromium (apt-get install chromium)" >&2
        { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium; } >/dev/null 2>&1
    fi
    if ! find_browser; then
        if [ -n "${PGNKIT_REQUIRE_CORPUS:-}" ]; then
            echo "no chromium and it could not be installed (apt-get install chromium)" >&2
            exit 1
        fi
        echo "note: no chromium (install Debian's chromium package): the browser check is skipped" >&2
        exit 3
    fi
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
url="file://$(cd "$(dirname "$page")" && pwd)/$(basename "$page")"
[ -n "$shot" ] || shot="$work/shot.png"
# A profile of our own: no state from another run, no first-run dialogs. The window is tall so that the
# first diagrams are in the screenshot of a small report.
common=(--headless --disable-gpu --no-sandbox --no-first-run --no-default-browser-check
        --disable-extensions --user-data-dir="$work/profile" --hide-scrollbars)

# 1. Console messages: with --enable-logging=stderr Chromium writes each as an INFO:CONSOLE line.
if ! timeout 120 "$browser" "${common[@]}" --enable-logging=stderr --v=0 --dump-dom "$url" \
        >"$work/dom.html" 2>"$work/log.txt"; then
    echo "chromium failed to load $page:" >&2
    tail -20 "$work/log.txt" >&2
    exit 1
fi
if ! grep -q "</html>" "$work/dom.html"; then
    echo "chromium gave no document for $page" >&2
    exit 1
fi
if grep -E "CONSOLE|Uncaught" "$work/log.txt" >"$work/console.txt"; then
    echo "the page logged to the console:" >&2
    cat "$work/console.txt" >&2
    exit 1
fi

# 2. The screenshot.
if ! timeout 120 "$browser" "${common[@]}" --window-size=1280,4000 --screenshot="$shot" "$url" \
        >/dev/null 2>"$work/shot.log" || [ ! -s "$shot" ]; then
    echo "chromium made no screenshot of $page:" >&2
    tail -20 "$work/shot.log" >&2
    exit 1
fi
python3 - "$shot" "$board" <<'PY'
# A PNG decoder for what Chromium writes (8-bit RGB or RGBA, not interlaced), standard library only.
import struct, sys, zlib

path, board = sys.argv[1], sys.argv[2] == "1"
data = open(path, "rb").read()
if data[:8] != b"\x89PNG\r\n\x1a\n":
    sys.exit("not a PNG: " + path)
pos, idat, header = 8, [], None
while pos < len(data):
    length, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + length]
    if kind == b"IHDR":
        header = struct.unpack(">IIBBBBB", body)
    elif kind == b"IDAT":
        idat.append(body)
    pos += 12 + length
width, height, depth, colour, _, _, interlace = header
if depth != 8 or colour not in (2, 6) or interlace:
    sys.exit(f"unexpected PNG format: depth {depth}, colour type {colour}, interlace {interlace}")
bpp = 3 if colour == 2 else 4
raw = zlib.decompress(b"".join(idat))
stride = width * bpp
prev = bytearray(stride)
colours = {}
for y in range(height):
    f = raw[y * (stride + 1)]
    line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0
        b = prev[i]
        c = prev[i - bpp] if i >= bpp else 0
        if f == 1:
            line[i] = (line[i] + a) & 255
        elif f == 2:
            line[i] = (line[i] + b) & 255
        elif f == 3:
            line[i] = (line[i] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    prev = line
    # Every 2nd pixel of every 2nd row: enough to count colours, four times faster in pure Python.
    if y % 2 == 0:
        for x in range(0, width, 2):
            px = bytes(line[x * bpp:x * bpp + 3])
            colours[px] = colours.get(px, 0) + 1
total = sum(colours.values())
top = max(colours.values())
light = colours.get(bytes([0xEE, 0xEE, 0xD2]), 0)
print(f"screenshot {width}x{height}: {len(colours)} colours, the commonest covers {100 * top / total:.1f}%, light squares {light} sampled pixels")
if len(colours) < 16 or top == total:
    sys.exit("the screenshot is blank (fewer than 16 colours)")
if board and light < 500:
    sys.exit("no board diagram in the screenshot (too few pixels of the light squares' colour)")
PY
