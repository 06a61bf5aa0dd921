"""One glossary: the wizard's tooltips and the proposal's appendix read the same sentences."""

from wizard.model.design import SharingMode
from wizard.present.glossary import GLOSSARY, named, tip
from wizard.present.labels import MODE


def test_every_sharing_mode_is_explained_under_its_name():
    names = dict(named())
    for m in SharingMode:
        assert tip(m.value)
        (name,) = [n for n in names if n.startswith(MODE[m])]
        assert names[name] == tip(m.value)


def test_the_proposal_lists_the_named_terms_alphabetically():
    rows = named()
    assert [n for n, _ in rows] == sorted((n for n, _ in rows), key=str.casefold)
    assert len(rows) == len({t.name for t in GLOSSARY.values() if t.name})
    assert all(text.endswith(".") for _, text in rows)


def test_an_unknown_key_has_no_tip():
    assert tip("no-such-term") == ""
