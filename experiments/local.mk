# experiments/: one script per table or figure, their gnuplot scripts,
# the papers' printed numbers, and the simulator's sweeps; report.sh
# gathers them into one report.
dist_noinst_SCRIPTS += experiments/report.sh \
	experiments/seed000/fig34.sh experiments/seed000/four.sh experiments/seed001/convergence.sh \
	experiments/seed002/table1.sh experiments/seed002/table3.sh \
	experiments/seed002/fig2.sh experiments/seed002/convergence.sh \
	experiments/seed002/report.sh experiments/seed002/crosscheck.sh \
	experiments/seed003/run.sh experiments/seed004/tables.sh \
	experiments/sweep_invariants.sh experiments/sweep_compare.sh experiments/proto/scale.sh experiments/proto/claim.sh experiments/proto/tmax.sh \
	experiments/fuzz/longrun.sh experiments/trace/spacetime.sh experiments/trace/plot.sh \
	experiments/simgrid/congestion.sh
EXTRA_DIST += experiments/seed000/fig34.gp experiments/seed000/summary.awk \
	experiments/seed000/dat.awk experiments/seed000/tables.awk \
	experiments/seed000/floods.awk experiments/seed000/floods_report.awk \
	experiments/seed000/verdicts.awk \
	experiments/seed002/common.sh experiments/seed002/fig2.gp \
	experiments/seed002/convergence.gp experiments/seed002/paper_table1.csv \
	experiments/seed002/paper_table2.csv experiments/seed002/paper_table3.csv \
	experiments/seed002/paper_fig2.csv \
	experiments/seed002/crosscheck.py \
	experiments/seed003/fig2.gp experiments/seed003/report.awk \
	experiments/seed004/figs.gp experiments/seed004/report.awk \
	experiments/seed004/paper_table1.csv experiments/seed004/paper_table2.csv \
	experiments/proto/scale.gp experiments/proto/summary.awk experiments/stats.awk experiments/trace/spacetime.gp experiments/term.gp \
	experiments/simgrid/congestion.gp \
	experiments/seed001/speedup.gp \
	experiments/report/lib.awk experiments/report/render.awk experiments/report/md2html.awk \
	experiments/seed000/compare.awk experiments/seed000/explain.csv experiments/seed000/received.gp \
	experiments/seed001/compare.awk experiments/seed001/explain.csv \
	experiments/seed002/compare.awk experiments/seed002/explain.csv \
	experiments/seed003/compare.awk experiments/seed003/explain.csv \
	experiments/seed004/compare.awk experiments/seed004/explain.csv

# make report: run every experiment (15-30 min on a shared 2-core
# machine) and write out/report/report.md and report.html;
# make report REPORT_FLAGS=--quick reuses the results under out/.
report: all
	LB_TOP_SRCDIR='$(abs_top_srcdir)' LB_TOP_BUILDDIR='$(abs_top_builddir)' \
	  '$(abs_top_srcdir)/experiments/report.sh' $(REPORT_FLAGS)
.PHONY: report
