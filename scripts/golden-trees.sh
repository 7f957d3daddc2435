#!/usr/bin/env bash
# Tree files of a fixed list of games, as sizes and SHA-256 digests, so that a change to the
# search can be checked to leave every tree byte-for-byte identical.
#   scripts/golden-trees.sh            # rebuild every tree, compare with tests/data/golden/trees.csv
#   scripts/golden-trees.sh --write    # rewrite trees.csv from this build (say why in the commit)
#   SKIP_SLOW=1 scripts/golden-trees.sh   # leave out the rows marked 'slow' (minutes each)
# tests/golden.rs runs the same comparison for the rows not marked 'slow'.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -n "${BIN:-}" ] || cargo build --release --quiet
bin=${BIN:-./target/release/mmtree}
list=tests/data/golden/games.txt
csv=tests/data/golden/trees.csv
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
out="$tmp/trees.csv"
{
  echo "# Tree files of the games in games.txt: size in bytes and SHA-256 of 'mmtree ARGS -q -o FILE'."
  echo "# Made by scripts/golden-trees.sh --write at commit $(git rev-parse --short HEAD) on $(date -u +%F)."
  echo "args,bytes,sha256"
} > "$out"
status=0
while read -r line; do
  [[ -z $line || $line == \#* ]] && continue
  args=${line#slow }
  if [[ $args != "$line" && -n ${SKIP_SLOW:-} ]]; then continue; fi
  # shellcheck disable=SC2086
  "$bin" $args -q -o "$tmp/t.mmt" > /dev/null
  bytes=$(stat -c %s "$tmp/t.mmt")
  sum=$(sha256sum "$tmp/t.mmt" | cut -d' ' -f1)
  echo "$args,$bytes,$sum" >> "$out"
  if [[ ${1:-} != --write ]]; then
    expected=$(grep -F "$args," "$csv" | awk -F, -v a="$args" '$1 == a {print $2 "," $3}')
    if [[ $expected != "$bytes,$sum" ]]; then
      echo "differs: $args (expected ${expected:-no row}, got $bytes,$sum)"
      status=1
    fi
  fi
done < "$list"
if [[ ${1:-} == --write ]]; then
  cp "$out" "$csv"
  echo "wrote $csv ($(grep -vc '^#' "$csv") lines)"
elif [[ $status == 0 ]]; then
  echo "every tree is identical to $csv"
fi
exit $status
