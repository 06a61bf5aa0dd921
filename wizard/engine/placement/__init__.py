"""Where the demand runs on GPUs: the sharing modes (passthrough, vGPU, MIG, network-attached
pools), their checks, and the cluster of hosts with its HA and maintenance reserve."""
