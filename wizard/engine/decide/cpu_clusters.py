"""The clusters of a design that hold no GPUs: the VMware Cloud Foundation management domain and
compute hosts (a GPU pool's clients). Their hosts, power and racks, and their lines of the bill."""

from __future__ import annotations

from wizard.engine.basis.expr import Formula
from wizard.engine.basis.record import Recorder
from wizard.engine.fitout import bom as bom_
from wizard.engine.fitout import confirm
from wizard.engine.fitout.fabric import SERVICE_NIC_SOURCE, service_adapter
from wizard.engine.fitout.racks import HOSTS_PER_RACK, reserve
from wizard.model import buildout as bo
from wizard.model.catalog import Catalog, LicenceUnit, Server
from wizard.model.design import (
    FABRIC_GBPS,
    Assumptions,
    ClusterRole,
    ClusterSpec,
    Fabric,
    Licensing,
)
from wizard.model.estate import EstateCluster

MANAGEMENT_MIN_HOSTS = 4
MANAGEMENT_SOURCE = (
    "VMware Cloud Foundation Design Guide, management domain: at least 4 ESXi hosts in its "
    "default cluster with one availability zone (8 with two), so that vSAN keeps one host spare while a "
    "host is in maintenance (VCF 4.4 'Number of Hosts in the Default Management Cluster'; VCF "
    "5.2 requirement VCF-VSAN-REQD-CFG-002)"
)
# Hosts without GPUs join the service network like the GPU hosts' service ports: management,
# vMotion and storage over two ports split across a pair of leaves, plus the BMC port.
CPU_HOST_SERVICE_PORTS = 2
RACK_SOURCE = (
    "Hosts per rack: the fewer of the rack's units over the server's height and the rack's "
    "power limit over the host's power, each less what the rack's out-of-band switch takes"
)


def rack_inputs(
    a: Assumptions, catalog: Catalog, server: Server, host_w: float
) -> dict[str, float]:
    """The inputs of hosts per rack (``HOSTS_PER_RACK``) for hosts without GPUs: the rack's
    height and power limit less its out-of-band switch, as every rack of the design keeps
    them, so the count logged and the racks laid out are one."""
    res_u, res_w = reserve(bom_.oob_switch(catalog))
    return {
        "rack_units": a.rack_units - res_u,
        "host_units": server.rack_units,
        "rack_limit_w": a.max_rack_power_kw * 1000 - res_w,
        "host_w": host_w,
    }


def hosts_per_rack(a: Assumptions, catalog: Catalog, server: Server, host_w: float) -> int:
    """Hosts without GPUs a rack holds (see ``rack_inputs``)."""
    return int(HOSTS_PER_RACK(**rack_inputs(a, catalog, server, host_w)))


def cpu_cluster(
    a: Assumptions, catalog: Catalog, spec: ClusterSpec, rec: Recorder
) -> EstateCluster:
    """A cluster without GPUs (the management domain, or compute hosts): its hosts (a
    management domain at least its minimum), their baseline power and their racks by the
    assumed rack height and power."""
    assert spec.server is not None
    server = catalog.servers[spec.server]
    key = f"clusters.{spec.name}"
    if spec.role is ClusterRole.MANAGEMENT:
        hosts = int(
            rec.expr(
                f"{key}.hosts", Formula("max(stated, minimum)"),
                {"stated": spec.hosts or 0, "minimum": MANAGEMENT_MIN_HOSTS}, "hosts",
                MANAGEMENT_SOURCE,
            )
        )  # fmt: skip
        reason = (
            f"the management domain's minimum of {MANAGEMENT_MIN_HOSTS} hosts"
            if hosts == MANAGEMENT_MIN_HOSTS and (spec.hosts or 0) <= MANAGEMENT_MIN_HOSTS
            else "as the design says, above the management domain's minimum of "
            f"{MANAGEMENT_MIN_HOSTS}"
        )
    else:
        assert spec.hosts is not None
        hosts = spec.hosts
        reason = "as the design says"
    host_w = rec.expr(
        f"{key}.host_w", Formula("baseline_w"), {"baseline_w": server.baseline_power_w}, "W",
        confirm.flag(f"catalog servers/{server.id}: platform baseline at load (CPUs, memory, "
                     "fans, drives); no GPUs fitted", server, "baseline_power_w"),
    )  # fmt: skip
    per_rack = int(
        rec.expr(
            f"{key}.hosts_per_rack", HOSTS_PER_RACK, rack_inputs(a, catalog, server, host_w),
            "hosts", RACK_SOURCE,
        )
    )  # fmt: skip
    racks = rec.expr(
        f"{key}.racks", Formula("ceil(hosts / hosts_per_rack)"),
        {"hosts": hosts, "hosts_per_rack": per_rack}, "racks", RACK_SOURCE,
    )  # fmt: skip
    return EstateCluster(
        name=spec.name,
        role=spec.role,
        server=server.id,
        server_name=server.product_name,
        hosts=hosts,
        gpus=0,
        gpus_demand=0,
        gpus_idle=0,
        host_w=host_w,
        hosts_kw=hosts * host_w / 1000,
        host_racks=int(racks),
        workloads=[],
        reason=reason,
    )


