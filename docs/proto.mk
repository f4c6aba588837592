# docs/proto.mk: the protocol and simulator documents.
dist_doc_DATA += docs/RMTLB.md docs/SIMULATOR.md
