"""The facts and tools every stage uses: formulas that compute and log themselves, the cited
sources, and the hardware facts (links and host topology, boards, MIG and vGPU profiles,
slices, packing, the switch a fabric takes, parameter counts)."""
