"""The decode step's communication formulas by hand: the ring all-reduce moves 2 (n - 1) / n of
the message over the slowest link (Patarasuk & Yuan 2009; NCCL's performance notes: bus bandwidth
= algorithm bandwidth x 2 (n - 1) / n), NVLink SHARP's in-switch reduction moves the message once,
a pipeline handoff moves one stage's activations once, and a Megatron layer all-reduces twice in
its forward pass (Shoeybi et al., arXiv:1909.08053, section 3). A step's message is tokens x
hidden x 2 bytes (16-bit activations); each transfer pays a fixed latency first."""

from __future__ import annotations

import pytest

from wizard.engine.demand.serving_physics import (
    ALLREDUCE_NVLS_S,
    ALLREDUCE_S,
    DECODE_COMM_S,
    HANDOFF_S,
)

# 64 tokens of a hidden 8,192 in 16 bits: 64 x 8,192 x 2 = 1,048,576 bytes
MESSAGE = dict(tokens=64, hidden=8192)
LINK = dict(link_gbs=450, latency_s=5e-6)


def test_ring_all_reduce_pays_latency_and_two_n_minus_one_over_n_of_the_message():
    """Four GPUs at 450 GB/s x 0.8 = 360 GB/s: 2 x 3/4 x 1,048,576 = 1,572,864 bytes take
    4.369 us, plus 5 us of latency: 9.369 us. Two GPUs move 2 x 1/2 = one message: 2.913 us
    + 5 us. Negative case: one GPU moves nothing and pays only the latency."""
    four = ALLREDUCE_S(tp=4, link_efficiency=0.8, **MESSAGE, **LINK)
    assert four == pytest.approx(5e-6 + 1_572_864 / 360e9)
    two = ALLREDUCE_S(tp=2, link_efficiency=0.8, **MESSAGE, **LINK)
    assert two == pytest.approx(5e-6 + 1_048_576 / 360e9)
    assert ALLREDUCE_S(tp=1, link_efficiency=0.8, **MESSAGE, **LINK) == pytest.approx(5e-6)


def test_in_switch_all_reduce_and_handoff_move_the_message_once():
    """NVLS at 450 GB/s x 0.9 = 405 GB/s: 1,048,576 / 405e9 = 2.589 us, plus 5 us; a handoff at
    450 x 0.8 = 360 GB/s: 2.913 us plus 5 us. Negative case: no latency, the transfer alone."""
    nvls = ALLREDUCE_NVLS_S(nvls_efficiency=0.9, **MESSAGE, **LINK)
    assert nvls == pytest.approx(5e-6 + 1_048_576 / 405e9)
    hand = HANDOFF_S(link_efficiency=0.8, **MESSAGE, **LINK)
    assert hand == pytest.approx(5e-6 + 1_048_576 / 360e9)
    bare = HANDOFF_S(link_efficiency=0.8, **MESSAGE, link_gbs=450, latency_s=0)
    assert bare == pytest.approx(1_048_576 / 360e9)
    assert hand - bare == pytest.approx(5e-6)


@pytest.mark.parametrize(
    ("pp", "by_hand"),
    [
        (1, 2 * 80 * 10e-6),  # one stage: 160 all-reduces, no handoff = 1.6 ms
        (2, 2 * 40 * 10e-6 + 30e-6),  # 40 layers a stage: 0.8 ms + one 30 us handoff
        (4, 2 * 20 * 10e-6 + 30e-6),  # 20 layers a stage: 0.4 ms + one handoff
    ],
)
def test_a_decode_stage_all_reduces_twice_a_layer_and_hands_off_once(pp, by_hand):
    """80 layers, a 10 us all-reduce, a 30 us handoff: a stage runs its 80 / pp layers with two
    all-reduces each; a pipeline adds one handoff, a single stage none."""
    step = DECODE_COMM_S(layers=80, pp=pp, allreduce_s=10e-6, handoff_s=30e-6)
    assert step == pytest.approx(by_hand)
