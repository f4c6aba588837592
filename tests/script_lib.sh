#!/bin/sh
# scripts/lib.sh, which every script starts with: lb_write writes what a
# command prints to the file whole, whatever names the command's own
# variables have (a caller's function looping over `t` or `f` once made
# lb_write move the loop's last file over the output), and a failing
# command leaves the old file as it was and no temporary file.
. "${LB_TOP_SRCDIR:-.}/tests/lib.sh"
tmp=$(mktemp -d); at_exit 'rm -rf "$tmp"'
mkdir "$tmp/in"
printf 'a\n' >"$tmp/in/1.csv"; printf 'b\n' >"$tmp/in/2.csv"
printf 'old\n' >"$tmp/keep.csv"
for sh in sh bash; do
  command -v $sh >/dev/null || continue
  rm -f "$tmp/out.csv"
  $sh -c '
    lb_top=$1; . "$1/scripts/lib.sh"
    lb_init
    d=$2
    cat_all() { echo head; for t in "$d"/in/*.csv; do f=$t; cat "$f"; done; }
    lb_write "$d/out.csv" cat_all
    ( lb_write "$d/keep.csv" false ) 2>/dev/null
    exit 0' x "$top_srcdir" "$tmp"
  [ "$(cat "$tmp/out.csv" 2>/dev/null | tr '\n' ' ')" = "head a b " ] && ok "$sh: lb_write wrote what the function printed" ||
    fail "$sh: out.csv holds '$(cat "$tmp/out.csv" 2>/dev/null)'"
  [ -f "$tmp/in/2.csv" ] && [ "$(cat "$tmp/in/2.csv")" = b ] && ok "$sh: the function's files are untouched" ||
    fail "$sh: the last input file was moved or changed"
  [ "$(cat "$tmp/keep.csv")" = old ] && ok "$sh: a failed command leaves the file as it was" || fail "$sh: keep.csv changed"
  left=$(ls -A "$tmp" | grep '^\.')
  [ -z "$left" ] && ok "$sh: no temporary file left" || fail "$sh: left $left"
done
finish
