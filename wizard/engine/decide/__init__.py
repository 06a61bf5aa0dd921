"""What a reader decides on: several clusters as one estate, the spreads of the assumptions,
the targets, the cost of ownership and the Plan, the engine's one entry."""
