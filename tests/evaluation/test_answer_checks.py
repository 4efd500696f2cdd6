"""An answer means what it says (AnswerCheck's contract, graded by spa_bench/evaluation/answers.py).

Each answer check declares its kind; the answer is read as that kind and passes only when it states exactly
one value, the expected one, in an ordinary frame. Natural answers in English and Chinese pass; negation,
hedges, several candidates, the wrong half of the day, a date in another order naming another day, a wrong
unit or currency fail, and so do the ways to game a substring rule: junk, the instruction echoed, lists,
every number from 0 to 100, every word of a real screen (uiautomator dumps from real devices). Last, the
shipped tasks as they are: every golden answer passes on three instances, and every near miss (declared, and
the negated and hedged ones derived from the golden script) and every attack built from a task's own
instruction and values fails."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from spa_bench.actions import Action, Finish
from spa_bench.evaluation.answers import LEFTOVER_WIDTH, answer_problem, normalize_answer
from spa_bench.evaluation.capture import CommandResult
from spa_bench.evaluation.state_checks import run_check
from spa_bench.tasks.checks import ANSWER_KINDS, AnswerCheck
from spa_bench.tasks.near_misses import answer_near_misses
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


def passes(check: AnswerCheck, answer: str | None, question: str | None = None) -> bool:
    return run_check(check, NoDevice(), answer, question=question).passed


def check(kind: str, *expect: str, **fields: Any) -> AnswerCheck:
    return AnswerCheck(kind=kind, expect=list(expect), **fields)


def money(amount: str, currency: str = "USD") -> AnswerCheck:
    return check("money", amount, currency=currency)


# -- normalisation -------------------------------------------------------------------------------------

@pytest.mark.parametrize(("raw", "normal"), [
    ("  Grand   Hyatt. ", "grand hyatt"),
    ("Answer: Grand Hyatt", "grand hyatt"),
    ("The answer is: \"Grand Hyatt\".", "grand hyatt"),
    ("**Final answer:** Grand Hyatt", "grand hyatt"),
    ("answer:\nGrand Hyatt", "grand hyatt"),
    ("'Grand Hyatt'", "grand hyatt"),
    ("[Grand Hyatt]", "grand hyatt"),
    ("答案是：海底捞。", "海底捞"),
    ("答案：“海底捞”", "海底捞"),
    ("答：《三体》", "三体"),
    ("【海底捞】！", "海底捞"),
    ("３ 个", "3个"),  # full-width folds; no space between CJK and digits
    ("(415) 552-2522", "(415) 552-2522"),  # brackets that do not wrap the whole answer stay
    ("'a' or 'b'", "'a' or 'b'"),
    ("Answered", "answered"),
])
def test_normalisation(raw: str, normal: str) -> None:
    assert normalize_answer(raw) == normal


def test_case_sensitive_text_keeps_case() -> None:
    assert normalize_answer("ANSWER: KX7Q2M", case_sensitive=True) == "KX7Q2M"
    assert not passes(check("text", "KX7Q2M", case_sensitive=True), "kx7q2m")
    # frame words in any case
    assert passes(check("text", "KX7Q2M", case_sensitive=True), "The code is KX7Q2M.")


# -- the value alone and in ordinary frames ------------------------------------------------------------

PASS = [  # (check, answer, question: the instruction whose words may frame the value, or None)
    (money("27.50"), "$27.50", None),
    (money("27.50"), "The total was $27.50.", None),
    (money("27.50"), "27.50", None),
    (money("34.99", "CNY"), "¥34.99", None),
    (money("34.99", "CNY"), "34.99元", None),
    (money("34.99", "CNY"), "一共34.99元", "这瓶防晒霜一共多少钱？"),
    (check("number", "3"), "3 tomatoes", "How many tomatoes are on the list?"),
    (check("number", "3"), "三个", None),
    (check("number", "3"), "You have 3 events today.", "How many events do I have today?"),
    (check("number", "58213"), "58,213 files", "How many files are on the phone?"),
    (check("number", "12000"), "一万二千步", "我今天走了多少步？"),
    (check("number", "12000"), "1.2万步", "我今天走了多少步？"),
    (check("number", "4.5"), "4.5 stars", "How many stars does the kettle have?"),
    (check("number", "14"), "Android 14", "这台手机的 Android 版本是多少？"),  # Latin word, Chinese question
    (check("number", "8849", unit="m"), "8,849 m", None),
    (check("number", "8849", unit="m"), "8849米", None),
    (check("number", "8849", unit="m"), "8849", None),
    (check("number", "6.38", unit="km2"), "6.38 平方千米", None),
    (check("time", "08:00"), "8:00", None),
    (check("time", "08:00"), "是 8:00。", None),
    (check("time", "08:00"), "8 AM", None),
    (check("time", "08:00"), "早上8点", None),
    (check("time", "20:00"), "8:00 PM", None),
    (check("time", "20:00"), "晚上8点", None),
    (check("time", "20:00"), "20:00", None),
    (check("time", "19:30"), "7:30 p.m.", None),
    (check("time", "19:00", bare_12h=True), "7:00", None),
    (check("date", "2024-02-10"), "Feb 10, 2024", None),
    (check("date", "2024-02-10"), "2/10/2024", None),
    (check("date", "2024-02-10"), "2024年2月10日", None),
    (check("date", "2024-02-10"), "2月10日", None),
    (check("date", "2024-02-10"), "It's on February 10.", None),
    (check("duration", "312"), "5 min 12 sec", None),
    (check("duration", "PT5M12S"), "5分12秒", None),
    (check("duration", "312"), "5:12", None),
    (check("person", "Chloe Kim"), "Chloe Kim.", None),
    (check("person", "Chloe Kim"), "It was Chloe Kim.", None),
    (check("person", "林小满"), "答案是林小满。", None),
    (check("person", "林小满"), "是林小满", None),
    (check("email", "grace.lee@example.com"), "Her email is Grace.Lee@example.com.",
     "What is Grace Lee's email?"),
    (check("phone", "4155550186", country_code="1"), "+1 415-555-0186", None),
    (check("phone", "4155550186"), "(415) 555-0186", None),
    (check("choice", "Wi-Fi", choices=["Wi-Fi", "Bluetooth", "NFC"]), "Wi-Fi", None),
    (check("yes_no", "yes"), "Yes, she called back.", "Did she call back?"),
    (check("yes_no", "yes"), "是的，她回电了。", "她回电了吗？"),
    (check("yes_no", "no"), "No, she did not.", None),
    (check("yes_no", "no"), "No, she didn't call back.", "Did she call back?"),
    (check("yes_no", "no"), "没有", None),
    (check("yes_no", "no"), "没接", "我有没有接妈妈的电话？"),
    (check("text", "5th Street"), "The café is on 5th Street.", "Which street is the café on?"),
    (check("text", "sunflower2024"), "The Wi-Fi password is sunflower2024", "What's my home Wi-Fi password?"),
    (check("text", "海底捞"), "海底捞（望京店）", "我们明天在哪家店吃饭？（望京店还是国贸店）"),
    (check("text", "三体"), "是刘慈欣的《三体》", "我在读刘慈欣的哪本书？"),
    (check("text", r"8 ?楼第二会议室", match="regex"), "在 8 楼第二会议室", None),
    (check("time", "15:00", together_with=["Friday", "周五"]), "Friday at 3 PM", None),
]


@pytest.mark.parametrize(("answer_check", "answer", "question"), PASS)
def test_the_value_alone_and_in_frames_passes(answer_check: AnswerCheck, answer: str,
                                              question: str | None) -> None:
    """Graded as the answer to `question`, whose words may frame the value (None: frame words only)."""
    assert passes(answer_check, answer, question), answer_problem(answer_check, answer, question)


# -- what the issue names: negation, hedges, candidates, wrong half, other day, wrong unit ---------------

NEGATIONS_EN = ["not {x}", "It is not {x}.", "never {x}", "It isn't {x}", "No, {x} is wrong", "{x}? No."]
NEGATIONS_ZH = ["不是{x}", "并非{x}", "没有{x}", "{x}不对", "答案不是{x}。"]
HEDGES_EN = ["maybe {x}", "perhaps {x}", "probably {x}", "It might be {x}.", "either {x} or something else",
             "{x}, I think", "{x} or so"]
HEDGES_ZH = ["可能是{x}", "也许{x}", "大概{x}", "{x}或者别的", "是{x}还是别的", "应该是{x}吧"]
SAID = [(money("27.50"), "$27.50"), (check("number", "3"), "3"), (check("time", "08:00"), "8:00"),
        (check("date", "2024-02-10"), "Feb 10"), (check("person", "Chloe Kim"), "Chloe Kim"),
        (check("text", "5th Street"), "5th Street"), (check("phone", "4155550186"), "415-555-0186"),
        (check("duration", "312"), "5 min 12 sec"), (check("email", "a@b.io"), "a@b.io")]


@pytest.mark.parametrize("form", NEGATIONS_EN + NEGATIONS_ZH + HEDGES_EN + HEDGES_ZH)
@pytest.mark.parametrize(("answer_check", "value"), SAID, ids=[s for _, s in SAID])
def test_negated_and_hedged_values_fail(answer_check: AnswerCheck, value: str, form: str) -> None:
    answer = form.replace("{x}", value)
    assert passes(answer_check, value)
    assert not passes(answer_check, answer), answer


FAIL = [
    # several candidates
    (money("27.50"), "$27.50 or $30.00"), (money("27.50"), "$29.99, $27.50, $39.99"),
    (check("number", "3"), "2 or 3"), (check("number", "3"), "1,2,3"), (check("number", "3"), "2、3、4"),
    (check("time", "08:00"), "8:00或9:00"), (check("date", "2024-02-10"), "Feb 10 or Feb 11"),
    (check("person", "Chloe Kim"), "Chloe Kim and Dana Lee"), (check("text", "海底捞"), "海底捞、国贸大酒店"),
    (check("choice", "Wi-Fi", choices=["Wi-Fi", "Bluetooth"]), "Wi-Fi, Bluetooth"),
    (check("yes_no", "yes"), "yes or no"), (check("yes_no", "yes"), "Yes. No."),
    (check("email", "m.chang@example.com"), "m.chang@example.com / Ben Carter"),
    (check("email", "m.chang@example.com"), "one of m.chang@example.com and Ben Carter"),
    (check("yes_no", "no"), "no / Call Wang Fang"), (check("number", "31"), "31 | Lotus Garden"),
    # the wrong half of the day
    (check("time", "08:00"), "8:00 PM"), (check("time", "08:00"), "晚上8点"),
    (check("time", "08:00"), "20:00"),
    (check("time", "20:00"), "8:00"), (check("time", "20:00"), "8 AM"),
    # a date in another order that names another day
    (check("date", "2024-02-10"), "10/2/2024"), (check("date", "2024-02-10"), "2024-10-02"),
    (check("date", "2024-02-10"), "Feb 10, 2023"),
    # a wrong unit or currency
    (check("number", "8849", unit="m"), "8,849 ft"), (check("number", "5", unit="km"), "5 miles"),
    (money("27.50"), "¥27.50"), (money("27.50"), "27.50元"), (money("34.99", "CNY"), "$34.99"),
    # wrong values that share digits or words
    (money("27.50"), "$127.50"), (check("number", "58213"), "5,821 files"),
    (check("number", "3.5"), "3,5 km"),
    (check("person", "Chloe Kim"), "Chloe Kimball"), (check("text", "5th Street"), "15th Street"),
    (check("text", "上海博物馆"), "上海自然博物馆"), (check("duration", "312"), "5 min 21 sec"),
    (check("phone", "4155550186"), "415-555-0187"), (check("yes_no", "yes"), "No"),
    (check("choice", "Wi-Fi", choices=["Wi-Fi", "Bluetooth"]), "NFC"),
    (check("time", "15:00", together_with=["Friday", "周五"]), "Saturday at 3 PM"),
    # junk, echoes, every number
    (check("number", "42"), EVERY_NUMBER), (check("text", "31"), EVERY_NUMBER),
    (check("text", "117"), "Where did I park? I wrote the spot down in my notes. 117"),
    (check("text", "117"), "我的车停在哪个车位？记事里有写。117"),
    (check("number", "3"), "How many events do I have today? 3"),
    (money("4.49"), "What does the gallon of whole milk cost at Greenleaf Market? $4.49"),
    (check("text", "Grand Hyatt"), "asdf qwer zxcv Grand Hyatt lorem ipsum dolor sit amet consectetur"),
    (check("text", "海底捞"), "啊" * 30 + "海底捞"),
    (check("person", "Chloe Kim"), None), (check("person", "Chloe Kim"), "  "),
]


@pytest.mark.parametrize(("answer_check", "answer"), FAIL)
def test_wrong_and_gamed_answers_fail_and_say_why(answer_check: AnswerCheck, answer: str | None) -> None:
    result = run_check(answer_check, NoDevice(), answer)
    assert not result.passed, answer
    assert result.evidence.details["problem"]  # the evidence says why


def _screen_text(relative: str) -> list[str]:
    path = DUMPS / relative
    if not path.is_file():
        pytest.skip(f"reference capture {path} is absent (the shared/ folder beside the repository)")
    return [n.attrib["text"] for n in ET.parse(path).iter("node") if n.attrib.get("text", "").strip()]


@pytest.mark.parametrize(("dump", "answer_check"), [
    ("uiautomator_dump/google_maps_llamatouch_1080x1792.xml", check("text", "Soul Vegetarian No. 2")),
    ("uiautomator_dump/google_maps_llamatouch_1080x1792.xml", check("number", "4.3")),
    ("uiautomator_dump/transsion_xos_launcher_drawer_en_1080x2156.xml", check("text", "Notepad")),
    ("u2_hierarchy/u2_google_tasks_tablet_displayid_1600x2560.xml", check("number", "18")),
    ("uiautomator_dump/wework_zh_720x1608.xml", check("person", "二进制刀仔")),
    ("uiautomator_dump/wework_zh_720x1608.xml", check("number", "18")),
    ("uiautomator_dump/futu_niuniu_zh_1080x2092.xml", check("number", "211.209")),
])
@pytest.mark.parametrize("joiner", [" ", "\n"])
def test_every_word_of_a_screen_fails(dump: str, answer_check: AnswerCheck, joiner: str) -> None:
    """All the text of a real screen holds the value, but it is not an answer."""
    words = _screen_text(dump)
    assert any(answer_check.expect[0] in w for w in words)
    assert not passes(answer_check, joiner.join(words))


def test_a_frame_is_at_most_the_width_allowed() -> None:
    frame = "it" + " a" * 19  # frame words, 40 columns
    assert passes(check("text", "5th Street"), f"{frame} 5th Street")
    assert not passes(check("text", "5th Street"), f"the{frame[2:]} 5th Street")  # 41 columns
    assert passes(check("text", "海底捞"), "是" * (LEFTOVER_WIDTH // 2) + "海底捞")
    assert not passes(check("text", "海底捞"), "是" * (LEFTOVER_WIDTH // 2 + 1) + "海底捞")
    # (a CJK character takes two columns)


# -- the check's definition ----------------------------------------------------------------------------

@pytest.mark.parametrize(("fields", "message"), [
    ({"expect": ["3"]}, "kind"),
    ({"kind": "colour", "expect": ["red"]}, "kind"),
    ({"kind": "text", "expect": [" "]}, "blank"),
    ({"kind": "number", "expect": ["Grand Hyatt"]}, "exactly one number"),
    ({"kind": "number", "expect": ["3 or 4"]}, "exactly one number"),
    ({"kind": "money", "expect": ["27.50"]}, "currency"),
    ({"kind": "time", "expect": ["8:00 PM"]}, "HH:MM"),
    ({"kind": "date", "expect": ["02/10/2024"]}, "YYYY-MM-DD"),
    ({"kind": "yes_no", "expect": ["maybe"]}, "yes or no"),
    ({"kind": "choice", "expect": ["Wi-Fi"], "choices": ["Wi-Fi"]}, "at least two"),
    ({"kind": "choice", "expect": ["NFC"], "choices": ["Wi-Fi", "Bluetooth"]}, "not one of the choices"),
    ({"kind": "time", "expect": ["08:00"], "currency": "USD"}, r"do\(es\) not apply"),
    ({"kind": "text", "expect": ["("], "match": "regex"}, ""),
])
def test_a_bad_check_is_refused_on_load_naming_what_is_wrong(fields: dict[str, Any], message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        AnswerCheck(**fields)


def test_kind_fields_may_be_filled_in_per_instance() -> None:
    assert AnswerCheck(kind="{q.kind}", expect=["{q.answer}"], unit="{q.unit}")
    with pytest.raises(ValueError, match="never filled in"):
        answer_problem(AnswerCheck(kind="{q.kind}", expect=["3"]), "3")
    assert set(ANSWER_KINDS) == {"number", "money", "time", "date", "duration", "person", "email", "phone",
                                 "choice", "yes_no", "text"}


# -- the shipped tasks ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Instance:
    """One instance of a shipped task with an answer check."""

    name: str
    instruction: str
    check: AnswerCheck
    golden: str
    near_misses: list[str]  # the declared ones' answers and the derived negated and hedged ones
    others: list[str]  # the golden answers of the task's other instances: other values of the same kind


def _finish_answers(script: Sequence[Action]) -> list[str]:
    return [a.answer for a in script if isinstance(a, Finish) and a.answer is not None]


def _instances() -> list[Instance]:
    repo = TaskRepository(TASKS)
    rows = []
    for task in repo.load([r for r in repo.index() if r.retrieval]):
        instances = [task.instantiate(0, i)[0] for i in range(3)]
        goldens = [_finish_answers(t.golden_script or [])[-1] for t in instances]
        checks = [next(c for c in t.checks if isinstance(c, AnswerCheck)) for t in instances]
        for i, inst in enumerate(instances):
            misses = [*inst.near_misses, *answer_near_misses(inst)]
            rows.append(Instance(
                name=f"{inst.id}[{i}]", instruction=inst.instruction, check=checks[i], golden=goldens[i],
                near_misses=[a for miss in misses for a in _finish_answers(miss.script)],
                others=sorted({g for g, c in zip(goldens, checks, strict=True) if c.kind == checks[i].kind}
                              - {goldens[i]})))  # a task whose kind is a parameter asks for several
    return rows


def test_every_answer_task_has_a_negated_and_a_hedged_near_miss() -> None:
    repo = TaskRepository(TASKS)
    tasks = repo.load([r for r in repo.index() if r.retrieval])
    assert len(tasks) >= 80
    for task in tasks:
        derived = [m.description for m in answer_near_misses(task.instantiate(0, 0)[0])]
        wanted = ["the right answer negated", "the right answer hedged"]
        assert [d.split(":")[0] for d in derived] == wanted, \
            task.id


@pytest.mark.parametrize("instance", _instances(), ids=lambda instance: instance.name)
def test_shipped_tasks(instance: Instance) -> None:
    """The oracle's answer passes; the near misses' answers, the instruction echoed with the answer, the
    answer in a list with the other instances' values, and the answer after every number fail."""
    answer_check, golden, question = instance.check, instance.golden, instance.instruction
    assert passes(answer_check, golden, question), answer_problem(answer_check, golden, question)
    attacks = [*instance.near_misses, f"{instance.instruction} {golden}", f"{EVERY_NUMBER} {golden}",
               *(f"{golden}, {other}" for other in instance.others),
               *(f"{other} or {golden}" for other in instance.others)]
    for answer in attacks:
        assert not passes(answer_check, answer, question), answer


