#!/usr/bin/env bash
# Checks a page of `pgnkit tree --format html` in headless Chromium:
#  1. what check_report.sh checks of any pgnkit page, with --board: no console message, a screenshot that is
#     not blank, a board drawn;
#  2. the click-through: in a copy of the page with a probe script added (the page itself has none, and its
#     Content-Security-Policy would refuse one, so the copy goes without it), each move link of the first
#     section (the root's) is clicked; the section it leads to must become the document's target (`:target`),
#     be a position's section other than the root's, and lead back to the root by its first navigation link.
#
# usage: tests/browser/check_tree.sh PAGE.html [--screenshot OUT.png]
# Exit codes as check_report.sh's: 0 the page passes, 1 it does not, 3 no browser (skipped), 2 usage.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
page=${1:-}
[ -n "$page" ] && [ -f "$page" ] || { echo "usage: $0 PAGE.html [--screenshot OUT.png]" >&2; exit 2; }
shift
bash "$here/check_report.sh" "$page" --board "$@"
code=$?
[ "$code" = 0 ] || exit "$code"

browser=""
for b in chromium chromium-browser; do
    if command -v "$b" >/dev/null 2>&1; then browser=$b; break; fi
done
[ -n "$browser" ] || { echo "no chromium after check_report.sh found one" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
probe='<script>
(function () {
  var root = document.querySelector("section.position");
  var links = root ? root.querySelectorAll("table.moves a[href^=\"#\"]") : [];
  var followed = 0, broken = [];
  for (var i = 0; i < links.length; i++) {
    var want = links[i].getAttribute("href").slice(1);
    links[i].click();
    var target = document.querySelector(":target");
    if (!target || target.id !== want || !target.matches("section.position") || target === root) {
      broken.push(want);
      continue;
    }
    var back = target.querySelector(".nav a");
    if (back) { back.click(); }
    if (document.querySelector(":target") !== root) { broken.push("back from " + want); continue; }
    followed++;
  }
  var out = document.createElement("pre");
  out.id = "pgnkit-probe";
  out.textContent = "links " + links.length + " followed " + followed + " broken [" + broken.join(" ") + "]";
  document.body.appendChild(out);
})();
</script>'
python3 - "$page" "$work/probe.html" "$probe" <<'PY'
import sys
page, out, probe = sys.argv[1], sys.argv[2], sys.argv[3]
text = open(page, encoding="utf-8").read()
start = text.find('<meta http-equiv="Content-Security-Policy"')
if start < 0:
    sys.exit("the page has no Content-Security-Policy")
text = text[:start] + text[text.index(">", start) + 1:]
if "</body>" not in text:
    sys.exit("the page has no </body>")
open(out, "w", encoding="utf-8").write(text.replace("</body>", probe + "\n</body>", 1))
PY
[ $? = 0 ] || exit 1
if ! timeout 120 "$browser" --headless --disable-gpu --no-sandbox --no-first-run --no-default-browser-check \
        --disable-extensions --user-data-dir="$work/profile" --window-size=1280,900 \
        --dump-dom "file://$work/probe.html" >"$work/dom.html" 2>"$work/log.txt"; then
    echo "chromium failed to load the probed copy of $page:" >&2
    tail -20 "$work/log.txt" >&2
    exit 1
fi
result=$(grep -o 'links [0-9]* followed [0-9]* broken \[[^]]*\]' "$work/dom.html")
echo "click-through: ${result:-no result}"
case "$result" in
    "links 0 "*|"") echo "no move link of the root to follow" >&2; exit 1 ;;
esac
links=$(echo "$result" | awk '{print $2}')
followed=$(echo "$result" | awk '{print $4}')
if [ "$links" != "$followed" ]; then
    echo "links of the root that lead nowhere: $result" >&2
    exit 1
fi
