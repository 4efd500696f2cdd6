"""Answer checks compare the value asked for, not a substring of a long answer (AnswerCheck's contract).

Natural answers in English and Chinese pass; the ways to game a substring or any-number rule fail: junk,
the instruction echoed, lists of candidates, every number from 0 to 100, every word of a real screen
(uiautomator dumps from real devices). `GOT_THROUGH_BEFORE` are the attacks the substring / any-number
rules accepted before this contract. Last, the shipped tasks as they are: every golden answer passes, and
every near-miss answer and every attack built from a task's own instruction and values fails."""

from __future__ import annotations

import unicodedata
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

from spa_bench.actions import Action, Finish
from spa_bench.evaluation.capture import CommandResult
from spa_bench.evaluation.state_checks import LEFTOVER_WIDTH, normalize_answer, run_check
from spa_bench.tasks.checks import AnswerCheck
from spa_bench.tasks.repository import TaskRepository

TASKS = Path(__file__).resolve().parents[2] / "tasks"
DUMPS = Path(__file__).resolve().parents[3] / "shared" / "reference" / "android-captures"
EVERY_NUMBER = " ".join(str(n) for n in range(101))


class NoDevice:
    """Answer checks read nothing from the device."""

    def run(self, command: str) -> CommandResult:
        raise AssertionError(f"an answer check ran {command!r}")

    def shell(self, command: str) -> str:
        raise AssertionError(f"an answer check ran {command!r}")


def passes(check: AnswerCheck, answer: str | None) -> bool:
    return run_check(check, NoDevice(), answer).passed


def contains(*expect: str) -> AnswerCheck:
    return AnswerCheck(expect=list(expect), match="contains")


def regex(*expect: str) -> AnswerCheck:
    return AnswerCheck(expect=list(expect), match="regex")


def number(*expect: str) -> AnswerCheck:
    return AnswerCheck(expect=list(expect), match="number")


def exact(*expect: str) -> AnswerCheck:
    return AnswerCheck(expect=list(expect))


# -- normalisation -------------------------------------------------------------------------------------

@pytest.mark.parametrize(("raw", "normal"), [
    ("  Grand   Hyatt. ", "grand hyatt"),
    ("Answer: Grand Hyatt", "grand hyatt"),
    ("The answer is: \"Grand Hyatt\".", "grand hyatt"),
    ("**Final answer:** Grand Hyatt", "grand hyatt"),
    ("answer:\nGrand Hyatt", "grand hyatt"),
    ("'Grand Hyatt'", "grand hyatt"),
    ("**Grand Hyatt**", "grand hyatt"),
    ("[Grand Hyatt]", "grand hyatt"),
    ("答案是：海底捞。", "海底捞"),
    ("答案：“海底捞”", "海底捞"),
    ("答：《三体》", "三体"),
    ("【海底捞】！", "海底捞"),
    ("３ 个", "3个"),  # full-width folds; no space between CJK and digits
    ("ＡＢＣ", "abc"),
    ("(415) 552-2522", "(415) 552-2522"),  # brackets that do not wrap the whole answer stay
    ("'a' or 'b'", "'a' or 'b'"),
    ("Answered", "answered"),
])
def test_normalisation(raw: str, normal: str) -> None:
    assert normalize_answer(raw) == normal


def test_case_sensitive_keeps_case_but_still_strips_framing() -> None:
    assert normalize_answer("ANSWER: KX7Q2M", case_sensitive=True) == "KX7Q2M"
    assert not passes(AnswerCheck(expect=["KX7Q2M"], case_sensitive=True), "kx7q2m")


# -- natural answers -----------------------------------------------------------------------------------

@pytest.mark.parametrize(("check", "answer"), [
    (exact("Chloe Kim"), "Chloe Kim."),
    (exact("Chloe Kim"), "Answer: \"Chloe Kim\""),
    (exact("林小满"), "答案是林小满。"),
    (exact("no"), "No."),
    (exact("没接"), "“没接”"),
    (number("3"), "3 tomatoes"),
    (number("3"), "三个"),
    (number("3"), "You have 3 events today."),
    (number("两", "2"), "2（两个）"),
    (number("34.99"), "¥34.99"),
    (number("34.99"), "34.99元"),
    (number("$34.99"), "It costs $34.99."),
    (number("58213"), "58,213 files"),
    (number("12000"), "一万二千步"),
    (number("12000"), "1.2万步"),
    (number("32"), "一共32元"),  # 一共 is "in all", not the number one
    (number("6.38"), "6.38 平方千米"),  # 千米 is km, not a thousand
    (number("4.5"), "4.5 stars"),
    (contains("5th Street"), "The café is on 5th Street."),
    (contains("5th Street"), "5th street"),
    (contains("Grand Hyatt"), "It's at the Grand Hyatt hotel"),
    (contains("sunflower2024"), "The Wi-Fi password is sunflower2024"),
    (contains("45,000", "45000"), "45,000 miles"),
    (contains("45,000", "45000"), "At 45000 miles"),
    (contains("两", "2"), "两个番茄"),
    (contains("两", "2"), "2（两个）"),  # two alternatives, one value
    (contains("海底捞"), "海底捞（望京店）"),
    (contains("北京"), "答案是北京市"),
    (contains("三体"), "是刘慈欣的《三体》"),
    (contains("8:00", "8点"), "早上 08:00"),  # zero padding
    (contains("117", "B2 层 117"), "B2 层 117 号车位"),
    (regex(r"555\D?0188"), "555-0188"),
    (regex("7:30"), "07:30"),
    (regex(r"\b7(:00)?\s*(pm|p\.m)"), "Carol suggests 7 p.m."),
    (regex("东门"), "香山东门"),
    (regex(r"8 ?楼第二会议室"), "在 8 楼第二会议室"),
])
def test_natural_answers_pass(check: AnswerCheck, answer: str) -> None:
    assert passes(check, answer), run_check(check, NoDevice(), answer).evidence.summary


