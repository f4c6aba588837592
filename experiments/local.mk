# experiments/
