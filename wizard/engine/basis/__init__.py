"""What more than one room shares: formulas that compute and log themselves, the cited sources,
and the hardware facts (links and host topology, boards, memory and compute, a GPU's slices and
the share of it each takes, the switch a fabric takes, spreads)."""