@pytest.mark.parametrize(("answer", "passed"), [
    ("Dana Lee Chloe Kim Ivan Petrov", False), ("Ivan Petrov Chloe Kim", False), ("Chloe Kim Ivan", False),
    ("Ask Chloe Kim", True), ("It was Chloe Kim.", True), ("Chloe Kim called back", True),
])
def test_names_run_together_are_a_list(answer: str, passed: bool) -> None:
    """Separators left out of a list of names: capitalised words run on from the value (one after it, two
    before it; a single capitalised word before it is a frame, as in "It's in Room 4B")."""
    question = "Who called back? Ask the contacts."
    assert passes(check("person", "Chloe Kim"), answer, question) is passed
    assert passes(check("text", "4B"), "It's in Room 4B", "Which room is the meeting in?")


# -- only the value, the question's words and frame words ---------------------------------------------------

RETRACTED = ["{x} - false", "{x}: false", "{x} (that is a lie)", "{x} (just kidding)", "anything but {x}",
             "everything except {x}", "≠ {x}", "¬{x}", "!{x}", "nоt {x}", "n\u200bot {x}",
             "unknown (saw {x} somewhere)", "idk, {x}", "{x}, unverified", "{x} if I read it right",
             "less than {x}", "more than {x}", "at least {x}", "under {x}", "≈{x}", "{x} next week",
             "{x}（假的）", "{x}，开玩笑的", "约{x}", "{x}以前", "超过{x}", "不到{x}"]
