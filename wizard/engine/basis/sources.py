"""Citations for the formulas the engine uses, quoted in the calculation log and the report."""

SEED_MULTI_GPU = (
    "vSphere ML Accelerator Spectrum Deep Dive for Distributed Training - Multi-GPU "
    "(F. Denneman, 2023): ring allreduce, BERT-Large over 25 GbE, ImageNet iterations"
)
SEED_WHITE_PAPER = (
    "VMware, Sharing GPUs in Machine Learning Environments, Reference Architecture (2020), "
    "sections 8-9: starter and enterprise cluster design examples"
)
SEED_NVAIE = (
    "vSphere ML Accelerator Spectrum Deep Dive - NVIDIA AI Enterprise Suite (F. Denneman, 2023): "
    "SHARP in-network reduction roughly halves allreduce traffic"
)
ZERO = (
    "Rajbhandari et al., ZeRO: Memory Optimizations Toward Training Trillion Parameter Models, "
    "SC20, arXiv:1910.02054, sections 3.1 and 5 (mixed-precision Adam = 16 bytes/parameter)"
)
KORTHIKANTI = (
    "Korthikanti et al., Reducing Activation Recomputation in Large Transformer Models, "
    "arXiv:2205.05198, section 4 and Table 2 (activation bytes per transformer layer)"
)
KAPLAN = (
    "Kaplan et al., Scaling Laws for Neural Language Models, arXiv:2001.08361, section 2.1 "
    "(training compute C = 6 N D)"
)
NARAYANAN = (
    "Narayanan et al., Efficient Large-Scale Language Model Training on GPU Clusters Using "
    "Megatron-LM, SC21, arXiv:2104.04473, section 5.1 (8 N D with activation recomputation; "
    "52 % of peak sustained on A100)"
)
PCIE_SPEC = (
    "PCI-SIG PCI Express Base Specification: 8/16/32/64 GT/s per lane for Gen 3/4/5/6, "
    "128b/130b encoding (Gen 6: FLIT); x16 per direction = 15.75/31.5/63/121 GB/s"
)
ASSUMPTION = "Stated assumption of this design (editable in the design's assumptions)"
CALIBRATED = (
    "Fitted to the customer's own benchmark results (the group's calibration: files, dates and "
    "points in the proposal's Measurements used)"
)
DERIVED = "Derived from the figures above"
