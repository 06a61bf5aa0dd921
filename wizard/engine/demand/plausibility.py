"""Plausibility rules of a serving group: figures that size without error yet cannot be what the
customer meant. Each becomes a caution in the Result under the field it is about, so ``size``,
``validate``, the wizard (at the field and in the Review) and the proposal say the same thing
with the same reason; none stops the design.

- A head count typed as members: a service's demand is the people who use it (or its requests
  in flight), planned as one service; the members a file gives are named and not multiplied.
- More replicas than requests in flight: by Little's law the service holds ``rate x seconds per
  request`` requests at once; replicas beyond that sit idle, and the reason is said as the time
  between requests each GPU would see.
- More people than any employer has: an internal service's users are its staff, and the largest
  employer in the world has about 2.2 million.
"""

from __future__ import annotations

import math

from wizard.base.numbers import count, num
from wizard.engine.basis.expr import Formula
from wizard.engine.basis.record import Chain, Recorder
from wizard.model.design import WorkloadGroup
from wizard.model.result import ServingResult

LITTLE_SOURCE = "Little's law (Little, Operations Research 9(3), 1961): L = λ × W"
# "Around the world, over 2.2 million people work for Walmart" (corporate.walmart.com/newsroom)
LARGEST_EMPLOYER_STAFF = 2_200_000
LARGEST_EMPLOYER_SOURCE = (
    "Walmart: 'over 2.2 million people work for Walmart', corporate.walmart.com/newsroom"
)
REQUESTS_IN_FLIGHT = Formula("requests_per_s * (ttft_ms + output_tokens * itl_ms) / 1000")


def requests_in_flight(
    rec: Recorder, key: str, rate: float, output_tokens: int, ttft_ms: float, itl_ms: float
) -> float:
    """The requests the service holds at once at ``rate`` (Little's law), logged: each stays for
    its first token and then one token interval per further token."""
    return rec.expr(
        f"{key}.serving.requests_in_flight_from_rate",
        REQUESTS_IN_FLIGHT,
        {
            "requests_per_s": rate,
            "ttft_ms": ttft_ms,
            "output_tokens": output_tokens,
            "itl_ms": itl_ms,
        },
        "requests",
        LITTLE_SOURCE,
    )


IN_FLIGHT_PLANNED = Formula("sequences_per_replica * replicas * members")


def in_flight_planned(chain: Chain, per_replica: int, replicas: int, members: int) -> int:
    """The requests in flight the plan holds across the service, logged: each replica batches
    its own requests. The one place the product of requests per replica and replicas is formed;
    every reader prints this figure."""
    return round(
        chain(
            "requests_in_flight_planned", IN_FLIGHT_PLANNED, "requests",
            "Each replica holds its own requests in flight; the service holds them all",
            sequences_per_replica=per_replica, replicas=replicas, members=members,
        )
    )  # fmt: skip


def interval(seconds: float) -> str:
    """A time between events as a person says it: seconds, minutes, hours or days."""
    for size, unit in ((86_400, "day"), (3600, "hour"), (60, "minute")):
        if seconds >= 2 * size:
            return count(round(seconds / size), unit)
    return count(round(seconds) if seconds >= 10 else float(f"{seconds:.2g}"), "second")


def check_serving(
    rec: Recorder,
    key: str,
    g: WorkloadGroup,
    s: ServingResult,
    rate: float | None,
    replicas: int,
    gpus: float,
) -> None:
    """Record the cautions of one sized serving group (``key`` is its design path)."""
    inf = g.inference
    assert inf is not None
    people = inf.people
    if g.count > 1:
        what = (
            f"its {count(people.users, 'person', 'people')} ({num(people.requests_per_s)} "
            "requests a second)"
            if people is not None
            else "its requests in flight and throughput target"
        )
        # said where the service's demand is given, which is where to say how many use it
        where = "people.users" if people is not None else "concurrent_sequences"
        rec.caution(
            "service-members-not-multiplied",
            f"{key}.inference.{where}",
            f"Members {g.count:,} does not multiply a service: {g.name} is planned as one "
            f"service for {what}. Say how many use it under People who use it, or give the "
            "requests in flight; members count jobs and notebook users",
        )
    if people is not None and people.users > LARGEST_EMPLOYER_STAFF:
        rec.caution(
            "people-beyond-any-employer",
            f"{key}.inference.people.users",
            f"{people.users:,} people use {g.name}: more than the {LARGEST_EMPLOYER_STAFF:,} "
            f"who work for the largest employer in the world ({LARGEST_EMPLOYER_SOURCE}); the "
            f"plan's {num(gpus)} GPUs follow from this figure, so check it",
        )
    if rate and s.requests_in_flight is not None:
        held = max(s.requests_in_flight, inf.concurrent_sequences)
        why = (
            f"{num(s.requests_in_flight)} by Little's law"
            if s.requests_in_flight >= inf.concurrent_sequences
            else "the requests in flight given"
        )
        if replicas > max(1, math.ceil(held - 1e-9)):
            field = (
                f"{key}.parallelism.data_parallel"
                if g.parallelism.data_parallel is not None
                else f"{key}.inference"
            )
            rec.caution(
                "replicas-beyond-load",
                field,
                f"{num(gpus)} GPUs for {num(rate)} requests a second: each GPU would serve one "
                f"request every {interval(gpus / rate)}. {g.name} holds "
                f"{count(held, 'request')} at once ({why}), fewer than its "
                f"{replicas:,} replicas, so the rest stand idle",
            )
