# lease_plotdata.awk: lease.gp's data from leases.csv (lease.sh): for
# each kind of fault (in the order met, numbered from 0), its detection
# times (detect.dat: x = kind +- a little, y) and penalties
# (penalty.dat), and the kinds' names (kinds).
NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
{
  g = $c["kind"]
  if (!(g in idx)) { idx[g] = nk; name[nk++] = g }
  k = idx[g]; j = cnt[g]++
  x = k + (j % 2 ? 1 : -1) * 0.04 * int((j + 1) / 2)
  d = $c["kind"] == "master-kill" ? $c["workers_left_s"] : $c["detect_s"]
  if (d != "") printf "%g %s %s\n", x, d, $c["status"] == "ok" ? 1 : 0 > (o "/detect.dat")
  if ($c["penalty"] != "") printf "%g %s\n", x, $c["penalty"] > (o "/penalty.dat")
}
END {
  s = ""
  for (k = 0; k < nk; k++) s = s sprintf("%s\"%s\" %d", k ? ", " : "", name[k], k)
  print s > (o "/kinds")
  print nk > (o "/nkinds")
}
