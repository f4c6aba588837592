# docs/: diffusion and processor arrangement (seeds 001 and 002).
EXTRA_DIST += docs/DIFFUSION.md
