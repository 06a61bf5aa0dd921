"""Where the demand runs on GPUs: the sharing modes (passthrough, vGPU, MIG, network-attached
pools) with MIG layouts, vGPU types and the packing of slices onto GPUs and hosts, their checks,
and the cluster of hosts with its HA and maintenance reserve."""