@pytest.mark.parametrize(("check", "answer"), [
    (exact("Chloe Kim"), "Chloe Kimball"),
    (number("3"), "4"),
    (number("58213"), "5,821 files"),
    (number("58213"), "58.213"),
    (number("3.5"), "3,5 km"),  # "3,5" is 3 and 5, never 3.5
    (number("35"), "三百五"),
    (number("3"), "no idea"),
    (contains("5th Street"), "15th Street"),
    (contains("31"), "131"),
    (contains("31"), "31.5"),
    (contains("8:00", "8点"), "18:00"),
    (contains("上海博物馆"), "上海自然博物馆"),
    (regex("^7:30$"), "17:30"),
    (regex(r"243\.8"), "243.85 元"),
])
def test_wrong_answers_fail(check: AnswerCheck, answer: str) -> None:
    assert not passes(check, answer)


# -- attacks -------------------------------------------------------------------------------------------

GOT_THROUGH_BEFORE = [
    # lists of candidates
    (contains("5th Street"), "Main Street or 5th Street"),
    (contains("5th Street"), "Main Street, Oak Avenue, 5th Street, Pine Road"),
    (contains("5th Street"), "Main Street\n5th Street\nOak Avenue"),
    (contains("Grand Hyatt"), "Grand Hyatt / Lotus Studio"),
    (contains("Grand Hyatt"), "Lotus Studio and Grand Hyatt"),
    (contains("海底捞"), "海底捞、中关村图书大厦、国贸大酒店"),
    (contains("海底捞"), "海底捞或者万达影城"),
    (contains("季度报表"), "季度报表 or 红烧肉"),
    (contains("季度报表"), "季度报表 红烧肉 体育馆"),
    (contains("没接"), "接了或没接"),
    (contains("两", "2"), "两三个"),
    (contains("117"), "117 or 118"),
    (contains("5:01"), "4:40 5:01 6:12"),
    (contains("8:00", "8点"), "8:00或9:00"),
    (regex(r"^\W*no\b"), "no, yes"),
    (regex(r"\b10\b"), "10:30 or 11:00"),
    (regex(r"jun\w* 15"), "Jun 15, Jun 16, Jun 17"),
    (number("3"), "2 or 3"),
    (number("3"), "1,2,3"),
    (number("3"), "2、3、4"),
    (number("34.99"), "$29.99, $34.99 or $39.99"),
    # every number from 0 to 100
    (number("42"), EVERY_NUMBER),
    (contains("31"), EVERY_NUMBER),
    (regex(r"\b10\b"), EVERY_NUMBER),
    # the instruction echoed
    (contains("117"), "Where did I park? I wrote the spot down in my notes. 117"),
    (contains("117"), "我的车停在哪个车位？记事里有写。117"),
    (number("4.49"), "What does the gallon of whole milk cost at Greenleaf Market? Their site is "
                     "greenleafmarket.com. $4.49"),
    (number("3"), "邮件里打了“工作”标签的会话有几个？请在邮件应用里数一数再告诉我。3 个"),
    (regex(r"555\D?0188"), "What is Grace Lee's phone number? 555-0188"),
    # junk around the value
    (contains("Grand Hyatt"), "asdf qwer zxcv Grand Hyatt lorem ipsum dolor sit amet consectetur"),
    (contains("海底捞"), "啊" * 30 + "海底捞"),
    (number("3"), "asdf qwer zxcv 3 lorem ipsum dolor sit amet consectetur adipiscing"),
]

ALWAYS_REJECTED = [
    (contains("Grand Hyatt"), "Lotus Studio"),
    (number("3"), "no number here"),
    (number("两", "2"), "两三个"),  # "two or three", read as 23
    (exact("no"), "no yes"),
    (exact("没接"), "接了没接"),
    (exact("没接"), "接了或没接"),
]


@pytest.mark.parametrize(("check", "answer"), GOT_THROUGH_BEFORE + ALWAYS_REJECTED)
def test_attacks_fail(check: AnswerCheck, answer: str) -> None:
    result = run_check(check, NoDevice(), answer)
    assert not result.passed
    assert result.evidence.details["problem"]  # the evidence says why