QUESTIONS = [  # (check, the value as said, the question)
    (money("4.49"), "$4.49", "How much does the gallon of milk cost at Greenleaf Market?"),
    (check("number", "3"), "3", "How many events do I have today?"),
    (check("time", "10:00"), "10:00 AM", "What time is my meeting tomorrow morning?"),
    (check("person", "Chloe Kim"), "Chloe Kim", "Who commented first on the post?"),
    (check("text", "东门"), "东门", "我们约在香山哪个门见？"),
]


@pytest.mark.parametrize("form", RETRACTED)
@pytest.mark.parametrize(("answer_check", "value", "question"), QUESTIONS, ids=[v for _, v, _ in QUESTIONS])
def test_words_that_retract_bound_or_move_the_value_fail(answer_check: AnswerCheck, value: str, question: str,
                                                         form: str) -> None:
    """What stands beside the value is frame words, the question's words and plain punctuation, or the
    answer fails: a grader cannot list every wording that changes a value's meaning, so it lists what may
    frame one. Words that retract or bound a value fail even when the question holds them ("约" in 约在)."""
    assert passes(answer_check, value, question)
    assert not passes(answer_check, form.replace("{x}", value), question)


@pytest.mark.parametrize(("answer_check", "answer"), [
    (money("4.49"), "-$4.49"), (money("4.49"), "$4.49k"), (check("number", "3"), "-3"),
    (check("number", "3"), "3k"), (check("number", "3"), "3 thousand"), (check("number", "3"), "3%"),
    (check("number", "3"), "$3"), (money("4.49"), "4.49 EUR"), (money("4.49"), "4.49 cents"),
    (money("18", "CNY"), "18.00分"), (money("18", "CNY"), "18元小时"), (check("duration", "312"), "5:12 AM"),
    (check("number", "2022"), "2022小时"),
])
def test_a_sign_a_scale_or_a_unit_the_question_does_not_ask_for_fails(answer_check: AnswerCheck,
                                                                      answer: str) -> None:
    assert not passes(answer_check, answer, "How much is it? 多少？")


