"""The parsing code of well-known agent programs and libraries, re-implemented expression for expression
so the suite feeds real device output and the virtual phone's output through the same code. Each
function names the file it comes from; the regular expressions are copied verbatim.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

# -- TencentQQGYLab/AppAgent scripts/and_controller.py (also ai-agents-2030/AppAgent, SPA-Bench's fork) --


@dataclass
class AndroidElement:
    uid: str
    bbox: tuple[tuple[int, int], tuple[int, int]]
    attrib: str


def appagent_get_id_from_element(elem: ET.Element) -> str:
    bounds = elem.attrib["bounds"][1:-1].split("][")
    x1, y1 = map(int, bounds[0].split(","))
    x2, y2 = map(int, bounds[1].split(","))
    elem_w, elem_h = x2 - x1, y2 - y1
    if elem.attrib.get("resource-id"):
        elem_id = elem.attrib["resource-id"].replace(":", ".").replace("/", "_")
    else:
        elem_id = f"{elem.attrib['class']}_{elem_w}_{elem_h}"
    if "content-desc" in elem.attrib and elem.attrib["content-desc"] and \
            len(elem.attrib["content-desc"]) < 20:
        content_desc = elem.attrib["content-desc"].replace("/", "_").replace(" ", "").replace(":", "_")
        elem_id += f"_{content_desc}"
    return elem_id


def appagent_traverse_tree(xml_path: Path, elem_list: list[AndroidElement], attrib: str,
                           add_index: bool = False, min_dist: int = 30) -> None:
    """`traverse_tree` (MIN_DIST is 30 in AppAgent's config.yaml)."""
    path: list[ET.Element] = []
    for event, elem in ET.iterparse(str(xml_path), ["start", "end"]):
        if event == "start":
            path.append(elem)
            if attrib in elem.attrib and elem.attrib[attrib] == "true":
                parent_prefix = ""
                if len(path) > 1:
                    parent_prefix = appagent_get_id_from_element(path[-2])
                bounds = elem.attrib["bounds"][1:-1].split("][")
                x1, y1 = map(int, bounds[0].split(","))
                x2, y2 = map(int, bounds[1].split(","))
                center = (x1 + x2) // 2, (y1 + y2) // 2
                elem_id = appagent_get_id_from_element(elem)
                if parent_prefix:
                    elem_id = parent_prefix + "_" + elem_id
                if add_index:
                    elem_id += f"_{elem.attrib['index']}"
                close = False
                for e in elem_list:
                    bbox = e.bbox
                    center_ = (bbox[0][0] + bbox[1][0]) // 2, (bbox[0][1] + bbox[1][1]) // 2
                    dist = (abs(center[0] - center_[0]) ** 2 + abs(center[1] - center_[1]) ** 2) ** 0.5
                    if dist <= min_dist:
                        close = True
                        break
                if not close:
                    elem_list.append(AndroidElement(elem_id, ((x1, y1), (x2, y2)), attrib))
        if event == "end":
            path.pop()


def appagent_window_size(wm_size_output: str) -> tuple[int, int]:
    """AndroidController.get_device_size: `map(int, result.split(": ")[1].split("x"))` of `wm size`
    (execute_adb strips the output first)."""
    w, h = map(int, wm_size_output.strip().split(": ")[1].split("x"))
    return w, h


# -- google-research/android_world android_world/env/adb_utils.py ----------------------------------

def androidworld_logical_screen_size(dumpsys_input_grep_logical_frame: str) -> tuple[int, int]:
    """get_logical_screen_size (on `dumpsys input | grep logicalFrame`)."""
    pattern = r"logicalFrame=\[0, 0, (\d+), (\d+)\]"
    matches = re.findall(pattern, dumpsys_input_grep_logical_frame)
    for m in matches:
        if int(m[0]) == 0 and int(m[1]) == 0:
            continue
        return int(m[0]), int(m[1])
    raise ValueError("Failed to get logical screen size.")


def androidworld_physical_frame_boundary(dumpsys_input_grep_physical_frame: str,
                                         orientation: int) -> tuple[int, int, int, int]:
    """get_physical_frame_boundary (on `dumpsys input | grep physicalFrame`, then get_orientation):
    the frame in portrait coordinates."""
    pattern = r"physicalFrame=\[(\d+), (\d+), (\d+), (\d+)\]"
    for m in re.findall(pattern, dumpsys_input_grep_physical_frame):
        if int(m[0]) == 0 and int(m[1]) == 0 and int(m[2]) == 0 and int(m[3]) == 0:
            continue
        if orientation == 0 or orientation == 2:
            return int(m[0]), int(m[1]), int(m[2]), int(m[3])
        return int(m[1]), int(m[0]), int(m[3]), int(m[2])
    raise ValueError("Failed to get physical frame boundary.")


def androidworld_orientation(dumpsys_window_grep_rotation: str) -> int:
    """get_orientation (on `dumpsys window | grep mCurrentRotation`)."""
    pattern = r"mCurrentRotation=ROTATION_(\d+)"
    for m in re.findall(pattern, dumpsys_window_grep_rotation):
        return int(m) // 90
    raise ValueError("Failed to get orientation.")


def androidworld_screen_size(wm_size_output: str) -> tuple[int, int]:
    """_parse_screen_size_response."""
    match = re.search(r"Physical size: (\d+)x(\d+)", wm_size_output)
    if not match:
        raise ValueError(f'Screen size information not found in adb response: "{wm_size_output}"')
    w, h = map(int, match.groups())
    return w, h


def androidworld_recents_ids(dumpsys_activity_recents: str) -> list[str]:
    """close_recents: every `id=(\\d+)` of `dumpsys activity recents` is passed to `am stack remove`."""
    return re.findall(r"id=(\d+)", dumpsys_activity_recents)


# -- google-deepmind/android_env android_env/components/adb_call_parser.py -------------------------

def androidenv_current_activity(am_stack_list_grep_visible: str) -> str:
    """_get_current_activity (on `am stack list | grep -E visible=true`)."""
    p = re.compile(r".*\{(.*)\}")
    matches = p.search(am_stack_list_grep_visible)
    if matches is None:
        raise ValueError("Could not extract current activity.")
    return matches.group(1)


def androidenv_task_id(am_stack_list: str, full_activity_name: str) -> int:
    """_fetch_current_task_id."""
    regex = re.compile(
        r"^\ *taskId=(?P<id>[0-9]*): (?P<base_activity>[^\s]*) .*visible=true"
        r".*topActivity=ComponentInfo{(?P<top_activity>[^\s]*)}$")
    for line in am_stack_list.splitlines():
        match = regex.search(line)
        if match is None:
            continue
        if full_activity_name not in {match.group("base_activity"), match.group("top_activity")}:
            continue
        return int(match.group("id"))
    return -1


def androidenv_orientation(dumpsys_input: str) -> int:
    """_get_orientation (on the whole `dumpsys input`)."""
    skip_next = False
    for line in dumpsys_input.split("\n"):
        physical_width = re.match(r"\s+PhysicalWidth:\s+(-?\d+)px", line)
        if physical_width:
            skip_next = int(physical_width.group(1)) < 0
        surface_orientation = re.match(r"\s+(SurfaceOrientation|InputDeviceOrientation):\s+(\d)", line)
        if surface_orientation is not None:
            if skip_next:
                continue
            return int(surface_orientation.group(2))
    raise ValueError("Could not find SurfaceOrientation/InputDeviceOrientation in dumpsys output")


# -- openatx/adbutils adbutils/shell.py (the version in this project's lock) -----------------------

ADBUTILS_DISPLAY_RE = re.compile(
    r".*DisplayViewport{.*?valid=true, .*?orientation=(?P<orientation>\d+), .*?deviceWidth=(?P<width>\d+), "
    r"deviceHeight=(?P<height>\d+).*"
)
ADBUTILS_FOCUSED_RE = re.compile(r"mCurrentFocus=Window{.*\s+(?P<package>[^\s]+)/(?P<activity>[^\s]+)\}")


def adbutils_rotation(dumpsys_display: str) -> int:
    """AbstractShellDevice.rotation."""
    for line in dumpsys_display.splitlines():
        m = re.search(r".*?orientation=(?P<orientation>\d+)", line)
        if not m:
            continue
        return int(m.group("orientation"))
    raise ValueError("rotation get failed")


def adbutils_wm_size(wm_size_output: str) -> tuple[int, int]:
    """_wm_size: the override size wins over the physical one."""
    o = re.search(r"Override size: (\d+)x(\d+)", wm_size_output)
    if o:
        return int(o.group(1)), int(o.group(2))
    m = re.search(r"Physical size: (\d+)x(\d+)", wm_size_output)
    if m:
        return int(m.group(1)), int(m.group(2))
    raise ValueError("wm size output unexpected")


# -- openatx/uiautomator2 uiautomator2/_input.py ---------------------------------------------------

def u2_broadcast_result(output: str) -> tuple[int | None, str | None]:
    """_must_broadcast's reading of `am broadcast` output."""
    m_result = re.search(r"result=(-?\d+)", output)
    m_data = re.search(r'data="([^"]+)"', output)
    return (int(m_result.group(1)) if m_result else None, m_data.group(1) if m_data else None)


# -- X-PLUG/MobileAgent Mobile-Agent-v2/MobileAgent/controller.py and AppAgent's text(use_adb_keyboard) -

def mobile_agent_type_commands(text: str) -> list[str]:
    """The shell commands `type()` issues, one per character (ADBKeyboard for anything not ASCII)."""
    commands = []
    text = text.replace("\\n", "_").replace("\n", "_")
    for char in text:
        if char == " ":
            commands.append("input text %s")
        elif char == "_":
            commands.append("input keyevent 66")
        elif "a" <= char <= "z" or "A" <= char <= "Z" or char.isdigit():
            commands.append(f"input text {char}")
        elif char in "-.,!?@'°/:;()":
            commands.append(f'input text "{char}"')
        else:
            commands.append(f'am broadcast -a ADB_INPUT_TEXT --es msg "{char}"')
    return commands