def cpu_lines(
    service_fabric: Fabric,
    licensing: Licensing,
    spec: ClusterSpec,
    catalog: Catalog,
    c: EstateCluster,
    rec: Recorder,
) -> list[bo.BomLine]:
    """The bill lines of a cluster without GPUs (``spec`` as the design states it, ``c`` as
    sized): its servers and their configuration, the service-network adapters at the service
    fabric's speed, and its per-core platform licences."""
    server = catalog.servers[c.server]
    cpu = server.cpu_option(spec.cpu)
    processors = f"{cpu.name} ({cpu.cores} cores)" if cpu else server.cpu_family
    role = "management domain" if c.role is ClusterRole.MANAGEMENT else "compute cluster"
    out = [
        bo.BomLine(
            category=bo.BomCategory.SERVER,
            item=f"server:{server.id}",
            part_number="",
            description=f"{server.product_name}, {server.sockets} x {processors}, "
            f"{server.rack_units}U, for the {role}, without GPUs, with the configuration lines "
            "below",
            quantity=c.hosts,
            unit="each",
            source=f"catalog servers/{server.id}",
            cluster=c.name,
        )
    ]
    speed = FABRIC_GBPS[service_fabric]
    nic, cards = service_adapter(catalog, server, speed, CPU_HOST_SERVICE_PORTS)
    out += [
        ln.model_copy(update={"cluster": c.name})
        for ln in [
            bom_.cpu_host_memory_line(server, c.hosts),
            *bom_.platform_lines(server, c.hosts),
        ]
    ]
    if nic is not None:
        out.append(
            bo.BomLine(
                category=bo.BomCategory.NIC, item=f"nic:{nic.id}:service",
                part_number=nic.part_number,
                description=f"{nic.product_name} (service network: ESXi management, vMotion, "
                f"storage; {cards} per host for its {CPU_HOST_SERVICE_PORTS} x {speed:g} GbE "
                "ports, the server's OCP 3.0 or PCIe option)",
                quantity=c.hosts * cards, unit="each",
                source=f"catalog nics/{nic.id}; {SERVICE_NIC_SOURCE}", cluster=c.name,
            )
        )  # fmt: skip
    lic = licensing.platform
    if lic is not None and catalog.licences[lic].unit is LicenceUnit.PER_CORE:
        x = catalog.licences[lic]
        need = bom_.CoreCount(c.hosts, server, spec.cpu, licensing.cores_per_socket)
        qty = bom_.core_licences(f"clusters.{c.name}.platform_core_licences", need, x, rec)
        out.append(
            bo.BomLine(
                category=bo.BomCategory.LICENCE,
                item=f"licence:{x.id}",
                part_number=x.part_number,
                description=f"{bom_.licence_name(x)} for the {role} ({bom_.unit_words(x)}, "
                f"minimum {x.min_units}; {x.term})",
                quantity=qty,
                unit="core licence",
                source=x.source,
                cluster=c.name,
            )
        )
    return out
