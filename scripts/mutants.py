"""Plant plausible bugs one at a time in a copy of the repository and check that the tests fail.

Each mutant is an exact snippet of the source and its replacement: the kind of slip a maintainer
makes in the numbers that matter (a missing term, an off-by-one, a rule left out). The copy is
taken from the last commit (``git archive HEAD``; ``--worktree`` copies the files as they are on
disk instead), so the working tree is never touched. A snippet that is not found exactly once
stops the run before any test: the code has moved and the mutant must follow it.

    python scripts/mutants.py               # every mutant, about 3 minutes on two cores
    python scripts/mutants.py --list        # names, files and the tests each one runs
    python scripts/mutants.py mig-compute   # only the mutants whose names contain a word

A mutant is caught when its tests fail (or time out); the run exits non-zero when the score is
below ``--min-score`` (90 %), when a survivor has no reason in ``KNOWN_SURVIVORS``, or when one
listed there is caught.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Mutant:
    name: str
    path: str
    old: str
    new: str
    tests: tuple[str, ...]
    why: str  # the bug it stands for


MUTANTS: list[Mutant] = [
    Mutant(
        "activation-norms-split-without-sp",
        "wizard/engine/demand/training_plan.py",
        '    "((8 + norm_extra + dropout_bytes) * h / split"',
        '    "((8 + norm_extra + dropout_bytes) * h / t"',
        ("tests/engine/test_memory.py", "tests/engine/test_training_calibration.py"),
        "the layer's norm and residual activations split over the tensor-parallel GPUs without "
        "sequence parallelism",
    ),
    Mutant(
        "mig-compute-rule-in-place",
        "wizard/engine/placement/mig.py",
        "        if self.compute + p.compute_slices > gpu.mig.compute_slices:\n"
        "            return []\n",
        "",
        ("tests/engine/test_mig.py",),
        "MigState.place forgets the compute-slice rule",
    ),
    Mutant(
        "mig-compute-rule-in-validator",
        "wizard/engine/placement/mig.py",
        "    if compute > mig.compute_slices:",
        "    if compute > mig.memory_slices:",
        ("tests/engine/test_mig.py",),
        "the validator compares compute slices with the memory slices",
    ),
    Mutant(
        "mig-overlap-off-by-one",
        "wizard/engine/placement/mig.py",
        "for s in range(inst.start, inst.start + p.placement_size):",
        "for s in range(inst.start + 1, inst.start + p.placement_size):",
        ("tests/engine/test_mig.py",),
        "the memory-overlap check skips an instance's first slice",
    ),
    Mutant(
        "mig-place-start-off-by-one",
        "wizard/engine/placement/mig.py",
        "            self.mask | ((1 << p.placement_size) - 1) << start,\n",
        "            self.mask | ((1 << p.placement_size) - 1) << max(start - 1, 0),\n",
        ("tests/engine/test_mig.py",),
        "the placement mask is shifted one slice short of the start",
    ),
    Mutant(
        "ha-one-host-too-many",
        "wizard/engine/placement/cluster.py",
        "return HaHosts(k * unit, k * unit, policy.maintenance_hosts, rule, N_PLUS_K, inputs)",
        "return HaHosts(k * unit, k * unit + 1, policy.maintenance_hosts, rule, N_PLUS_K, inputs)",
        ("tests/engine/test_cluster.py", "tests/hardening/test_engine_properties.py"),
        "N+k adds one host more than its k failure domains",
    ),
    Mutant(
        "ha-percent-of-capacity",
        "wizard/engine/placement/cluster.py",
        "capacity_hosts * policy.reserve_percent / (100 - policy.reserve_percent) - 1e-9",
        "capacity_hosts * policy.reserve_percent / 100 - 1e-9",
        ("tests/engine/test_cluster.py", "tests/hardening/test_engine_properties.py"),
        "a percentage reserve taken of the capacity hosts instead of the whole cluster",
    ),
    Mutant(
        "time-to-train-without-communication",
        "wizard/engine/demand/training_physics.py",
        '    "compute_s + bubble_s + tp_comm_s + exposed_allreduce_s + overlap_contention_s"',
        '    "compute_s + bubble_s + tp_comm_s + overlap_contention_s"',
        ("tests/engine/test_compute_comms.py", "tests/engine/test_training_calibration.py"),
        "the exposed all-reduce left out of the iteration time",
    ),
    Mutant(
        "pipeline-bubble-p-over-m",
        "wizard/engine/demand/training_physics.py",
        'BUBBLE_S = Formula("compute_s * (pp - 1) / (virtual_stages * micro_batches)")',
        'BUBBLE_S = Formula("compute_s * pp / (virtual_stages * micro_batches)")',
        ("tests/engine/test_compute_comms.py", "tests/engine/test_training_calibration.py"),
        "pipeline bubble p/m instead of (p - 1)/m",
    ),
    Mutant(
        "kv-cache-without-v",
        "wizard/engine/demand/serving_physics.py",
        'KV_GB_PER_TOKEN = Formula("2 * layers * kv_heads * head_dim * kv_bytes / 1e9")',
        'KV_GB_PER_TOKEN = Formula("layers * kv_heads * head_dim * kv_bytes / 1e9")',
        ("tests/engine/test_serving_calibration.py", "tests/engine/test_memory.py"),
        "the KV cache counts the keys and forgets the values",
    ),
    Mutant(
        "kv-default-16-bit-for-fp4",
        "wizard/engine/demand/inference.py",
        "    if precision in (Precision.FP8, Precision.FP4) and gpu.tflops.fp8:\n",
        "    if precision is Precision.FP8 and gpu.tflops.fp8:\n",
        ("tests/engine/test_attention_precision.py", "tests/engine/test_memory.py"),
        "FP4 weights keep a 16-bit KV cache by default where the stacks run FP8",
    ),
    Mutant(
        "kv-shards-beyond-kv-heads",
        "wizard/engine/demand/serving_physics.py",
        "    return min(tensor, m.kv_heads)\n",
        "    return tensor\n",
        ("tests/engine/test_serving_layouts.py", "tests/engine/test_serving_calibration.py"),
        "the KV cache split over more GPUs than there are KV heads",
    ),
    Mutant(
        "ttft-without-queue",
        "wizard/engine/demand/serving.py",
        'TTFT_MS = Formula("1000 * (first_token_s + prefill_wait_s + queue_wait_s)")',
        'TTFT_MS = Formula("1000 * (first_token_s + prefill_wait_s)")',
        ("tests/engine/test_serving_calibration.py", "tests/engine/test_serving_examples.py"),
        "time to first token leaves out the wait for KV-cache room",
    ),
    Mutant(
        "core-licence-minimum",
        "wizard/engine/fitout/bom.py",
        'CORE_LICENCES = Formula("hosts * sockets * max(cores_per_socket, minimum_per_cpu)")',
        'CORE_LICENCES = Formula("hosts * sockets * cores_per_socket")',
        ("tests/engine/test_bom.py", "tests/engine/test_vcf_platform.py"),
        "per-core licences without the 16-core minimum per CPU",
    ),
    Mutant(
        "power-of-two-not-strict",
        "wizard/engine/platform/software.py",
        "    p = 1\n    while p < value:\n",
        "    p = 1\n    while p <= value:\n",
        ("tests/engine/test_software.py",),
        "the MMIO size rounds to the power of two strictly above, not at or above",
    ),
    Mutant(
        "rack-power-ceil",
        "wizard/engine/fitout/racks.py",
        '    "max(min(floor(rack_units / host_units), floor(rack_limit_w / host_w)), 1)"',
        '    "max(min(floor(rack_units / host_units), ceil(rack_limit_w / host_w)), 1)"',
        ("tests/engine/test_power.py",),
        "hosts per rack rounded up against the power limit",
    ),
    Mutant(
        "fabric-uplinks-rounded-down",
        "wizard/engine/fitout/fabric.py",
        "        down = max(per_leaf)\n"
        "        up = math.ceil(down * speed / (oversub * up_speed) - 1e-9)\n",
        "        down = max(per_leaf)\n"
        "        up = math.floor(down * speed / (oversub * up_speed) + 1e-9)\n",
        ("tests/engine/test_fabric.py",),
        "leaf uplinks rounded down, so the built oversubscription exceeds the target",
    ),
    Mutant(
        "nvlink-across-bridge-groups",
        "wizard/engine/basis/topology.py",
        "    if ga is not None and ga == lay.group(b):",
        "    if ga is not None or lay.group(b) is not None:",
        ("tests/engine/test_topology.py", "tests/engine/test_links.py"),
        "two GPUs in different NVLink bridge groups counted as NVLink peers",
    ),
    Mutant(
        "vgpu-max-per-gpu",
        "wizard/engine/placement/vgpu.py",
        "            if counts[p.name] > p.max_per_gpu:",
        "            if counts[p.name] > p.max_per_gpu + 1:",
        ("tests/engine/test_vgpu_types.py", "tests/engine/test_sharing.py"),
        "one vGPU more than the profile's maximum per GPU",
    ),
    Mutant(
        "mixed-size-release-branch",
        "wizard/engine/platform/compat.py",
        "    if release is None or release.vgpu_branch >= int(float(first)):",
        "    if release is None or release.vgpu_branch > int(float(first)):",
        ("tests/engine/test_release_choice.py", "tests/engine/test_platform_rules.py"),
        "the first vGPU branch with mixed sizes is refused",
    ),
    Mutant(
        "time-sliced-mig-members-compute",
        "wizard/engine/placement/sharing.py",
        "or k * need.mig_compute > sh + 1e-9:",
        "or need.mig_compute > sh + 1e-9:",
        ("tests/engine/test_mig_time_slicing.py",),
        "a time-sliced MIG instance promised to k members checks the compute of one",
    ),
    Mutant(
        "mig-vgpu-type-name",
        "wizard/model/catalog_gpu.py",
        '-{profile.compute_slices}-{profile.memory_gb:g}{suffix}"',
        '-{profile.memory_slices}-{profile.memory_gb:g}{suffix}"',
        ("tests/engine/test_vgpu_types.py", "tests/catalog/test_catalogs.py"),
        "the MIG-backed vGPU type named by memory slices instead of compute slices",
    ),
    Mutant(
        "cli-summary-gpus-after-failures",
        "wizard/app/summary.py",
        'f"  GPUs after failures   {c.gpus_after_failures} "',
        'f"  GPUs after failures   {c.gpus_total} "',
        ("tests/cli/test_cli.py",),
        "the terminal summary prints all GPUs as the GPUs left after failures",
    ),
    Mutant(
        "cli-summary-ha-hosts-as-failures",
        "wizard/app/summary.py",
        'f"  hosts for HA          {c.hosts_for_ha}"',
        'f"  hosts for HA          {c.host_failures_tolerated}"',
        ("tests/cli/test_cli.py",),
        "the terminal summary prints the failures tolerated as the HA hosts",
    ),
    Mutant(
        "review-card-after-failures",
        "wizard/gui/pages/review.py",
        'self.cards.set("after", f"{c.gpus_after_failures:,}",',
        'self.cards.set("after", f"{c.gpus_total:,}",',
        ("tests/gui/test_export_and_hardware.py", "tests/gui/test_walkthrough.py"),
        "the Review page's 'GPUs after failures' card shows all GPUs",
    ),
    Mutant(
        "ring-allreduce-factor",
        "wizard/engine/demand/training_physics.py",
        'RING_GB = Formula("ring_factor * (data_parallel - 1) / data_parallel * gradient_gb")',
        'RING_GB = Formula("ring_factor * gradient_gb")',
        ("tests/engine/test_compute_comms.py",),
        "ring all-reduce volume without the (N - 1) / N factor",
    ),
    Mutant(
        "lora-gradients-full-model",
        "wizard/engine/demand/training.py",
        "trainable_parameters=trainable, gradient_bytes=job.gradient_bytes,",
        "trainable_parameters=job.params, gradient_bytes=job.gradient_bytes,",
        ("tests/engine/test_planted_slips.py", "tests/engine/test_fine_tuning.py"),
        "LoRA all-reduces the whole model's gradients, not the adapters'",
    ),
    Mutant(
        "recompute-without-tp-allreduces",
        "wizard/engine/demand/training.py",
        "passes = 4 + 2 * recomputed_share(job, st)",
        "passes = 4",
        ("tests/engine/test_planted_slips.py", "tests/engine/test_training_calibration.py"),
        "full recomputation forgets the recomputed forward pass's tensor-parallel all-reduces",
    ),
    Mutant(
        "mig-bandwidth-share",
        "wizard/engine/basis/slices.py",
        "c, b = p.compute_slices / m.compute_slices, p.memory_slices / m.memory_slices",
        "c, b = p.compute_slices / m.compute_slices, p.compute_slices / m.compute_slices",
        ("tests/engine/test_planted_slips.py", "tests/engine/test_mig.py"),
        "a MIG instance gets its compute share of the bandwidth, not its memory slices'",
    ),
    Mutant(
        "vgpu-share-without-time-slice",
        "wizard/engine/basis/slices.py",
        "return min(1.0, max(p.framebuffer_gb / gpu.memory_gb, 1 / p.max_per_gpu))",
        "return min(1.0, p.framebuffer_gb / gpu.memory_gb)",
        ("tests/engine/test_planted_slips.py",),
        "a time-sliced vGPU's share is its framebuffer alone, without its time slice",
    ),
    Mutant(
        "vgpu-mixed-against-equal-maximum",
        "wizard/engine/placement/vgpu.py",
        "if any(n > (by_name[name].max_per_gpu_mixed or 0) for name, n in counts.items()):",
        "if any(n > by_name[name].max_per_gpu for name, n in counts.items()):",
        ("tests/engine/test_planted_slips.py",),
        "mixed-size placement is checked against the equal-size maximum",
    ),
    Mutant(
        "liquid-share-ignored",
        "wizard/engine/fitout/racks.py",
        "                liquid_w=host_w * share,",
        "                liquid_w=host_w,",
        ("tests/engine/test_liquid_cooling.py",),
        "a liquid-cooled host gives all its heat to the coolant",
    ),
    Mutant(
        "cdu-outside-the-power-total",
        "wizard/engine/fitout/buildout.py",
        "pw = power.power(gpu, server, hw.gpus_per_host, hosts, net.planes, rec, system, cdus,",
        "pw = power.power(gpu, server, hw.gpus_per_host, hosts, net.planes, rec, system, None,",
        ("tests/engine/test_liquid_cooling.py",),
        "the in-rack coolant distribution units draw from the racks but not in the total",
    ),
    Mutant(
        "cdu-height-not-reserved",
        "wizard/engine/fitout/racks.py",
        "    by_space = (height - cdu_u) // host_u",
        "    by_space = height // host_u",
        ("tests/engine/test_liquid_cooling.py",),
        "hosts per rack counted without the in-rack unit's height",
    ),
    Mutant(
        "xdr-takes-ndr-parts",
        "wizard/engine/fitout/ib_parts.py",
        "PAIRINGS = {p.speed_gbps: p for p in (NDR, XDR)}",
        "PAIRINGS = {400: NDR, 800: NDR}",
        ("tests/engine/test_xdr_fabric.py",),
        "an XDR fabric billed with NDR's splitters, modules and fibres",
    ),
    Mutant(
        "800gbe-one-fibre-per-link",
        "wizard/engine/fitout/linkx.py",
        "    return 2 if speed >= 800 else 1",
        "    return 1",
        ("tests/engine/test_xdr_fabric.py",),
        "an 800GbE twin-port link billed with one fibre instead of two",
    ),
    Mutant(
        "attention-at-fp4",
        "wizard/engine/demand/inference.py",
        "gpu.name, gpu.memory_gb, gpu.memory_bandwidth_gbs, peak, min(attention, peak)",
        "gpu.name, gpu.memory_gb, gpu.memory_bandwidth_gbs, peak, peak",
        ("tests/engine/test_attention_precision.py",),
        "attention computed at the FP4 rate of the weights",
    ),
    Mutant(
        "cost-power-without-pue",
        "wizard/engine/decide/cost.py",
        'POWER = Formula("kw * average_load * pue * hours_per_year * energy_price")',
        'POWER = Formula("kw * average_load * hours_per_year * energy_price")',
        ("tests/engine/test_cost.py",),
        "the energy bill leaves out the data centre's PUE",
    ),
    Mutant(
        "cost-one-year-of-running",
        "wizard/engine/decide/cost.py",
        '"cost.total", Formula("hardware + years * per_year"),',
        '"cost.total", Formula("hardware + per_year"),',
        ("tests/engine/test_cost.py",),
        "the cost of ownership counts one year of running costs",
    ),
    Mutant(
        "cost-gpu-hours-one-year",
        "wizard/engine/decide/cost.py",
        '"cost.gpu_hours", Formula("gpus * hours_per_year * years"),',
        '"cost.gpu_hours", Formula("gpus * hours_per_year"),',
        ("tests/engine/test_cost.py",),
        "GPU-hours of one year against the cost of several",
    ),
    Mutant(
        "cost-per-thousand-tokens",
        "wizard/engine/decide/cost.py",
        'Formula("cost / (tokens_per_s * seconds_per_year * years) * 1e6"),',
        'Formula("cost / (tokens_per_s * seconds_per_year * years) * 1e3"),',
        ("tests/engine/test_cost.py",),
        "the price per million tokens computed per thousand",
    ),
    Mutant(
        "storage-nodes-rounded-down",
        "wizard/engine/fitout/storage.py",
        'Formula("ceil(capacity_tb / usable_tb_per_node - 1e-9)"),',
        'Formula("floor(capacity_tb / usable_tb_per_node)"),',
        ("tests/engine/test_storage.py", "tests/engine/test_planted_slips_build.py"),
        "storage nodes for capacity rounded down",
    ),
    Mutant(
        "storage-minimum-nodes-ignored",
        "wizard/engine/fitout/storage.py",
        """else Formula(f"max({', '.join(terms)})" if len(terms) > 1 else "min_nodes"),""",
        """else Formula(f"max({', '.join(t for t in terms if t != 'min_nodes')})" """
        """if len(terms) > 1 else "min_nodes"),""",
        ("tests/engine/test_storage.py",),
        "a storage system below its minimum cluster size",
    ),
    Mutant(
        "checkpoint-copies-ignored",
        "wizard/engine/fitout/storage.py",
        'Formula("checkpoint_gb * copies * jobs"),',
        'Formula("checkpoint_gb * jobs"),',
        ("tests/engine/test_storage.py",),
        "the kept checkpoint copies left out of the capacity",
    ),
    Mutant(
        "dataset-versions-ignored",
        "wizard/engine/fitout/storage.py",
        'Formula("dataset_gb * versions"),',
        'Formula("dataset_gb"),',
        ("tests/engine/test_storage.py",),
        "the dataset's kept versions left out of the capacity",
    ),
    Mutant(
        "btu-per-kilowatt",
        "wizard/engine/fitout/power.py",
        "BTU_PER_HOUR_PER_W = 3.412142",
        "BTU_PER_HOUR_PER_W = 3412.142",
        ("tests/engine/test_power.py",),
        "heat in BTU/h per kW used per W",
    ),
    Mutant(
        "one-pdu-per-rack",
        "wizard/engine/fitout/bom.py",
        "PDUS_PER_RACK = 2",
        "PDUS_PER_RACK = 1",
        ("tests/engine/test_bom.py", "tests/engine/test_planted_slips_build.py"),
        "one PDU per rack, no B feed",
    ),
    Mutant(
        "oob-switches-rounded-down",
        "wizard/engine/fitout/racks.py",
        "        n = -(-devices // oob.ports)",
        "        n = devices // oob.ports",
        ("tests/engine/test_bom.py", "tests/engine/test_portmap.py"),
        "out-of-band switches per rack rounded down (none for a small rack)",
    ),
    Mutant(
        "psus-per-cluster-not-per-host",
        "wizard/engine/fitout/bom.py",
        'f"({server.psu_count} per host)", hosts * server.psu_count, "each",',
        'f"({server.psu_count} per host)", server.psu_count, "each",',
        ("tests/engine/test_bom.py",),
        "power supplies ordered for one host",
    ),
    Mutant(
        "c13-cord-for-a-16a-supply",
        "wizard/engine/fitout/bom.py",
        '    cord = "C19 to C20" if server.psu_w / 200 > 10 else "C13 to C14"',
        '    cord = "C13 to C14"',
        ("tests/engine/test_bom.py", "tests/engine/test_planted_slips_build.py"),
        "a C13 cord on a supply drawing more than 10 A",
    ),
    Mutant(
        "kv-context-whole-answer",
        "wizard/engine/demand/serving_physics.py",
        'CONTEXT_IN_FLIGHT = Formula("input_tokens + output_tokens / 2")',
        'CONTEXT_IN_FLIGHT = Formula("input_tokens + output_tokens")',
        ("tests/engine/test_serving_calibration.py", "tests/engine/test_memory.py"),
        "the KV cache in flight counted at the whole answer, not half on average",
    ),
    Mutant(
        "zero-gradients-not-sharded",
        "wizard/engine/demand/training_plan.py",
        'GRADIENTS_GB = Formula("trainable_parameters * gradient_bytes / shards / 1e9")',
        'GRADIENTS_GB = Formula("trainable_parameters * gradient_bytes / 1e9")',
        ("tests/engine/test_memory.py",),
        "ZeRO-2 gradients not divided among the data-parallel ranks",
    ),
    Mutant(
        "zero-optimizer-without-master",
        "wizard/engine/demand/training_plan.py",
        'OPTIMIZER_GB = Formula("trainable_parameters * (state_bytes + master_bytes) / shards / 1e9")',
        'OPTIMIZER_GB = Formula("trainable_parameters * state_bytes / shards / 1e9")',
        ("tests/engine/test_memory.py",),
        "mixed precision without its FP32 master weights",
    ),
    Mutant(
        "ring-allreduce-half",
        "wizard/engine/demand/serving_physics.py",
        '"latency_s + 2 * (tp - 1) / tp * tokens * hidden * 2 / (link_gbs * 1e9 * link_efficiency)"',
        '"latency_s + (tp - 1) / tp * tokens * hidden * 2 / (link_gbs * 1e9 * link_efficiency)"',
        (
            "tests/engine/test_compute_comms.py",
            "tests/engine/test_serving_calibration.py",
            "tests/engine/test_planted_slips_build.py",
        ),
        "a ring all-reduce moving half its bytes (reduce-scatter only)",
    ),
    Mutant(
        "estate-racks-rounded-down",
        "wizard/engine/decide/cpu_clusters.py",
        'f"{key}.racks", Formula("ceil(hosts / hosts_per_rack)"),',
        'f"{key}.racks", Formula("floor(hosts / hosts_per_rack)"),',
        ("tests/engine/test_estate.py", "tests/engine/test_planted_slips_build.py"),
        "a cluster without GPUs placed in too few racks",
    ),
    Mutant(
        "summary-gpus-left-one-gpu",
        "reports/sections/summary.py",
        '        else ("GPUs left if a host fails", num(max(0, c.gpus_total - c.gpus_per_host)))',
        '        else ("GPUs left if a host fails", num(max(0, c.gpus_total - 1)))',
        ("tests/reports/test_summary.py",),
        "the summary page's GPUs left when a host fails subtracts one GPU, not a host's",
    ),
    Mutant(
        "plural-zero-singular",
        "wizard/base/numbers.py",
        '    return noun if n == 1 else many or f"{noun}s"',
        '    return noun if n <= 1 else many or f"{noun}s"',
        ("tests/present/test_numbers.py",),
        "'0 host' instead of '0 hosts'",
    ),
    Mutant(
        "status-bar-hosts-as-gpus",
        "wizard/gui/main_window.py",
        "            ) + f\"{count(e.totals.hosts, 'host')} · {count(e.totals.gpus, 'GPU')} · "
        '{tally(every)}"',
        "            ) + f\"{count(e.totals.hosts, 'host')} · {count(e.totals.hosts, 'GPU')} · "
        '{tally(every)}"',
        ("tests/gui/test_files.py",),
        "the status bar's GPU count shows the hosts",
    ),
    Mutant(
        "cli-bad-input-exits-1",
        "wizard/cli/common.py",
        "EXIT_OK, EXIT_INTERNAL, EXIT_BAD_INPUT = 0, 1, 2",
        "EXIT_OK, EXIT_INTERNAL, EXIT_BAD_INPUT = 0, 1, 1",
        ("tests/cli/test_cli.py",),
        "bad input exits like an internal error",
    ),
    Mutant(
        "water-specific-heat-in-kj",
        "wizard/engine/fitout/cooling.py",
        "WATER_CP = 4186.0  # J/(kg K), liquid water near 25-35 C",
        "WATER_CP = 4.186  # J/(kg K), liquid water near 25-35 C",
        ("tests/engine/test_liquid_cooling.py",),
        "water's specific heat in kJ where the formula takes J",
    ),
    Mutant(
        "verdict-at-risk-as-met",
        "wizard/present/options_table.py",
        '    return "missed" if not t.met else "at risk" if t.at_risk else "met"',
        '    return "missed" if not t.met else "met"',
        ("tests/reports/test_summary.py", "tests/engine/test_planted_slips_build.py"),
        "a target at risk reads as met in the comparison",
    ),
]

# Mutants that survive for a reason, with the reason; an entry here that gets caught is reported,
# so the list cannot go stale.
KNOWN_SURVIVORS: dict[str, str] = {
    "cli-summary-ha-hosts-as-failures": "equivalent: wizard/engine/placement/cluster.py ha_hosts returns "
    "the same number for both (k failure domains x their hosts, or the percentage reserve)",
}


def export(dest: Path, worktree: bool, rev: str = "HEAD") -> None:
    """The tracked files of ``rev`` (and, with ``worktree``, the files on disk with new files
    not ignored) as a fresh tree."""
    if not worktree:
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", "--format=tar", rev],
            check=True,
            capture_output=True,
        )
        subprocess.run(["tar", "-x", "-C", str(dest)], input=archive.stdout, check=True)
        return
    listed = subprocess.run(
        ["git", "-C", str(ROOT), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        check=True,
        capture_output=True,
    ).stdout.split(b"\0")
    for raw in filter(None, listed):
        rel = raw.decode()
        src = ROOT / rel
        if src.is_file():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / rel)


def check_snippets(copy: Path, mutants: list[Mutant]) -> list[str]:
    problems = []
    for m in mutants:
        path = copy / m.path
        if not path.is_file():
            problems.append(f"{m.name}: {m.path} does not exist")
            continue
        n = path.read_text().count(m.old)
        if n != 1:
            problems.append(f"{m.name}: the snippet occurs {n} times in {m.path}, not once")
    return problems


def environment(copy: Path) -> dict[str, str]:
    """The copy first on the import path: the editable install's finder comes after it."""
    return {
        **os.environ,
        "PYTHONPATH": str(copy),
        "QT_QPA_PLATFORM": "offscreen",
        "PYTHONDONTWRITEBYTECODE": "1",
    }


