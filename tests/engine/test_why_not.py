"""Why a server cannot hold a GPU, in the customer's words: GPUs by their product names and form
factors as PCIe cards and SXM modules, never catalog ids or enum values (the Hardware page's
server list and `validate` both say it)."""

from __future__ import annotations

from wizard.engine.platform.compat import why_not


def test_an_hgx_board_names_the_gpus_it_takes(catalog):
    xe9680 = catalog.servers["dell-xe9680"]
    b200 = catalog.gpus["b200-sxm"]
    reason = why_not(xe9680, b200, catalog.gpus)
    names = [catalog.gpus[g].name for g in xe9680.hgx_gpus]
    assert reason == "its HGX board takes the " + ", ".join(names[:-1]) + " or " + names[-1]
    assert "h100-sxm5-80gb" not in reason
    # without the catalog's GPUs the ids are all it has
    assert "h100-sxm5-80gb" in why_not(xe9680, b200)


def test_a_pcie_server_says_cards_and_modules(catalog):
    server = next(
        s for s in catalog.servers.values()
        if s.pcie_topology.value != "hgx" and {f.value for f in
            (x.form_factor for x in s.gpu_support)} == {"pcie"}
    ).model_copy(update={"qualified_gpus": []})  # fmt: skip
    sxm = catalog.gpus["h100-sxm5-80gb"]
    assert why_not(server, sxm, catalog.gpus) == "it takes PCIe cards, not SXM modules"
