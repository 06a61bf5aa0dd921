"""Text the report's font cannot draw is named in a notice, not printed silently as boxes."""

from reports.document import ReportOptions, build_pdf


def _named(data, customer: str, group: str):
    design = data.design
    project = design.project.model_copy(update={"customer": customer})
    first = design.workloads[0].model_copy(update={"name": group})
    design = design.model_copy(update={"project": project,
                                       "workloads": [first, *design.workloads[1:]]})  # fmt: skip
    return type(data)(design=design, catalog=data.catalog, result=data.result)


def test_chinese_text_is_named_in_a_notice(example_data):
    options = ReportOptions()
    build_pdf(_named(example_data("starter"), "客户 Corp", "Équipe 株式"), options)
    (notice,) = options.notices
    # Four characters in order of first use; two fields; the space and Latin letters are fine.
    assert "no glyph for 4 characters in project.customer, workloads[0].name" in notice
    assert "(客 户 株 式)" in notice and "empty boxes" in notice


def test_latin_greek_and_cyrillic_text_gives_no_notice(example_data):
    """The negative case: accented Latin, Greek and Cyrillic are in DejaVu; a zero-width space
    and a right-to-left mark are invisible and not reported."""
    options = ReportOptions()
    build_pdf(_named(example_data("starter"), "Société Ωmega", "Группа\u200b\u200f"), options)
    assert options.notices == []
