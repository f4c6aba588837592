# scripts/
