# docs/
EXTRA_DIST += docs/ARCHITECTURE.md docs/BUILD.md docs/FORMATS.md \
	docs/DEPENDENCIES.md docs/PERFORMANCE.md docs/SEEDS.md
