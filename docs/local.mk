# docs/
