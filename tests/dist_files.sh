#!/bin/sh
# Every file git tracks is in the release tarball (make dist), but for
# git's own (.gitignore, placeholders): a script or table left out of
# a local.mk fragment would be missing for whoever builds from it.
# Outside a git checkout (the sanitizer build's copy) it skips.
. "${LB_TOP_SRCDIR:-.}/tests/lib.sh"
command -v git >/dev/null && git -C "$top_srcdir" rev-parse --git-dir >/dev/null 2>&1 || {
  echo "not a git checkout: nothing to compare the release with"; exit 77; }
tmp=$(mktemp -d); at_exit 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"'
make -s -C "$top_builddir" distdir distdir="$tmp/d" >"$tmp/log" 2>&1 || { cat "$tmp/log"; fail "make distdir"; finish; }
git -C "$top_srcdir" ls-files | grep -vE '(^|/)\.gitignore$|(^|/)\.gitkeep$' | sort >"$tmp/tracked"
(cd "$tmp/d" && find . -type f | sed 's|^\./||' | sort) >"$tmp/dist"
missing=$(comm -23 "$tmp/tracked" "$tmp/dist")
if [ -n "$missing" ]; then
  fail "tracked but not in the release (add them to their directory's local.mk): $(echo $missing)"
else
  ok "all $(wc -l <"$tmp/tracked") tracked files are in the release"
fi
finish
