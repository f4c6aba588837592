# dat.awk: summary.csv -> DIR/dat/WORKLOAD-RESULTS-POLICY.dat for
# fig34.gp: size, makespan med min max, ratio med min max,
# ratio_received med min max.  none moves nothing, so its rows (run in
# direct mode) stand for both result modes.
NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; system("mkdir -p " out "/dat; rm -f " out "/dat/*.dat"); next }
function row(mode,   f) {
  f = out "/dat/" $c["workload"] "-" mode "-" $c["policy"] ".dat"
  printf "%s %s %s %s %s %s %s %s %s %s\n", $c["size"], $c["makespan_s_med"], $c["makespan_s_min"], $c["makespan_s_max"],
    $c["ratio_med"], $c["ratio_min"], $c["ratio_max"], $c["ratio_received_med"], $c["ratio_received_min"],
    $c["ratio_received_max"] >> f
  close(f)
}
$c["policy"] == "none" { row("origin"); row("direct"); next }
{ row($c["results"]) }
