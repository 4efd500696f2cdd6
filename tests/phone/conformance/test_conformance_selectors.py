"""The selector `spa-bench phone dump` (and the studio) proposes finds the element it was proposed for, on
real devices' dumps (android-captures/uiautomator_dump): resolved as the oracle resolves a golden step."""

from __future__ import annotations

from pathlib import Path

import pytest

from spa_bench.device.elements import actionable, find, matching, parse_hierarchy
from spa_bench.device.selectors import propose


def _dumps(captures: Path) -> list[Path]:
    return sorted((captures / "uiautomator_dump").glob("*.xml"))


def test_every_proposal_finds_its_element_on_real_dumps(captures: Path) -> None:
    proposed = unique = 0
    wrong = []
    for dump in _dumps(captures):
        elements = parse_hierarchy(dump.read_text("utf-8"))
        for element in actionable(elements):
            proposal = propose(element, elements)
            if proposal is None:
                assert element.area == 0, f"{dump.name}: nothing proposed for {element.describe()}"
                continue
            proposed += 1
            if find(elements, proposal.selector) is not element:
                wrong.append(f"{dump.name}: {proposal.as_yaml()} does not find {element.describe()}")
            bare = proposal.selector.model_copy(update={"nth": 0})
            assert proposal.unique == (matching(elements, bare) == [element])
            unique += proposal.unique
    assert not wrong, "\n".join(wrong[:20])
    # real screens name most of their elements uniquely by id or label; nth is the exception
    assert proposed > 1000 and unique / proposed > 0.6, (proposed, unique)


def test_resource_id_first_then_label(captures: Path) -> None:
    """AOSP Launcher3's all-apps grid: the icons share one resource id, so each is named by its label."""
    elements = parse_hierarchy((captures / "uiautomator_dump" / "aosp_launcher3_all_apps_en_1080x1776.xml")
                               .read_text("utf-8"))
    calculator = next(e for e in elements if e.text == "Calculator")
    proposal = propose(calculator, elements)
    assert proposal is not None and proposal.unique
    assert proposal.as_yaml() == "{text: Calculator}"
    search = next(e for e in elements if e.resource_id.endswith("/apps_list_view"))
    assert propose(search, elements).as_yaml() == "{resource_id: apps_list_view}"  # type: ignore[union-attr]


@pytest.mark.parametrize(("value", "written"), [
    ("OK", "OK"), ("6:30 AM", "'6:30 AM'"), ("it's", "'it''s'"), ("yes", "'yes'"), ("12", "'12'"),
    ("确定", "确定"), ("a, b", "'a, b'"), (" padded", "' padded'"),
])
def test_yaml_flow_quotes_what_yaml_would_misread(value: str, written: str) -> None:
    import yaml

    from spa_bench.actions import Selector
    from spa_bench.device.selectors import SelectorProposal

    text = SelectorProposal(Selector(text=value), unique=True, matches=1).as_yaml()
    assert text == "{text: " + written + "}"
    assert yaml.safe_load(text) == {"text": value}
