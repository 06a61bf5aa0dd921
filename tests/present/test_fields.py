"""Design fields named inside a sentence read as their label and where they are edited."""

from wizard.present.fields import FIELDS, in_words


def test_a_path_reads_as_its_label_and_page():
    assert in_words("no storage system is chosen (hardware.storage)") == (
        "no storage system is chosen (Storage system on the Hardware page)"
    )
    assert in_words("give data.dataset_gb; give assumptions.link_efficiency") == (
        "give Dataset size on the Hardware page; "
        "give Network link efficiency in the design's assumptions"
    )


def test_only_a_whole_path_of_the_table_is_replaced():
    """A longer name that starts like a path, a path inside a dotted name or a web address, and a
    path the table does not hold stay as they are."""
    for text in (
        "hardware.storage_tier",
        "x.hardware.storage",
        "hardware.storage.nodes",
        "workloads[2].count",
        "https://example.com/data.dataset_gb.html",
    ):
        assert in_words(text) == text, text


def test_every_path_of_the_table_is_a_field_of_the_design():
    from wizard.model.design import Design

    for path in FIELDS:
        section, field = path.split(".")
        assert section in Design.model_fields, path
        assert field in Design.model_fields[section].annotation.model_fields, path  # type: ignore[union-attr]


def test_a_document_names_the_field_but_no_page_of_the_program():
    from wizard.present.fields import in_document_words

    assert in_document_words("give data.dataset_gb to size it") == "give Dataset size to size it"
    assert in_document_words("Lower Hosts per rack on the HA policy page to what a rack holds") == (
        "Lower Hosts per rack to what a rack holds"
    )
    # the vendor's own web page in a source is not a page of the program
    text = "Dell PowerEdge XE9680 product page and spec sheet"
    assert in_document_words(text) == text
