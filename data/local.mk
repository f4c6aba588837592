# data/: graphs and other inputs shipped with lbfarm.
graphsdir = $(pkgdatadir)/graphs
dist_graphs_DATA = \
	data/graphs/seed002-g1.graph data/graphs/seed002-g2.graph \
	data/graphs/seed002-g3.graph data/graphs/seed002-g4.graph \
	data/graphs/seed002-g5.graph data/graphs/seed002-g6.graph \
	data/graphs/seed002-g7.graph data/graphs/seed002-g8.graph \
	data/graphs/seed002-g9.graph
EXTRA_DIST += data/seed003-paper.csv