def imports_the_copy(copy: Path) -> bool:
    proc = subprocess.run(
        [sys.executable, "-c", "import wizard, reports; print(wizard.__file__, reports.__file__)"],
        cwd=copy,
        env=environment(copy),
        capture_output=True,
        text=True,
    )
    files = proc.stdout.split()
    return proc.returncode == 0 and all(Path(f).is_relative_to(copy) for f in files)


def run_tests(copy: Path, tests: tuple[str, ...], timeout: float) -> tuple[str, float]:
    """'passed', 'failed' or 'timed out', and the seconds it took."""
    start = time.perf_counter()
    cmd = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *tests]
    try:
        proc = subprocess.run(
            cmd, cwd=copy, env=environment(copy), capture_output=True, text=True, timeout=timeout
        )
    except subprocess.TimeoutExpired:
        return "timed out", time.perf_counter() - start
    outcome = {0: "passed", 1: "failed"}.get(proc.returncode)
    if outcome is None:  # a collection error or a crash is not a test that caught the bug
        tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-15:])
        raise SystemExit(f"pytest exited {proc.returncode} running {' '.join(tests)}:\n{tail}")
    return outcome, time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("words", nargs="*", help="run only mutants whose names contain a word")
    parser.add_argument("--list", action="store_true", help="list the mutants and exit")
    parser.add_argument("--check", action="store_true", help="only check the snippets")
    parser.add_argument("--worktree", action="store_true", help="copy the files on disk, not HEAD")
    parser.add_argument("--no-baseline", action="store_true", help="skip the unmutated run")
    parser.add_argument("--tests", nargs="+", help="run these tests for every mutant instead")
    parser.add_argument("--timeout", type=float, default=600, help="seconds per mutant")
    parser.add_argument("--min-score", type=float, default=90.0, help="percent caught to pass")
    args = parser.parse_args(argv)
    chosen = [m for m in MUTANTS if not args.words or any(w in m.name for w in args.words)]
    if args.tests:
        chosen = [replace(m, tests=tuple(args.tests)) for m in chosen]
    if args.list:
        for m in chosen:
            print(f"{m.name:<38} {m.path:<34} {' '.join(m.tests)}\n{'':<38} {m.why}")
        return 0
    if not chosen:
        print("no mutant matches", file=sys.stderr)
        return 2

    with tempfile.TemporaryDirectory(prefix="gpuwizard-mutants-") as tmp:
        copy = Path(tmp)
        export(copy, args.worktree)
        problems = check_snippets(copy, chosen)
        if problems:
            print("mutants out of date with the code:\n  " + "\n  ".join(problems), file=sys.stderr)
            return 2
        if args.check:
            print(f"{len(chosen)} mutants, every snippet found once")
            return 0
        if not imports_the_copy(copy):
            print("the copy's packages are not the ones imported; refusing to run", file=sys.stderr)
            return 2
        tests = tuple(dict.fromkeys(t for m in chosen for t in m.tests))
        if not args.no_baseline:
            outcome, secs = run_tests(copy, tests, args.timeout * 2)
            print(f"baseline ({len(tests)} test files, unmutated): {outcome} in {secs:.0f} s")
            if outcome != "passed":
                print("the tests fail without any mutant; fix them first", file=sys.stderr)
                return 2
        results: list[tuple[Mutant, str, float]] = []
        for m in chosen:
            target = copy / m.path
            original = target.read_text()
            target.write_text(original.replace(m.old, m.new, 1))
            try:
                outcome, secs = run_tests(copy, m.tests, args.timeout)
            finally:
                target.write_text(original)
            verdict = "survived" if outcome == "passed" else "caught"
            results.append((m, verdict, secs))
            print(f"{verdict:<9} {m.name:<38} {secs:5.0f} s  {m.why}", flush=True)

    caught = sum(1 for _, v, _ in results if v == "caught")
    score = 100 * caught / len(results)
    print(f"\nscore: {caught}/{len(results)} caught ({score:.0f} %)")
    survivors = [m for m, v, _ in results if v == "survived"]
    unexplained = [m for m in survivors if m.name not in KNOWN_SURVIVORS]
    for m in survivors:
        reason = KNOWN_SURVIVORS.get(m.name, "NOT EXPLAINED: add a test or a reason")
        print(f"  survived {m.name}: {reason}")
    stale = [m.name for m, v, _ in results if v == "caught" and m.name in KNOWN_SURVIVORS]
    for name in stale:
        print(f"  {name} is listed as a known survivor but was caught: remove it from the list")
    return 0 if score >= args.min_score and not unexplained and not stale else 1


if __name__ == "__main__":
    sys.exit(main())