def _screen_text(relative: str) -> list[str]:
    path = DUMPS / relative
    if not path.is_file():
        pytest.skip(f"reference capture {path} is absent (the shared/ folder beside the repository)")
    return [n.attrib["text"] for n in ET.parse(path).iter("node") if n.attrib.get("text", "").strip()]


@pytest.mark.parametrize(("dump", "check"), [
    ("uiautomator_dump/google_maps_llamatouch_1080x1792.xml", contains("Soul Vegetarian No. 2")),
    ("uiautomator_dump/google_maps_llamatouch_1080x1792.xml", number("4.3")),
    ("uiautomator_dump/transsion_xos_launcher_drawer_en_1080x2156.xml", contains("Notepad")),
    ("u2_hierarchy/u2_google_tasks_tablet_displayid_1600x2560.xml", number("18")),
    ("uiautomator_dump/wework_zh_720x1608.xml", contains("二进制刀仔")),
    ("uiautomator_dump/wework_zh_720x1608.xml", number("18")),
    ("uiautomator_dump/futu_niuniu_zh_1080x2092.xml", number("211.209")),
])
@pytest.mark.parametrize("joiner", [" ", "\n"])
def test_every_word_of_a_screen_fails(dump: str, check: AnswerCheck, joiner: str) -> None:
    """All the text of a real screen holds the value (that is what the old rules accepted), but it is
    not an answer."""
    words = _screen_text(dump)
    assert any(check.expect[0] in w for w in words)
    assert not passes(check, joiner.join(words))


def test_a_number_answer_is_judged_by_its_numbers() -> None:
    """Beside a number, a separator is not held against the answer (the numbers say whether it is a
    list), but a question is: an echoed instruction with the value tacked on fails, short or long."""
    assert passes(number("3"), "3 (three)")
    assert passes(number("3"), "3, I counted them")
    assert not passes(number("3"), "three? no: 3")
    assert not passes(number("3"), "How many events do I have today? 3")
    assert not passes(number("3"), "How many events do I have today? 2 or 3")


def test_a_frame_is_at_most_the_width_allowed() -> None:
    frame = "x" * LEFTOVER_WIDTH
    assert passes(contains("5th Street"), f"{frame} 5th Street")
    assert not passes(contains("5th Street"), f"{frame}x 5th Street")
    assert passes(contains("海底捞"), "啊" * (LEFTOVER_WIDTH // 2) + "海底捞")
    assert not passes(contains("海底捞"), "啊" * (LEFTOVER_WIDTH // 2 + 1) + "海底捞")  # CJK: two columns


# -- the check's definition ----------------------------------------------------------------------------

def test_expected_values_are_checked_on_load() -> None:
    with pytest.raises(ValueError, match="blank"):
        AnswerCheck(expect=[" "], match="contains")
    with pytest.raises(ValueError, match="number"):
        AnswerCheck(expect=["Grand Hyatt"], match="number")
    assert AnswerCheck(expect=["{r.fee}"], match="number")  # a placeholder, filled in per instance
    with pytest.raises(ValueError, match="one number"):
        passes(number("3 or 4"), "3")  # two numbers: the verdict is undecided, not silently false


# -- the shipped tasks ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Instance:
    """One instance of a shipped task with an answer check."""

    name: str
    instruction: str
    check: AnswerCheck
    golden: str
    near_misses: list[str]
    others: list[str]  # the golden answers of the task's other instances: other values of the same kind


def _finish_answers(script: Sequence[Action]) -> list[str]:
    return [a.answer for a in script if isinstance(a, Finish) and a.answer is not None]


def _instances() -> list[Instance]:
    repo = TaskRepository(TASKS)
    rows = []
    for task in repo.load([r for r in repo.index() if r.retrieval]):
        instances = [task.instantiate(0, i)[0] for i in range(3)]
        goldens = [_finish_answers(t.golden_script or [])[0] for t in instances]
        for i, inst in enumerate(instances):
            rows.append(Instance(
                name=f"{inst.id}[{i}]", instruction=inst.instruction,
                check=next(c for c in inst.checks if isinstance(c, AnswerCheck)), golden=goldens[i],
                near_misses=[a for miss in inst.near_misses for a in _finish_answers(miss.script)],
                others=sorted(set(goldens) - {goldens[i]})))
    return rows


@pytest.mark.parametrize("instance", _instances(), ids=lambda instance: instance.name)
def test_shipped_tasks(instance: Instance) -> None:
    """The oracle's answer passes; the near misses' answers, the instruction echoed with the answer, the
    answer in a list with the other instances' values, and the answer after every number fail."""
    check, golden = instance.check, instance.golden
    assert passes(check, golden), run_check(check, NoDevice(), golden).evidence.summary
    attacks = [*instance.near_misses, f"{instance.instruction} {golden}", f"{EVERY_NUMBER} {golden}",
               *(f"{golden}, {other}" for other in instance.others),
               *(f"{other} or {golden}" for other in instance.others)]
    if check.match == "number" and _width(instance.instruction) <= LEFTOVER_WIDTH:
        attacks.remove(f"{instance.instruction} {golden}")  # test_a_number_answer_is_judged_by_its_numbers
    for answer in attacks:
        assert not passes(check, answer), answer


def _width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)