@pytest.mark.parametrize(("answer", "passed"), [
    ("No.", True), ("No, I did not.", True), ("No, I didn't pick up.", True), ("没接", True),
    ("没有，我没接。", True), ("no, I did pick up", False), ("no is incorrect", False), ("no (wrong)", False),
    ("no, not sure", False), ("no/nox", False), ("no and nox", False), ("不是没接", False),
    ("没接，接了", False), ("没接，开玩笑的", False),
])
def test_a_no_says_nothing_against_it(answer: str, passed: bool) -> None:
    question_en, question_zh = "Did I pick up the call from Mom?", "我接了妈妈的电话吗？"
    question = question_zh if any("\u4e00" <= ch <= "\u9fff" for ch in answer) else question_en
    assert passes(check("yes_no", "no"), answer, question) is passed


@pytest.mark.parametrize("form", ["from {x}", "old {x}", "{x} (old)", "The old answer is {x}", "{x} earlier",
                                  "{x} and so on", "{x}多", "哪是{x}", "{x}什么的", "之前{x}", "{x}等",
                                  "{x}来着", "{x}和其他"])
def test_words_of_the_question_that_move_the_value_still_fail(form: str) -> None:
    """A second red team's wordings: a frame word that reads as "starting at" or "the old one", and words of
    the question ("多" of 多少, "哪" of 哪个, "之前", "earlier") that qualify the value beside it."""
    question = "How many hours earlier, from the old plan? 一年有多少小时？哪个是之前的？什么等来着，和其他"
    assert passes(check("number", "8760"), "8760", question)
    assert not passes(check("number", "8760"), form.replace("{x}", "8760"), question)
