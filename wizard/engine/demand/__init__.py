"""What each workload needs: training, fine-tuning, serving and notebooks sized from the model,
the precision and the targets into GPUs, memory and layouts; the VMs they run in."""
